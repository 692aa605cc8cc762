/**
 * Writes under a failing store: each write route's DynamoDB calls are failed one at a time, through
 * the real SDK against DynamoDB Local (helpers/faults.ts). A call failing for good (throttling, a
 * 500, a reset connection on every wire attempt) makes the request a 503 with `Retry-After` that
 * leaves the table as it was (but for what is written ahead on purpose: `isAllowedLeftover`), and
 * the same request sent again succeeds. A call that DynamoDB applied but whose answer was lost (the
 * connection reset on the way back) is sent again by the SDK, and the request succeeds. Either way
 * the change is stored once: the dashboard's counts, which every write keeps, move by exactly one
 * request's worth.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { IN_PROGRESS_MESSAGE } from "../../core/src/http/idempotency.js";
import { AUTH, dataOf, jsonPost, testApp } from "../helpers/app.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";
import {
  expectUnavailable,
  failEachCallInTurn,
  halfWrites,
  injectFaults,
  POSITION_FAULT_MODES,
  type PositionFault,
  snapshotTable,
  type WriteScenario,
} from "../helpers/faults.js";

// Two tests at a time: the idle core gets work, and no test is stretched far toward its timeout.
vi.setConfig({ maxConcurrency: 2 });

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };
type Issue = { id: string; number: number; status: string; title: string; labels: string[]; signalCount: number };
type Stats = { issues: { total: number; byStatus: Record<string, number> }; queue: { depth: number } };

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

const patch = (body: unknown): RequestInit => ({
  method: "PATCH",
  headers: { ...AUTH, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * A table of one test's own with the labels, project and goal the writes name, its reads, and
 * `run`: a scenario failed at each call in turn as `fault` says.
 */
async function seededTable(fault: PositionFault) {
  const t = await testApp({}, { emulateConflicts: true });
  const faults = injectFaults(t.db);
  await dataOf(t.app.request("/api/labels", jsonPost({ name: "checkout", color: "#112233" })), 201);
  await dataOf(t.app.request("/api/labels", jsonPost({ name: "payments", color: "#445566" })), 201);
  const projectId = (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "Shop" })), 201)).id;
  await dataOf(t.app.request("/api/goals", jsonPost({ title: "Fewer failed checkouts", projectId })), 201);
  return {
    t,
    projectId,
    stats: async (): Promise<Stats> => dataOf<Stats>(t.app.request("/api/dashboard/stats", { headers: AUTH })),
    issuesWhere: async (query: string) =>
      json<ListBody<Issue>>(await t.app.request(`/api/issues?${query}`, { headers: AUTH })),
    run: (scenario: WriteScenario) => failEachCallInTurn(t, faults, scenario, fault),
  };
}

/** Each test has a table of its own (a run compares the whole table before and after), so they run side by side. */
const eachFaultMode = describe.concurrent.each(POSITION_FAULT_MODES);

