/**
 * Merging duplicates (docs/api.md#merging-duplicates): the source is canceled with a `duplicate`
 * relation, the target takes its fingerprints, signals and priority, later signals of either group
 * into the target, and a signal that arrives while the merge commits lands on exactly one of them
 * (both conflict modes, and a fleet of one-request instances), with every count exact afterwards.
 */
import { describe, expect, it, vi } from "vitest";
import { appFleet } from "../../testkit/fleet.js";
import {
  dashboardMismatches,
  listingCountMismatches,
  recountDashboard,
  scanTable,
  signalCountMismatches,
} from "../../testkit/recount.js";
import { AUTH, dataOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES, testConfig } from "../helpers/db.js";
import { codehostDelivery, errortrackerDelivery, issueEvent } from "../helpers/deliveries.js";

vi.setConfig({ maxConcurrency: 3 });

type Issue = {
  id: string;
  identifier: string;
  status: string;
  priority: number;
  fingerprint: string | null;
  fingerprints: string[];
  signalCount: number;
  lastSignalAt: string | null;
  statusChange: { by: string } | null;
};
type Relation = { type: string; relatedIssueId: string };
type Signal = { id: string; issueId: string | null; action: string };

function patch(body: unknown): RequestInit {
  return { method: "PATCH", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

/** A GitHub-style issue event of `number` on `repo`: the first opens an issue, the rest group into it. */
async function codehostSignal(to: Requester, action: string, number: number, repo = "acme/shop") {
  const delivery = codehostDelivery("issues", issueEvent(action, number, `Checkout fails ${number}`, repo));
  return dataOf<{ signal: Signal; issue: Issue }>(to.request(delivery.path, delivery.init), 201);
}

/** A Sentry-style error of tracker issue `id` at `level`. */
async function trackerSignal(to: Requester, id: string, level = "error") {
  const delivery = errortrackerDelivery("issue", {
    action: "created",
    data: { issue: { id, title: `TypeError ${id}`, level, count: "3", project: { slug: "checkout-web" } } },
  });
  return dataOf<{ signal: Signal; issue: Issue }>(to.request(delivery.path, delivery.init), 201);
}

function merge(to: Requester, id: string, intoId: string) {
  return to.request(`/api/issues/${id}/merge`, jsonPost({ intoId }));
}

async function issue(t: TestApp, id: string) {
  return dataOf<Issue & { relations: Relation[] }>(t.app.request(`/api/issues/${id}`, { headers: AUTH }));
}

async function signalsOf(t: TestApp, id: string) {
  return (await (await t.app.request(`/api/issues/${id}/signals?limit=100`, { headers: AUTH })).json()) as {
    data: Signal[];
    total: number;
  };
}

describe("POST /api/issues/:id/merge", () => {
  it("folds the error-tracker issue into the code host's: fingerprints, signals, priority, relation, later signals", async () => {
    const t = await testApp();
    const { issue: tracker } = await trackerSignal(t.app, "901", "fatal");
    await trackerSignal(t.app, "901", "fatal");
    const { issue: filed } = await codehostSignal(t.app, "opened", 7);
    const response = await merge(t.app, tracker.id, filed.identifier);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toMatch(/^"\d+"$/);
    const { data: stayed } = (await response.json()) as { data: Issue };
    expect(stayed).toMatchObject({
      id: filed.id,
      fingerprints: [filed.fingerprint, tracker.fingerprint],
      signalCount: 3,
      priority: 1,
      status: "triage",
    });
    expect(stayed.lastSignalAt).toBe(filed.lastSignalAt);
    const source = await issue(t, tracker.id);
    expect(source).toMatchObject({ status: "canceled", statusChange: { by: "api" } });
    expect(source.relations).toEqual([expect.objectContaining({ type: "duplicate", relatedIssueId: filed.id })]);
    expect((await issue(t, filed.id)).relations).toEqual([
      expect.objectContaining({ type: "duplicate", relatedIssueId: tracker.id }),
    ]);
    // The source's signals are listed with the target's; later signals of either group into it.
    expect((await signalsOf(t, filed.id)).total).toBe(3);
    const later = await trackerSignal(t.app, "901");
    expect(later.signal).toMatchObject({ action: "grouped", issueId: filed.id });
    expect(later.issue.signalCount).toBe(4);
    const listed = await signalsOf(t, filed.identifier);
    expect(listed.total).toBe(4);
    expect(listed.data[0]?.id).toBe(later.signal.id);
    expect(new Set(listed.data.map((signal) => signal.issueId))).toEqual(new Set([filed.id, tracker.id]));
    const items = await scanTable(t.db);
    expect(signalCountMismatches(items)).toEqual([]);
    expect(listingCountMismatches(items)).toEqual([]);
  });

  it("carries the fingerprints merged into the source on to a target it is merged into later", async () => {
    const t = await testApp();
    const { issue: a } = await trackerSignal(t.app, "1");
    const { issue: b } = await trackerSignal(t.app, "2");
    const { issue: c } = await codehostSignal(t.app, "opened", 3);
    await dataOf(merge(t.app, a.id, b.id));
    const stayed = await dataOf<Issue>(merge(t.app, b.id, c.id));
    expect(stayed.fingerprints).toEqual([c.fingerprint, b.fingerprint, a.fingerprint]);
    expect(stayed.signalCount).toBe(3);
    expect((await trackerSignal(t.app, "1")).signal.issueId).toBe(c.id);
    expect((await signalsOf(t, c.id)).total).toBe(4);
  });

  it("answers 409 with the reason, 404 for an unknown issue, 400 for a malformed one, and writes nothing", async () => {
    const t = await testApp();
    const { issue: a } = await trackerSignal(t.app, "11");
    const { issue: b } = await trackerSignal(t.app, "12");
    const { issue: done } = await trackerSignal(t.app, "13");
    await dataOf(t.app.request(`/api/issues/${done.id}`, patch({ status: "done" })));
    const { issue: gone } = await trackerSignal(t.app, "14");
    expect((await t.app.request(`/api/issues/${gone.id}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
    const { issue: working } = await trackerSignal(t.app, "15");
    await dataOf(t.app.request(`/api/issues/${working.id}`, patch({ status: "todo", priority: 1 })));
    await dataOf(t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" })), 201);
    const cases: [string, string, number, string][] = [
      [a.id, a.identifier, 409, `Cannot merge ${a.identifier} into itself`],
      [a.id, done.id, 409, `Cannot merge ${a.identifier} into ${done.identifier}: ${done.identifier} is done`],
      [a.id, gone.id, 409, `Cannot merge into ${gone.id}: it is deleted`],
      [
        a.id,
        working.id,
        409,
        `Cannot merge ${a.identifier} into ${working.identifier}: ${working.identifier} is in_progress`,
      ],
      [
        working.id,
        b.id,
        409,
        `Cannot merge ${working.identifier} into ${b.identifier}: ${working.identifier} is in_progress`,
      ],
      [done.id, b.id, 409, `Cannot merge ${done.identifier} into ${b.identifier}: ${done.identifier} is already done`],
      [a.id, "KZN-999", 404, "Issue KZN-999 not found"],
      ["KZN-998", b.id, 404, "Issue KZN-998 not found"],
    ];
    for (const [source, into, status, error] of cases) {
      const response = await merge(t.app, source, into);
      expect({ status: response.status, body: await response.json() }, `${source} into ${into}`).toEqual({
        status,
        body: { error },
      });
    }
    const malformed = await merge(t.app, a.id, "nope");
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/^intoId/);
    expect(await issue(t, a.id)).toMatchObject({ status: "triage", fingerprints: [a.fingerprint], relations: [] });
    expect(await issue(t, b.id)).toMatchObject({ status: "triage", fingerprints: [b.fingerprint], signalCount: 1 });
  });

  describe.each(CONFLICT_MODES)("while signals arrive, $mode", ({ emulateConflicts }) => {
    it("every signal lands on exactly one issue, none on the source after the merge, every count exact", async () => {
      const t = await testApp({}, { emulateConflicts });
      const { issue: source } = await trackerSignal(t.app, "500");
      const { issue: target } = await codehostSignal(t.app, "opened", 50);
      for (let i = 0; i < 3; i++) await trackerSignal(t.app, "500");
      const fleet = appFleet(testConfig({ tableName: t.tableName, endpoint: t.endpoint }), { emulateConflicts });
      const arriving = Array.from({ length: 30 }, () => trackerSignal(fleet, "500"));
      const merged = (async () => {
        for (;;) {
          const response = await merge(fleet, source.id, target.id);
          if (response.status === 200) return ((await response.json()) as { data: Issue }).data;
          if (response.status !== 503) throw new Error(`merge answered ${response.status}: ${await response.text()}`);
        }
      })();
      const [results, stayed] = await Promise.all([Promise.all(arriving), merged]);
      const frozen = (await issue(t, source.id)).signalCount;
      expect(stayed.status).toBe("triage");
      // Each signal is on the source (before the merge) or the target (after it), and counted once.
      for (const { signal } of results) expect([source.id, target.id]).toContain(signal.issueId);
      // Signals still being folded finish first; then the counts are final.
      const afterwards = await trackerSignal(t.app, "500");
      expect(afterwards.signal.issueId).toBe(target.id);
      fleet.destroy();
      const final = await issue(t, target.id);
      expect(final.signalCount).toBe(4 + 1 + 30 + 1);
      expect((await signalsOf(t, target.id)).total).toBe(36);
      const canceled = await issue(t, source.id);
      expect(canceled).toMatchObject({ status: "canceled", signalCount: frozen });
      const stats = await dataOf<Parameters<typeof dashboardMismatches>[0]>(
        t.app.request("/api/dashboard/stats", { headers: AUTH }),
      );
      const items = await scanTable(t.db);
      expect(signalCountMismatches(items)).toEqual([]);
      expect(listingCountMismatches(items)).toEqual([]);
      expect(dashboardMismatches(stats, recountDashboard(items, new Date(stats.generatedAt)))).toEqual([]);
    });
  });
});
