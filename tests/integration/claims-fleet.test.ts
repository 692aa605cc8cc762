/**
 * Claims as deployed (docs/api.md#dispatch): many agents claiming at once through a fleet of one-request
 * instances (Lambda), with AWS's transaction conflicts emulated and not. Each issue is claimed
 * once; K claims at once take issues from the first 2K of the queue as it stood; they do not try
 * one issue after another (the calls they make stay a few per claim); a claim that cannot finish
 * answers 503 with `Retry-After` and writes nothing. Fails on claims that take turns in a process:
 * there, each fleet instance tries the head first, and the claims cost tens of calls each.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newClaimerId } from "../../core/src/dispatch/keys.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import { issueKey } from "../../core/src/issues/keys.js";
import { dispatches } from "../../core/src/services.js";
import type { Fleet } from "../../testkit/fleet.js";
import { AUTH, fleetOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Json = Record<string, unknown>;

const fleets: Fleet[] = [];
afterEach(() => {
  for (const fleet of fleets.splice(0)) fleet.destroy();
});

function fleet(t: TestApp, emulateConflicts: boolean): Fleet {
  const made = fleetOf(t, emulateConflicts);
  fleets.push(made);
  return made;
}

/**
 * `count` todo issues, and the default templates seeded (by a claim that takes nothing): a table
 * is seeded once, by its first claim, and what is under test here is claims on a table in use.
 */