eachFaultMode("writes with $mode, at each call position in turn", ({ fault }) => {
  it("POST /api/issues with labels, a project and an Idempotency-Key", async () => {
    const { t, projectId, stats, issuesWhere, run } = await seededTable(fault);
    const report = await run({
      status: 201,
      prepare: async () => {
        const title = `Checkout double charge ${randomUUID()}`;
        const request = jsonPost(
          { title, type: "task", status: "todo", priority: 2, labels: ["checkout", "payments"], projectId },
          { "Idempotency-Key": randomUUID() },
        );
        const before = await stats();
        return {
          send: () => t.app.request("/api/issues", request),
          storedOnce: async (response) => {
            const created = (await json<Body<Issue>>(response.clone())).data;
            expect(created).toMatchObject({ title, status: "todo", labels: ["checkout", "payments"] });
            expect(await issuesWhere(`q=${encodeURIComponent(title)}`)).toMatchObject({
              total: 1,
              data: [{ id: created.id }],
            });
            const after = await stats();
            expect(after.issues.total).toBe(before.issues.total + 1);
            expect(after.issues.byStatus.todo).toBe((before.issues.byStatus.todo ?? 0) + 1);
            expect(after.queue.depth).toBe(before.queue.depth + 1);
            // Sent again, the key replays the same issue; or, when storing the response was the call
            // that failed, the key stays held for its lease (409) — never a second issue.
            const replay = await t.app.request("/api/issues", request);
            if (replay.status === 409) {
              expect(await replay.json()).toEqual({ error: IN_PROGRESS_MESSAGE });
            } else {
              expect(replay.headers.get("idempotent-replayed")).toBe("true");
              expect((await json<Body<Issue>>(replay)).data.id).toBe(created.id);
            }
            expect((await stats()).issues.total).toBe(before.issues.total + 1);
          },
        };
      },
    });
    // Key claim, parent-less checks (labels, project, the project's goal entries), number,
    // transaction, stored response.
    expect(report.calls).toBe(7);
    expect(report.positions.map((p) => p.command)).toContain("TransactWriteItemsCommand");
  });

  it("PATCH /api/issues/:id moving an issue from triage to todo with a new title", async () => {
    const { t, stats, run } = await seededTable(fault);
    const report = await run({
      status: 200,
      prepare: async () => {
        const issue = await dataOf<Issue>(
          t.app.request("/api/issues", jsonPost({ title: "Slow search", type: "task", labels: ["checkout"] })),
          201,
        );
        const before = await stats();
        const title = `Slow search on mobile ${randomUUID()}`;
        return {
          send: () => t.app.request(`/api/issues/${issue.id}`, patch({ status: "todo", title })),
          storedOnce: async () => {
            const got = await t.app.request(`/api/issues/${issue.id}`, { headers: AUTH });
            expect(got.headers.get("etag")).toBe('"2"');
            expect((await json<Body<Issue>>(got)).data).toMatchObject({ status: "todo", title });
            const after = await stats();
            expect(after.issues.total).toBe(before.issues.total);
            expect(after.issues.byStatus.todo).toBe((before.issues.byStatus.todo ?? 0) + 1);
            expect(after.issues.byStatus.triage).toBe((before.issues.byStatus.triage ?? 0) - 1);
            expect(after.queue.depth).toBe(before.queue.depth + 1);
          },
        };
      },
    });
    expect(report.positions.map((p) => p.command)).toEqual(["GetItemCommand", "TransactWriteItemsCommand"]);
  });

  it("POST /api/issues/:id/comments with an Idempotency-Key", async () => {
    const { t, run } = await seededTable(fault);
    const issue = await dataOf<Issue>(
      t.app.request("/api/issues", jsonPost({ title: "Talk it over", type: "plan" })),
      201,
    );
    const report = await run({
      status: 201,
      prepare: async () => {
        const body = `Reproduced on staging ${randomUUID()}`;
        const request = jsonPost({ body, authorName: "ana", authorType: "human" }, { "Idempotency-Key": randomUUID() });
        return {
          send: () => t.app.request(`/api/issues/${issue.id}/comments`, request),
          storedOnce: async () => {
            const comments = await json<ListBody<{ body: string }>>(
              await t.app.request(`/api/issues/${issue.id}/comments?limit=100`, { headers: AUTH }),
            );
            expect(comments.data.filter((comment) => comment.body === body)).toHaveLength(1);
            expect(comments.total).toBe(comments.data.length);
          },
        };
      },
    });
    expect(report.calls).toBe(4);
  });

  it("POST /api/signals (a manual signal of a new source that opens an issue) with an Idempotency-Key", async () => {
    const { t, projectId, stats, issuesWhere, run } = await seededTable(fault);
    let run_ = 0;
    const report = await run({
      status: 201,
      prepare: async () => {
        run_ += 1;
        const fingerprint = `manual:deploys:${randomUUID()}`;
        // A new source each time, so its registration (written ahead, once per process) is failed too.
        const source = `deploys-${run_}-${randomUUID().slice(0, 8)}`;
        const request = jsonPost(
          { source, type: "deploy.failed", title: "Deploy failed", severity: "high", fingerprint, projectId },
          { "Idempotency-Key": randomUUID() },
        );
        const before = await stats();
        return {
          send: () => t.app.request("/api/signals", request),
          storedOnce: async (response) => {
            const { issue } = (await json<Body<{ issue: Issue }>>(response.clone())).data;
            expect(await issuesWhere(`fingerprint=${encodeURIComponent(fingerprint)}`)).toMatchObject({
              total: 1,
              data: [{ id: issue.id, signalCount: 1 }],
            });
            const signals = await json<ListBody<unknown>>(
              await t.app.request(`/api/signals?source=${source}`, { headers: AUTH }),
            );
            expect(signals.total).toBe(1);
            expect((await stats()).issues.total).toBe(before.issues.total + 1);
          },
        };
      },
    });
    expect(report.positions.map((p) => p.command)).toContain("PutItemCommand");
  });

  it("a signed codehost delivery that opens an issue: 5xx while it fails (so the provider redelivers), stored once", async () => {
    const { t, stats, issuesWhere, run } = await seededTable(fault);
    let issueNumber = 100;
    const report = await run({
      status: 201,
      prepare: async () => {
        issueNumber += 1;
        const delivery = codehostDelivery("issues", issueEvent("opened", issueNumber, "Cart empties on refresh"), {
          delivery: randomUUID(),
        });
        const fingerprint = `codehost:issue:octo-org/shop#${issueNumber}`;
        const before = await stats();
        return {
          send: () => t.app.request(delivery.path, delivery.init),
          storedOnce: async () => {
            expect(await issuesWhere(`fingerprint=${encodeURIComponent(fingerprint)}`)).toMatchObject({
              total: 1,
              data: [{ signalCount: 1 }],
            });
            expect((await stats()).issues.total).toBe(before.issues.total + 1);
            // The provider's redelivery of the same id is a duplicate: nothing more is written.
            const redelivered = await t.app.request(delivery.path, delivery.init);
            expect(redelivered.status).toBe(200);
            expect((await json<Body<{ duplicate: boolean }>>(redelivered)).data.duplicate).toBe(true);
          },
        };
      },
    });
    // The receiver's calls (request-costs.test.ts): the delivery's reservation beside the fingerprint's
    // read, the issue number, the transaction.
    expect(report.calls).toBe(4);
  });

  it("a signed codehost delivery grouped into an open issue counts once", async () => {
    const { t, run } = await seededTable(fault);
    const opened = codehostDelivery("issues", issueEvent("opened", 7, "Prices show NaN"));
    const first = await dataOf<{ issue: Issue }>(t.app.request(opened.path, opened.init), 201);
    await run({
      status: 201,
      prepare: async () => {
        const current = await dataOf<Issue>(t.app.request(`/api/issues/${first.issue.id}`, { headers: AUTH }));
        const delivery = codehostDelivery("issues", issueEvent("edited", 7, "Prices show NaN"), {
          delivery: randomUUID(),
        });
        return {
          send: () => t.app.request(delivery.path, delivery.init),
          storedOnce: async (response) => {
            expect((await json<Body<{ signal: { action: string } }>>(response.clone())).data.signal.action).toBe(
              "grouped",
            );
            const after = await dataOf<Issue>(t.app.request(`/api/issues/${first.issue.id}`, { headers: AUTH }));
            expect(after.signalCount).toBe(current.signalCount + 1);
          },
        };
      },
    });
  });
});

