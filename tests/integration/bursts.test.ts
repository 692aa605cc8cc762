/**
 * Bursts: many writes of one kind at once, with AWS's transaction conflicts emulated and not, sent
 * to one app (the local server) and to a fleet of one-request instances (Lambda). After each burst
 * nothing is lost and nothing doubled: issue numbers are unique, a fingerprint has one open issue,
 * every acknowledged delivery is stored once, `signalCount` equals the signals linked, and every
 * listing's `total` and pages equal a recount of what was written.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AUTH, anotherInstance, fleetOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery, issueEvent, type SignedDelivery } from "../helpers/deliveries.js";

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  data: Json;
}
interface SignalAnswer {
  signal: { id: string; action: string; issueId: string | null; receivedAt: string };
  issue: Json | null;
  duplicate: boolean;
}

async function request(t: { app: Requester }, path: string, init?: RequestInit): Promise<Answer> {
  const response = await t.app.request(path, init);
  const body = (await response.json()) as { data: Json };
  return { status: response.status, data: body.data };
}

const deliver = (t: { app: Requester }, delivery: SignedDelivery) => request(t, delivery.path, delivery.init);

/** Every item of a list, page by page (limit 100), and the `total` each page reported. */
async function everyItem(t: TestApp, path: string): Promise<{ items: Json[]; totals: number[] }> {
  const items: Json[] = [];
  const totals: number[] = [];
  for (let page = 1; ; page++) {
    const separator = path.includes("?") ? "&" : "?";
    const response = await t.app.request(`${path}${separator}limit=100&page=${page}`, { headers: AUTH });
    const body = (await response.json()) as { data: Json[]; total: number };
    expect(response.status).toBe(200);
    totals.push(body.total);
    if (body.data.length === 0) return { items, totals };
    items.push(...body.data);
  }
}

/** The listing at `path` holds exactly `expected` (ids), in any order, and says so in every `total`. */
async function expectListing(t: TestApp, path: string, expected: string[]): Promise<void> {
  const { items, totals } = await everyItem(t, path);
  expect(items.map((item) => item.id).sort(), path).toEqual([...expected].sort());
  expect(new Set(totals), path).toEqual(new Set([expected.length]));
}

const signalOf = (answer: Answer) => answer.data as unknown as SignalAnswer;

/**
 * Where a burst is sent: `one app` is the local server (every request in one process's app, with
 * `pair` a second app as another server would be); `fleet` is Lambda (a new instance whenever all
 * are busy). `senders` gives the two apps a burst alternates between.
 */
const MODELS = [
  {
    model: "one app",
    senders: (t: TestApp, emulateConflicts: boolean, pair: boolean): [{ app: Requester }, { app: Requester }] => [
      t,
      pair ? anotherInstance(t, emulateConflicts) : t,
    ],
  },
  {
    model: "fleet",
    senders: (t: TestApp, emulateConflicts: boolean): [{ app: Requester }, { app: Requester }] => {
      const fleet = fleetOf(t, emulateConflicts);
      fleets.push(fleet);
      return [{ app: fleet }, { app: fleet }];
    },
  },
] as const;
const fleets: ReturnType<typeof fleetOf>[] = [];
afterEach(() => {
  for (const fleet of fleets.splice(0)) fleet.destroy();
});

/** DynamoDB calls made for `t`'s table so far: by its app and by every fleet of the test. */
const callsMade = (t: TestApp) => t.db.usage().calls + fleets.reduce((sum, fleet) => sum + fleet.calls(), 0);

const CASES = MODELS.flatMap((model) => CONFLICT_MODES.map((conflicts) => ({ ...model, ...conflicts })));

/**
 * A storm into one issue: grouped deliveries that find the issue item held by another transaction
 * wait beside it and are folded in, so with AWS's conflicts emulated they do not refuse each other
 * until their retries run out, in one app or through the fleet.
 */
