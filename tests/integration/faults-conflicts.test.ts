/**
 * `TransactionConflict` as DynamoDB on AWS answers it (a cancelled TransactWriteItems), injected on
 * the wire under each write route. The SDK does not retry it; the service does (db/retry.ts): a
 * few conflicts cost retries and the write goes through once; conflicts that never end become a
 * 503 with `Retry-After` once `retryConflicts`' budget is spent, with nothing half-written, and the
 * provider's redelivery then succeeds.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";
import { expectUnavailable, type FaultInjector, halfWrites, injectFaults, snapshotTable } from "../helpers/faults.js";

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };
type Issue = { id: string; status: string; signalCount: number };

const TRANSACTIONS = (_operation: number, command: string) => command === "TransactWriteItemsCommand";
/** Conflicts injected before a write goes through. */
const CONFLICTS = 3;

describe("transaction conflicts injected at the client", () => {
  let t: TestApp;
  let faults: FaultInjector;
  const count = async (path: string) =>
    ((await (await t.app.request(path, { headers: AUTH })).json()) as ListBody<unknown>).total;

  beforeAll(async () => {
    t = await testApp({}, { emulateConflicts: true });
    faults = injectFaults(t.db);
    // Seeds the default templates, so claims below write only their own transaction.
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "Warm up", type: "task", status: "todo" })), 201);
    await dataOf(t.app.request("/api/dispatch/claim", jsonPost({ agent: "warm" })), 201);
  });

  /** Sends `request` with the next CONFLICTS transactions refused, and checks they were retried. */
  async function throughConflicts(request: () => Response | Promise<Response>, status: number): Promise<Response> {
    faults.reset().fail({ kind: "transactionConflict", operations: TRANSACTIONS, times: CONFLICTS });
    const response = await request();
    const transactions = faults.calls.filter((call) => call.command === "TransactWriteItemsCommand");
    faults.reset();
    expect({ status: response.status, body: await response.clone().text() }).toMatchObject({ status });
    expect(transactions.filter((call) => call.fault === "transactionConflict")).toHaveLength(CONFLICTS);
    expect(transactions.filter((call) => call.fault === null).length).toBeGreaterThanOrEqual(1);
    return response;
  }

  it("are retried by every write route, which then stores its change once", async () => {
    const title = `Conflicted create ${randomUUID()}`;
    const created = await throughConflicts(() => t.app.request("/api/issues", jsonPost({ title, type: "task" })), 201);
    const issue = ((await created.json()) as Body<Issue>).data;
    expect(await count(`/api/issues?q=${encodeURIComponent(title)}`)).toBe(1);

    const patched = await throughConflicts(
      () =>
        t.app.request(`/api/issues/${issue.id}`, {
          method: "PATCH",
          headers: { ...AUTH, "Content-Type": "application/json" },
          body: JSON.stringify({ status: "todo", priority: 1 }),
        }),
      200,
    );
    expect(patched.headers.get("etag")).toBe('"2"');

    await throughConflicts(
      () =>
        t.app.request(
          `/api/issues/${issue.id}/comments`,
          jsonPost({ body: "hi", authorName: "a", authorType: "human" }),
        ),
      201,
    );
    expect(await count(`/api/issues/${issue.id}/comments`)).toBe(1);

    const fingerprint = `manual:pager:${randomUUID()}`;
    await throughConflicts(
      () =>
        t.app.request(
          "/api/signals",
          jsonPost({ source: "pager", type: "page", title: "Paged", severity: "high", fingerprint }),
        ),
      201,
    );
    expect(await count(`/api/issues?fingerprint=${encodeURIComponent(fingerprint)}`)).toBe(1);

    const delivery = codehostDelivery("issues", issueEvent("opened", 31, "Coupons ignored"));
    await throughConflicts(() => t.app.request(delivery.path, delivery.init), 201);
    expect(await count(`/api/issues?fingerprint=${encodeURIComponent("codehost:issue:octo-org/shop#31")}`)).toBe(1);

    const claimed = await throughConflicts(
      () => t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-3" })),
      201,
    );
    const claim = ((await claimed.json()) as Body<{ dispatch: { id: string }; prompt: { id: string } }>).data;
    expect(await count(`/api/dispatch?issueId=${issue.id}`)).toBe(1);

    await throughConflicts(
      () =>
        t.app.request(
          `/api/prompts/${claim.prompt.id}/reviews`,
          jsonPost({ clarity: 4, completeness: 4, relevance: 4, authorType: "agent" }),
        ),
      201,
    );
    expect(await count(`/api/prompts/${claim.prompt.id}/reviews`)).toBe(1);

    await throughConflicts(
      () => t.app.request(`/api/dispatch/${claim.dispatch.id}/complete`, jsonPost({ result: "done", summary: "ok" })),
      200,
    );
    expect(await dataOf<Issue>(t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }))).toMatchObject({
      status: "done",
    });
  });

  it("that never end make a delivery a 503 after the retry budget, with nothing written; the redelivery is stored once", async () => {
    const delivery = codehostDelivery("issues", issueEvent("opened", 32, "Search returns nothing"), {
      delivery: randomUUID(),
    });
    const before = await snapshotTable(t);
    faults.reset().fail({ kind: "transactionConflict", operations: TRANSACTIONS });
    const refused = await t.app.request(delivery.path, delivery.init);
    const conflicts = faults.failuresInjected;
    faults.reset();
    await expectUnavailable(refused);
    expect(conflicts).toBeGreaterThan(CONFLICTS);
    expect(halfWrites(before, await snapshotTable(t))).toEqual([]);

    const redelivered = await t.app.request(delivery.path, delivery.init);
    expect(redelivered.status).toBe(201);
    const issues = await count(`/api/issues?fingerprint=${encodeURIComponent("codehost:issue:octo-org/shop#32")}`);
    expect(issues).toBe(1);
    const again = await t.app.request(delivery.path, delivery.init);
    expect(((await again.json()) as Body<{ duplicate: boolean }>).data.duplicate).toBe(true);
  });
  it("on a single-item write no retry covers are a 503 with Retry-After, not a 409, and the request then succeeds", async () => {
    // The issue-number counter is taken with one UpdateItem outside any transaction (db/sequence.ts).
    const title = `Counter conflict ${randomUUID()}`;
    const create = () => t.app.request("/api/issues", jsonPost({ title, type: "task" }));
    const singleWrites = (_operation: number, command: string) => command === "UpdateItemCommand";
    faults.reset().fail({ kind: "transactionConflict", operations: singleWrites });
    const refused = await create();
    const injected = faults.failuresInjected;
    faults.reset();
    expect(injected).toBeGreaterThanOrEqual(1);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(await refused.json()).toEqual({ error: "Too many concurrent changes; retry shortly" });
    expect(await count(`/api/issues?q=${encodeURIComponent(title)}`)).toBe(0);

    expect((await create()).status).toBe(201);
    expect(await count(`/api/issues?q=${encodeURIComponent(title)}`)).toBe(1);
  });
});