describe.concurrent("a delivery too big for one transaction (payload chunks written ahead of it)", () => {
  const TRANSACTIONS = (_operation: number, command: string) => command === "TransactWriteItemsCommand";
  /** Random text barely compresses: about 3.4 MB of gzip, over what a transaction takes. */
  const bigPush = () => ({
    ref: "refs/heads/main",
    blob: randomBytes(3_400_000).toString("base64"),
    repository: { full_name: "o/r" },
  });

  it("leaves no chunk behind when a chunk or the transaction fails, and is stored once when redelivered", async () => {
    const t = await testApp({}, { emulateConflicts: true });
    const faults = injectFaults(t.db);
    const body = bigPush();
    const delivery = codehostDelivery("push", body, { delivery: randomUUID() });
    const before = await snapshotTable(t);
    // The third chunk's write failing for good.
    const puts: number[] = [];
    const thirdPut = (operation: number, command: string) => {
      if (command === "PutItemCommand" && !puts.includes(operation)) puts.push(operation);
      return puts[2] === operation;
    };
    faults.reset().fail({ kind: "internalError", operations: thirdPut });
    await expectUnavailable(await t.app.request(delivery.path, delivery.init));
    expect(halfWrites(before, await snapshotTable(t))).toEqual([]);
    // The transaction after the chunks failing for good.
    faults.reset().fail({ kind: "throttling", operations: TRANSACTIONS });
    const refused = await t.app.request(delivery.path, delivery.init);
    const chunksWritten = faults.calls.filter((call) => call.command === "PutItemCommand" && call.fault === null);
    faults.reset();
    await expectUnavailable(refused);
    expect(chunksWritten.length).toBeGreaterThan(1);
    expect(halfWrites(before, await snapshotTable(t))).toEqual([]);

    const stored = await t.app.request(delivery.path, delivery.init);
    expect(stored.status).toBe(201);
    const { signal } = ((await stored.json()) as Body<{ signal: { id: string } }>).data;
    const read = await t.app.request(`/api/signals/${signal.id}`, { headers: AUTH });
    expect(((await read.json()) as Body<{ payload: unknown }>).data.payload).toEqual(body);
    const signals = await t.app.request("/api/signals?source=codehost", { headers: AUTH });
    expect(((await signals.json()) as ListBody<unknown>).total).toBe(1);
  });

  it("keeps the chunks of a signal whose transaction landed while every answer to it was lost", async () => {
    const t = await testApp({}, { emulateConflicts: true });
    const faults = injectFaults(t.db);
    const body = bigPush();
    const delivery = codehostDelivery("push", body, { delivery: randomUUID() });
    faults.reset().fail({ kind: "responseLost", operations: TRANSACTIONS });
    // Stored, but the service cannot know: a 5xx, so the provider redelivers.
    await expectUnavailable(await t.app.request(delivery.path, delivery.init));
    faults.reset();
    const signals = await t.app.request("/api/signals?source=codehost", { headers: AUTH });
    const listed = (await signals.json()) as ListBody<{ id: string }>;
    expect(listed.total).toBe(1);
    const read = await t.app.request(`/api/signals/${listed.data[0]?.id}`, { headers: AUTH });
    expect(read.status).toBe(200);
    expect(((await read.json()) as Body<{ payload: unknown }>).data.payload).toEqual(body);
    const redelivered = await t.app.request(delivery.path, delivery.init);
    expect(redelivered.status).toBe(200);
    expect(((await redelivered.json()) as Body<{ duplicate: boolean }>).data.duplicate).toBe(true);
  });
});