describe.each(CASES)("a storm into one issue ($model, $mode)", ({ emulateConflicts, senders }) => {
  it("60 deliveries of one fingerprint at once, through two senders: one issue, signalCount 60, its latest 10", async () => {
    const t = await testApp({}, { emulateConflicts });
    const [one, other] = senders(t, emulateConflicts, true);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        deliver(i % 2 === 0 ? one : other, codehostDelivery("issues", issueEvent("edited", 7))),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const signals = answers.map(signalOf);
    const issueIds = new Set(signals.map((s) => s.signal.issueId));
    expect(issueIds.size).toBe(1);
    const issueId = String([...issueIds][0]);
    expect(signals.filter((s) => s.signal.action === "opened")).toHaveLength(1);
    expect(signals.filter((s) => s.signal.action === "grouped")).toHaveLength(59);
    // The storm is over: the issue and the listings are read side by side.
    const [detail, listed] = await Promise.all([
      request(t, `/api/issues/${issueId}`, { headers: AUTH }),
      everyItem(t, "/api/issues"),
      expectListing(
        t,
        `/api/issues/${issueId}/signals`,
        signals.map((s) => s.signal.id),
      ),
      expectListing(
        t,
        "/api/signals?action=grouped",
        signals.filter((s) => s.signal.action === "grouped").map((s) => s.signal.id),
      ),
    ]);
    expect(detail.data.signalCount).toBe(60);
    const newest = signals.map((s) => s.signal).sort((a, b) => (a.id < b.id ? 1 : -1));
    expect((detail.data.signals as { id: string }[]).map((s) => s.id)).toEqual(newest.slice(0, 10).map((s) => s.id));
    expect(detail.data.lastSignalAt).toBe(newest[0]?.receivedAt);
    expect(listed.items.map((issue) => [issue.id, issue.signalCount])).toEqual([[issueId, 60]]);
  });
});