async function createTodos(t: TestApp, count: number): Promise<string[]> {
  const seeding = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "seeding", types: ["monitor"] }));
  if (seeding.status !== 204) throw new Error(`the seeding claim answered ${seeding.status}`);
  const ids: string[] = [];
  // Ten at a time: the queue is what is under test here, not the creates.
  for (let start = 0; start < count; start += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, async (_, i) => {
        const n = start + i;
        const response = await t.app.request(
          "/api/issues",
          jsonPost({
            title: `todo ${n}`,
            type: n % 3 === 0 ? "signal" : "task",
            status: "todo",
            priority: (n % 4) + 1,
          }),
        );
        if (response.status !== 201) throw new Error(`create answered ${response.status}`);
        return String(((await response.json()) as { data: Json }).data.id);
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

/** The queue in claim order, as the preview shows it. */
async function queueOrder(t: TestApp): Promise<string[]> {
  const order: string[] = [];
  for (let page = 1; ; page++) {
    const response = await t.app.request(`/api/dispatch/queue?limit=100&page=${page}`, { headers: AUTH });
    const body = (await response.json()) as { data: { issue: Json }[] };
    if (body.data.length === 0) return order;
    order.push(...body.data.map(({ issue }) => String(issue.id)));
  }
}

const claimBy = (sender: Requester, agent: string) =>
  Promise.resolve(sender.request("/api/dispatch/claim", jsonPost({ agent })));

describe.each(CONFLICT_MODES)("claims through a fleet ($mode)", ({ emulateConflicts }) => {
  it("40 at once against 100 eligible: 40 issues, each once, all from the first 80 of the queue, a few calls each", async () => {
    const t = await testApp({}, { emulateConflicts });
    await createTodos(t, 100);
    const order = await queueOrder(t);
    expect(order).toHaveLength(100);
    const lambda = fleet(t, emulateConflicts);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => claimBy(lambda, `agent-${i}`)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const claimed = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { data: { issue: Json } }).data.issue),
    );
    const ids = claimed.map((issue) => String(issue.id));
    expect(new Set(ids).size).toBe(40);
    for (const id of ids) expect(order.indexOf(id), id).toBeLessThan(80);
    // Each claim is one claim's work: none tried the issues the others took one after another.
    expect(lambda.calls() / 40).toBeLessThan(12);
    const active = (await (await t.app.request("/api/dispatch?status=active&limit=100", { headers: AUTH })).json()) as {
      data: Dispatch[];
      total: number;
    };
    expect(active.total).toBe(40);
    expect(new Set(active.data.map(({ issueId }) => issueId))).toEqual(new Set(ids));
  });

  it("30 at once against 20 eligible: 20 claimed once each, 10 × 204", async () => {
    const t = await testApp({}, { emulateConflicts });
    const issues = await createTodos(t, 20);
    const lambda = fleet(t, emulateConflicts);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => claimBy(lambda, `agent-${i}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(20).fill(201), ...Array(10).fill(204)]);
    const claimed = await Promise.all(
      answers
        .filter((answer) => answer.status === 201)
        .map(async (answer) => String(((await answer.json()) as { data: { issue: Json } }).data.issue.id)),
    );
    expect(new Set(claimed)).toEqual(new Set(issues));
  });

  it("one after another, each claimer takes the head of the queue", async () => {
    const t = await testApp({}, { emulateConflicts });
    await createTodos(t, 6);
    const order = await queueOrder(t);
    const lambda = fleet(t, emulateConflicts);
    for (const expected of order) {
      const answer = await claimBy(lambda, "alone");
      expect(answer.status).toBe(201);
      expect(((await answer.json()) as { data: { issue: Json } }).data.issue.id).toBe(expected);
    }
    expect((await claimBy(lambda, "alone")).status).toBe(204);
  });
});

describe("a claim that cannot finish", () => {
  // Each on a clock the test moves (../helpers/clock.ts): the claim's waits, and the database time
  // the test stands for, move it on at once, so its deadlines are met without sleeping through them.
  it("answers 204 after a moment when the claimers ahead of it hold every issue, writes nothing, and takes the issue once the way is clear", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const [issueId] = await createTodos(t, 1);
    // A claimer that began a moment ago and never finished (its function died): the one issue is its.
    const { claimers } = dispatches({ db: t.db });
    const stale = newClaimerId(Date.now() - 1_000);
    await claimers.enterClaimer("all", stale, new Date());
    const started = clock.elapsed();
    const nothing = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "waiting" }));
    expect(nothing.status).toBe(204);
    // It waited a moment for the one ahead to leave the issue, not the claim's deadline.
    expect(clock.elapsed() - started).toBeGreaterThanOrEqual(1_000);
    expect(clock.elapsed() - started).toBeLessThan(4_000);
    const issue = (await (await t.app.request(`/api/issues/${issueId}`, { headers: AUTH })).json()) as { data: Json };
    expect(issue.data.status).toBe("todo");
    const listed = (await (await t.app.request("/api/dispatch", { headers: AUTH })).json()) as { total: number };
    expect(listed.total).toBe(0);
    await claimers.leaveClaimers("all", stale);
    const claimed = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "waiting" }));
    expect(claimed.status).toBe(201);
    expect(((await claimed.json()) as { data: { issue: Json } }).data.issue.id).toBe(issueId);
  });

  it("does not count its transactions' time toward the deadline: one back after 5.5 s with its issue gone looks again (a database taking a burst in turn)", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const [first, second] = await createTodos(t, 2);
    let held = false;
    // The claim's transaction waits 5.5 s at the database, as the last of a burst does in DynamoDB
    // Local's queue; meanwhile its issue goes (a person deleted it, say).
    t.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "TransactWriteItemsCommand" && !held) {
          held = true;
          await t.db.delete(issueKey(first as string));
          await clock.wait(5_500);
        }
        return next(args);
      },
      { step: "initialize", name: "slowFirstTransaction" },
    );
    const claimed = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "patient" }));
    expect(held).toBe(true);
    expect(claimed.status).toBe(201);
    expect(((await claimed.json()) as { data: { issue: Json } }).data.issue.id).toBe(second);
    expect(clock.elapsed()).toBeGreaterThanOrEqual(5_500);
  });

  it("answers 503 after 15 s in all when every transaction it sends is slow and finds its issue gone", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    await createTodos(t, 8);
    let sent = 0;
    // Each claim transaction waits 4 s at the database, and its issue goes meanwhile.
    t.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "TransactWriteItemsCommand") {
          sent += 1;
          // The claim's write of its issue's item (the document client's input, as written), wherever it stands.
          type Written = { pk: string; sk: string };
          const items = (args.input as { TransactItems: { Put?: { Item: Written }; Update?: { Key: Written } }[] })
            .TransactItems;
          const { sk } = issueKey("");
          const issue = items
            .map((item) => item.Put?.Item ?? item.Update?.Key)
            .find((key) => key?.sk === sk && key.pk.startsWith(`${sk}#`));
          if (issue) await t.db.delete({ pk: issue.pk, sk: issue.sk });
          await clock.wait(4_000);
        }
        return next(args);
      },
      { step: "initialize", name: "slowTransactions" },
    );
    const started = clock.elapsed();
    const refused = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "unlucky" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toMatch(/^[1-9][0-9]*$/);
    expect(clock.elapsed() - started).toBeGreaterThanOrEqual(15_000);
    expect(clock.elapsed() - started).toBeLessThan(25_000);
    expect(sent).toBe(4);
  });

  it("answers 503 with Retry-After when every issue it goes for is gone for 5 s, and writes nothing", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const ids = await createTodos(t, 60);
    // Issues whose items went and whose queue entries stayed: each look finds one gone and looks again.
    await Promise.all(ids.map((id) => t.db.delete(issueKey(id))));
    // Each call the claim makes takes 50 ms of the database's time: a look and its read take 150 ms,
    // so the claim meets its deadline after some 34 of the 60 issues, every one of them gone.
    t.db.client.middlewareStack.add(
      (next) => async (args) => {
        await clock.wait(50);
        return next(args);
      },
      { step: "initialize", name: "slowCalls" },
    );
    const started = clock.elapsed();
    const refused = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "unlucky" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toMatch(/^[1-9][0-9]*$/);
    expect(((await refused.json()) as { error: string }).error).toBe("Too many concurrent claims; retry shortly");
    expect(clock.elapsed() - started).toBeGreaterThanOrEqual(5_000);
    const listed = (await (await t.app.request("/api/dispatch", { headers: AUTH })).json()) as { total: number };
    expect(listed.total).toBe(0);
  });
});
