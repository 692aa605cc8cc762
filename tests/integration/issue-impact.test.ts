/**
 * Impact in the score (docs/api.md#score): the queue weighs how many signals an issue gathered, the
 * queue and the claim agree, and a storm of grouped signals moves an issue's queue entry only when
 * its count reaches a power of two — counted here on the writes themselves.
 */
import { describe, expect, it, vi } from "vitest";
import type { Db, TransactItem } from "../../core/src/db/db.js";
import { appFleet } from "../../testkit/fleet.js";
import { AUTH, dataOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES, testConfig } from "../helpers/db.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";

vi.setConfig({ maxConcurrency: 3 });

type Issue = { id: string; identifier: string; signalCount: number; status: string };
type QueueItem = { issue: Issue; score: number; breakdown: Record<string, number> };

const QUEUE_ENTRY = "$kaizen#queuelist_1#";

/** Counts the transactions that wrote the queue's entries and landed, on every client watched. */
class QueueWrites {
  private landed = 0;

  watch(db: Db): this {
    const original = db.transactWrite.bind(db);
    vi.spyOn(db, "transactWrite").mockImplementation(async (items: TransactItem[]) => {
      await original(items);
      if (items.some(touchesQueue)) this.landed++;
    });
    return this;
  }

  count(): number {
    return this.landed;
  }
}

function touchesQueue(item: TransactItem): boolean {
  const key = item.Put?.Item ?? item.Delete?.Key ?? item.Update?.Key;
  return typeof key?.pk === "string" && key.pk.startsWith(QUEUE_ENTRY);
}

function patch(body: unknown): RequestInit {
  return { method: "PATCH", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

/** A code-host issue opened, then accepted to `todo` by hand: it has a place in the queue. */
async function queuedIssue(t: Pick<TestApp, "app">, number: number, repo = "octo-org/impact"): Promise<Issue> {
  const delivery = codehostDelivery("issues", issueEvent("opened", number, `Issue ${number}`, repo));
  const { issue } = await dataOf<{ issue: Issue }>(t.app.request(delivery.path, delivery.init), 201);
  return dataOf<Issue>(t.app.request(`/api/issues/${issue.id}`, patch({ status: "todo" })));
}

async function group(to: Requester, number: number, repo = "octo-org/impact") {
  const delivery = codehostDelivery("issues", issueEvent("edited", number, `Issue ${number}`, repo));
  const response = await to.request(delivery.path, delivery.init);
  return response.status;
}

async function queue(t: Pick<TestApp, "app">) {
  return (await (await t.app.request("/api/dispatch/queue?limit=100", { headers: AUTH })).json()) as {
    data: QueueItem[];
  };
}

describe("the impact term", () => {
  it("ranks an issue seen eight times above an older one-off, in the queue and the claim alike", async () => {
    const t = await testApp();
    const oneOff = await queuedIssue(t, 1);
    const frequent = await queuedIssue(t, 2);
    for (let i = 0; i < 7; i++) expect(await group(t.app, 2)).toBe(201);
    const { data } = await queue(t);
    expect(data.map((item) => item.issue.id)).toEqual([frequent.id, oneOff.id]);
    expect(data[0]?.breakdown).toMatchObject({ impact: 30 });
    expect(data[0]?.issue.signalCount).toBe(8);
    expect(data[1]?.breakdown).toMatchObject({ impact: 0 });
    const score = data[0]?.breakdown;
    expect(data[0]?.score).toBeCloseTo(
      (score?.priority ?? 0) + (score?.type ?? 0) + (score?.goal ?? 0) + (score?.age ?? 0) + (score?.impact ?? 0),
      9,
    );
    const claim = await dataOf<{ issue: Issue }>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" })), 201);
    expect(claim.issue.id).toBe(frequent.id);
  });

  it("moves a queued issue's entry only when its count reaches 2, 4, 8, 16 and 32, one signal after another", async () => {
    const t = await testApp();
    const issue = await queuedIssue(t, 3);
    const counted = new QueueWrites().watch(t.db);
    for (let i = 0; i < 40; i++) expect(await group(t.app, 3)).toBe(201);
    expect(counted.count()).toBe(5);
    const { data } = await queue(t);
    expect(data[0]?.issue).toMatchObject({ id: issue.id, signalCount: 41 });
    expect(data[0]?.breakdown.impact).toBe(50);
  });

  it("leaves a triage issue's writes alone: it has no place in the queue to move", async () => {
    const t = await testApp();
    const delivery = codehostDelivery("issues", issueEvent("opened", 4, "Issue 4", "octo-org/impact"));
    await dataOf(t.app.request(delivery.path, delivery.init), 201);
    const counted = new QueueWrites().watch(t.db);
    for (let i = 0; i < 8; i++) expect(await group(t.app, 4)).toBe(201);
    expect(counted.count()).toBe(0);
  });

  describe.each(CONFLICT_MODES)("a storm into a queued issue, $mode", ({ emulateConflicts }) => {
    it("60 deliveries at once through a fleet: all counted, the entry moved at most once per power of two, queue and claim agree", async () => {
      const t = await testApp({}, { emulateConflicts });
      const issue = await queuedIssue(t, 5);
      const other = await queuedIssue(t, 6);
      const counted = new QueueWrites();
      const fleet = appFleet(testConfig({ tableName: t.tableName, endpoint: t.endpoint }), {
        emulateConflicts,
        onLaunch: ({ db }) => counted.watch(db),
      });
      const statuses = await Promise.all(Array.from({ length: 60 }, () => group(fleet, 5)));
      fleet.destroy();
      expect(statuses.filter((status) => status === 201)).toHaveLength(60);
      expect(counted.count()).toBeLessThanOrEqual(5);
      const stored = await dataOf<Issue>(t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }));
      expect(stored.signalCount).toBe(61);
      const { data } = await queue(t);
      expect(data.map((item) => item.issue.id)).toEqual([issue.id, other.id]);
      expect(data[0]?.breakdown.impact).toBe(50);
      const claim = await dataOf<{ issue: Issue }>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" })), 201);
      expect(claim.issue.id).toBe(issue.id);
    });

    it("60 deliveries at once on one instance move the entry at most five times", async () => {
      const t = await testApp({}, { emulateConflicts });
      const issue = await queuedIssue(t, 7);
      const counted = new QueueWrites().watch(t.db);
      const statuses = await Promise.all(Array.from({ length: 60 }, () => group(t.app, 7)));
      expect(statuses.every((status) => status === 201)).toBe(true);
      expect(counted.count()).toBeLessThanOrEqual(5);
      const { data } = await queue(t);
      expect(data[0]?.issue).toMatchObject({ id: issue.id, signalCount: 61 });
      expect(data[0]?.breakdown.impact).toBe(50);
    });
  });
});