describe.each(CASES)("bursts ($model, $mode)", ({ emulateConflicts, senders }) => {
  it("60 creates at once: 60 unique numbers, every listing and sort equal to a recount", async () => {
    const t = await testApp({}, { emulateConflicts });
    const [burst] = senders(t, emulateConflicts, false);
    const types = ["task", "signal", "plan"];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(burst, "/api/issues", jsonPost({ title: `Burst ${i}`, type: types[i % 3], priority: i % 5 })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const created = answers.map((answer) => answer.data);
    expect(new Set(created.map((issue) => issue.number)).size).toBe(60);
    const ids = (filter: (issue: Json) => boolean) => created.filter(filter).map((issue) => String(issue.id));
    const rank = (issue: Json) => (issue.priority === 0 ? 5 : Number(issue.priority));
    const byPriority = [...created].sort((a, b) => rank(a) - rank(b) || Number(a.number) - Number(b.number));
    // The burst is over: every listing is read side by side.
    const [listedByPriority, byNumber] = await Promise.all([
      everyItem(t, "/api/issues?sort=priority"),
      everyItem(t, "/api/issues?sort=number"),
      expectListing(
        t,
        "/api/issues",
        ids(() => true),
      ),
      ...types.map((type) =>
        expectListing(
          t,
          `/api/issues?type=${type}`,
          ids((issue) => issue.type === type),
        ),
      ),
      ...[0, 1, 2, 3, 4].map((priority) =>
        expectListing(
          t,
          `/api/issues?priority=${priority}`,
          ids((issue) => issue.priority === priority),
        ),
      ),
      expectListing(
        t,
        "/api/issues?status=triage",
        ids(() => true),
      ),
      expectListing(
        t,
        "/api/issues?sort=-updatedAt",
        ids(() => true),
      ),
    ]);
    expect(listedByPriority.items.map((issue) => issue.id)).toEqual(byPriority.map((issue) => issue.id));
    const createdAts = byNumber.items.map((issue) => String(issue.createdAt));
    expect(createdAts).toEqual([...createdAts].sort());
  });

  it("60 creates naming one label and one project at once: all land, counted, without taking turns on either", async () => {
    const t = await testApp({}, { emulateConflicts });
    await request(t, "/api/labels", jsonPost({ name: "incident", color: "#ff0000" }));
    const project = await request(t, "/api/projects", jsonPost({ name: "Checkout" }));
    const [burst] = senders(t, emulateConflicts, false);
    const before = callsMade(t);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(
          burst,
          "/api/issues",
          jsonPost({ title: `Alert ${i}`, type: "task", labels: ["incident"], projectId: project.data.id }),
        ),
      ),
    );
    const calls = callsMade(t) - before;
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    // Label and project lookups (2), the number (1), the transaction (1), and a few spread
    // retries: every create checking the one label item would cost tens of calls each.
    expect(calls / 60).toBeLessThan(6);
    const ids = answers.map((answer) => String(answer.data.id));
    await Promise.all([
      expectListing(t, "/api/issues?label=incident", ids),
      expectListing(t, `/api/issues?projectId=${project.data.id}`, ids),
    ]);
  });

  it("40 deliveries of 40 fingerprints at once: one open issue per fingerprint, every signal stored once", async () => {
    const t = await testApp({}, { emulateConflicts });
    const [burst] = senders(t, emulateConflicts, false);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => deliver(burst, codehostDelivery("issues", issueEvent("opened", 100 + i)))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const signals = answers.map(signalOf);
    expect(signals.map((s) => s.signal.action)).toEqual(signals.map(() => "opened"));
    const issueIds = signals.map((s) => String(s.signal.issueId));
    expect(new Set(issueIds).size).toBe(40);
    expect(new Set(signals.map((s) => s.issue?.number)).size).toBe(40);
    const signalIds = signals.map((s) => s.signal.id);
    // The burst is over: every listing is read side by side.
    await Promise.all([
      ...signals.map((s, i) => {
        const fingerprint = encodeURIComponent(`codehost:issue:octo-org/shop#${100 + i}`);
        return expectListing(t, `/api/issues?fingerprint=${fingerprint}`, [String(s.signal.issueId)]);
      }),
      expectListing(t, "/api/issues", issueIds),
      expectListing(t, "/api/signals", signalIds),
      expectListing(t, "/api/signals?source=codehost", signalIds),
      expectListing(t, "/api/signals?action=opened", signalIds),
      expectListing(t, "/api/signals?type=issues.opened", signalIds),
    ]);
  });

  it("15 deliveries sent 4 times each at once, through two senders: 15 signals, the rest duplicates of them", async () => {
    const t = await testApp({}, { emulateConflicts });
    const [one, other] = senders(t, emulateConflicts, true);
    const deliveries = Array.from({ length: 15 }, (_, i) => codehostDelivery("issues", issueEvent("edited", 300 + i)));
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const delivery = deliveries[i % 15] as SignedDelivery;
        return deliver(i % 2 === 0 ? one : other, delivery).then((answer) => ({ answer, id: i % 15 }));
      }),
    );
    const created = answers.filter(({ answer }) => answer.status === 201);
    expect(created).toHaveLength(15);
    expect(answers.filter(({ answer }) => answer.status === 200)).toHaveLength(45);
    const stored = new Map(created.map(({ answer, id }) => [id, signalOf(answer)]));
    expect(stored.size).toBe(15);
    for (const { answer, id } of answers) {
      const first = stored.get(id);
      expect(signalOf(answer).signal.id).toBe(first?.signal.id);
      expect(signalOf(answer).signal.issueId).toBe(first?.signal.issueId);
      expect(signalOf(answer).duplicate).toBe(answer.status === 200);
    }
    await Promise.all([
      expectListing(
        t,
        "/api/signals",
        [...stored.values()].map((s) => s.signal.id),
      ),
      expectListing(
        t,
        "/api/issues",
        [...stored.values()].map((s) => String(s.signal.issueId)),
      ),
    ]);
  });

  it("40 manual signals of one fingerprint at once: one issue counting all 40", async () => {
    const t = await testApp({}, { emulateConflicts });
    const [burst] = senders(t, emulateConflicts, false);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(
          burst,
          "/api/signals",
          jsonPost({
            source: "ops",
            type: "disk.full",
            title: `Disk full ${i}`,
            severity: "high",
            fingerprint: "ops:disk",
          }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const issueIds = new Set(answers.map((answer) => signalOf(answer).signal.issueId));
    expect(issueIds.size).toBe(1);
    const [detail] = await Promise.all([
      request(t, `/api/issues/${[...issueIds][0]}`, { headers: AUTH }),
      expectListing(
        t,
        "/api/signals?source=ops",
        answers.map((answer) => signalOf(answer).signal.id),
      ),
    ]);
    expect(detail.data.signalCount).toBe(40);
  });

  it("20 close events of one open issue at once: it closes once, the rest are recorded", async () => {
    const t = await testApp({}, { emulateConflicts });
    const [burst] = senders(t, emulateConflicts, false);
    const opened = signalOf(await deliver(t, codehostDelivery("issues", issueEvent("opened", 9))));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => deliver(burst, codehostDelivery("issues", issueEvent("closed", 9)))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const actions = answers.map((answer) => signalOf(answer).signal.action).sort();
    expect(actions).toEqual(["grouped", ...Array.from({ length: 19 }, () => "recorded")]);
    const [detail] = await Promise.all([
      request(t, `/api/issues/${opened.signal.issueId}`, { headers: AUTH }),
      expectListing(t, "/api/issues?status=done", [String(opened.signal.issueId)]),
      expectListing(t, "/api/issues?status=triage", []),
      expectListing(
        t,
        "/api/signals?action=recorded",
        answers.filter((answer) => signalOf(answer).signal.action === "recorded").map((a) => signalOf(a).signal.id),
      ),
    ]);
    expect(detail.data.status).toBe("done");
    expect(detail.data.signalCount).toBe(2);
  });
});
