/**
 * DynamoDB calls per request where docs/contributing.md#budgets fixes them: a receiver ≤ 3, a get by
 * id 1, a list page ≤ 3, a claim ≤ 3 (today 8, see below); the queue's preview, a list page with
 * the lease-expiry query and its projects' limits on top; and counts that must not grow with the
 * table. The bench measures what these calls consume at 10,000 issues; this holds how many there are.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, createIssues, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import {
  analyticsDelivery,
  codehostDelivery,
  errortrackerDelivery,
  issueEvent,
  type SignedDelivery,
} from "../helpers/deliveries.js";

type Json = Record<string, unknown>;
interface Answer {
  calls: number;
  status: number;
  body: { data?: unknown; total?: number };
}

/**
 * One request, and the DynamoDB calls it made (the app meters each request itself, so the calls are
 * read off the client's total, not from a `metered` scope around the app's own).
 */
async function costOf(t: TestApp, path: string, init: RequestInit = { headers: AUTH }): Promise<Answer> {
  const before = t.db.usage().calls;
  const response = await t.app.request(path, init);
  const text = await response.text();
  return { calls: t.db.usage().calls - before, status: response.status, body: text === "" ? {} : JSON.parse(text) };
}

const deliver = (t: TestApp, delivery: SignedDelivery) => costOf(t, delivery.path, delivery.init);
const patch = (body: unknown): RequestInit => ({ ...jsonPost(body), method: "PATCH" });

/** Page 1 and the last page of `query` (limit 5): each must answer 200 with issues. */
async function firstAndLast(t: TestApp, query: string): Promise<Answer[]> {
  const path = (page: number) => `/api/issues?${query}${query ? "&" : ""}limit=5&page=${page}`;
  const first = await costOf(t, path(1));
  const last = await costOf(t, path(Math.ceil((first.body.total ?? 0) / 5)));
  for (const answer of [first, last]) {
    expect(answer.status, query).toBe(200);
    expect((answer.body.data as unknown[]).length, query).toBeGreaterThan(0);
  }
  return [first, last];
}

describe("issue requests", () => {
  let t: TestApp;
  let project: string;
  let parent: Json;
  let child: Json;
  let plain: Json;
  beforeAll(async () => {
    t = await testApp();
    await dataOf(t.app.request("/api/labels", jsonPost({ name: "bug", color: "#d73a4a" })), 201);
    project = (await dataOf<Json>(t.app.request("/api/projects", jsonPost({ name: "Checkout" })), 201)).id as string;
    parent = (await createIssues(t.app, 1, () => ({ title: "Epic", type: "plan" })))[0] ?? {};
    const created = await createIssues(t.app, 30, (i) => ({
      title: `Issue ${i}`,
      type: i % 2 === 0 ? "task" : "signal",
      status: i % 3 === 0 ? "todo" : "triage",
      priority: i % 5,
      ...(i % 4 === 0 ? { labels: ["bug"] } : {}),
      ...(i % 5 === 0 ? { projectId: project } : {}),
      ...(i % 6 === 0 ? { parentId: parent.id } : {}),
    }));
    child = created.find((issue) => issue.parentId) ?? {};
    plain = created.find((issue) => !issue.parentId) ?? {};
  }, 60_000);

  it("a list page costs at most 3 calls, the first page or the last, for every indexed filter and sort", async () => {
    const queries = [
      "",
      "sort=createdAt",
      "sort=priority",
      "sort=-updatedAt",
      "sort=number",
      "status=todo",
      "label=bug",
      `projectId=${project}`,
      `parentId=${parent.id}`,
    ];
    for (const query of queries) {
      for (const answer of await firstAndLast(t, query)) expect(answer.calls, query).toBeLessThanOrEqual(3);
    }
  });

  it("a get by id costs 1 call, with or without children; a child's detail reads its parent too (2)", async () => {
    for (const issue of [plain, parent]) {
      const answer = await costOf(t, `/api/issues/${issue.id}`);
      expect(answer.status).toBe(200);
      expect(answer.calls).toBe(1);
    }
    const answer = await costOf(t, `/api/issues/${child.id}`);
    expect(answer.status).toBe(200);
    expect(answer.calls).toBe(2);
  });

  it("a create and a PATCH cost 2 calls each: an atomic update or a read, then one transaction", async () => {
    const created = await costOf(t, "/api/issues", jsonPost({ title: "Costed", type: "task" }));
    expect(created.status).toBe(201);
    expect(created.calls).toBe(2);
    const id = (created.body.data as Json).id;
    for (const body of [{ title: "Costed, retitled" }, { status: "todo" }]) {
      const patched = await costOf(t, `/api/issues/${id}`, patch(body));
      expect(patched.status).toBe(200);
      expect(patched.calls).toBe(2);
    }
  });
});

describe("signal requests", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  // docs/contributing.md#budgets sets a receiver at 3 calls. A delivery makes 4, in 3 round trips: the
  // conditional put that reserves its delivery id goes out beside the read of its fingerprint, so
  // redeliveries arriving together on other instances wait for the first instead of each sending a
  // transaction bound to fail (docs/architecture.md#concurrency). The bound holds it there.
  const RECEIVER_CALLS = 4;

  it(`a delivery that opens an issue costs at most ${RECEIVER_CALLS} calls, from each provider`, async () => {
    const deliveries = [
      codehostDelivery("issues", issueEvent("opened", 7)),
      errortrackerDelivery("issue", { action: "created", data: { issue: { id: "9", level: "error" } } }),
      analyticsDelivery({ event: "checkout_conversion_drop", properties: { change_percent: -30 } }),
    ];
    for (const delivery of deliveries) {
      const answer = await deliver(t, delivery);
      expect(answer.status, delivery.path).toBe(201);
      expect((answer.body.data as { signal: { action: string } }).signal.action, delivery.path).toBe("opened");
      expect(answer.calls, delivery.path).toBeLessThanOrEqual(RECEIVER_CALLS);
    }
  });

  it("a delivery routed to a project by its source costs what an unrouted one does, among 2,700 sources", async () => {
    const routed = await testApp();
    const names = (p: number, kind: string) => Array.from({ length: 45 }, (_, i) => `org-${p}/${kind}-${i}`);
    await Promise.all(
      Array.from({ length: 30 }, (_, p) =>
        dataOf(
          routed.app.request(
            "/api/projects",
            jsonPost({
              name: `P${p}`,
              sources: { codehost: names(p, "repo"), errortracker: names(p, "web") },
              automation: { acceptAtSignals: 2 },
            }),
          ),
          201,
        ),
      ),
    );
    const cost = async (repo: string, number: number) => {
      const opened = await deliver(routed, codehostDelivery("issues", issueEvent("opened", number, "x", repo)));
      const grouped = await deliver(routed, codehostDelivery("issues", issueEvent("edited", number, "x", repo)));
      expect([opened.status, grouped.status]).toEqual([201, 201]);
      return { opened, grouped };
    };
    const owned = await cost("org-17/repo-44", 1);
    const free = await cost("org-99/repo-1", 2);
    expect((owned.opened.body.data as { issue: { projectId: string | null } }).issue.projectId).toMatch(/^prj_/);
    // The second signal reached the project's threshold: accepted to todo in the same transaction.
    expect((owned.grouped.body.data as { issue: { status: string } }).issue.status).toBe("todo");
    expect(owned.opened.calls).toBe(free.opened.calls);
    expect(owned.grouped.calls).toBe(free.grouped.calls);
    expect(owned.opened.calls).toBeLessThanOrEqual(RECEIVER_CALLS);
  });

  it("a signals list page costs at most 3 calls, a signal by id 1", async () => {
    for (let i = 0; i < 6; i++) {
      expect(
        (await deliver(t, codehostDelivery("push", { ref: "refs/heads/main", repository: { full_name: "o/r" } })))
          .status,
      ).toBe(201);
    }
    const first = await costOf(t, "/api/signals?limit=2&page=1");
    const last = await costOf(t, `/api/signals?limit=2&page=${Math.ceil((first.body.total ?? 0) / 2)}`);
    for (const answer of [first, last]) {
      expect(answer.status).toBe(200);
      expect((answer.body.data as unknown[]).length).toBeGreaterThan(0);
      expect(answer.calls).toBeLessThanOrEqual(3);
    }
    const id = ((first.body.data as Json[])[0] as Json).id;
    const one = await costOf(t, `/api/signals/${id}`);
    expect(one.status).toBe(200);
    expect(one.calls).toBe(1);
  });

  it("a manual signal naming a project costs 5 calls, its project held in its own transaction; naming none that exists, 3 and no write", async () => {
    const manual = (fields: Json) => jsonPost({ source: "ops", title: "Deploy failed", severity: "low", ...fields });
    // The first manual signal of a source also remembers the source: not what is measured here.
    expect((await costOf(t, "/api/signals", manual({ type: "warm-up" }))).status).toBe(201);
    const project = (await dataOf<Json>(t.app.request("/api/projects", jsonPost({ name: "Ops" })), 201)).id;
    // The fingerprint's issue and the project with its goals read, the next number taken, one transaction.
    const named = await costOf(t, "/api/signals", manual({ type: "deploy", projectId: project }));
    expect(named.status).toBe(201);
    expect(named.calls).toBe(5);
    const before = t.db.usage().writeCapacity;
    const missing = await costOf(
      t,
      "/api/signals",
      manual({ type: "deploy-elsewhere", projectId: "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
    );
    expect(missing.status).toBe(400);
    expect(missing.calls).toBe(3);
    expect(t.db.usage().writeCapacity).toBe(before);
  });
});

describe("claims", () => {
  // docs/contributing.md#budgets sets a claim at 3 calls (the queue head, the issue, one transaction). It
  // makes 8 today: the lease-expiry query and the template listing the prompt is chosen from come
  // on top, and so do the claimer's entry and the count of claimers ahead of it, which let claims
  // made at once take different issues without taking turns (docs/api.md#dispatch), and the default
  // templates include a partial, read as it is now in one more call (docs/api.md#partials). The bound
  // holds it where it is; lower it when the claim meets its budget.
  const CLAIM_CALLS_TODAY = 8;

  it(`costs at most ${CLAIM_CALLS_TODAY} calls, as many with 30 issues queued as with 2`, async () => {
    const t = await testApp();
    const todo = (i: number) => ({ title: `Task ${i}`, type: "task", status: "todo", priority: 1 + (i % 4) });
    await createIssues(t.app, 3, todo);
    const claim = () => costOf(t, "/api/dispatch/claim", jsonPost({ agent: "costed" }));
    // The first claim of a process also seeds the default templates.
    expect((await claim()).status).toBe(201);
    const few = await claim();
    await createIssues(t.app, 29, todo);
    const many = await claim();
    for (const answer of [few, many]) expect(answer.status).toBe(201);
    expect(few.calls).toBeLessThanOrEqual(CLAIM_CALLS_TODAY);
    expect(many.calls).toBe(few.calls);
  });

  it("read the partials the chosen version includes, in one call, and none when it includes none", async () => {
    const t = await testApp();
    await createIssues(t.app, 3, (i) => ({ title: `Task ${i}`, type: "task", status: "todo" }));
    const claim = () => costOf(t, "/api/dispatch/claim", jsonPost({ agent: "costed" }));
    // The first claim of a process also seeds the default templates (task-execution includes a partial).
    expect((await claim()).status).toBe(201);
    const withPartial = await claim();
    await dataOf(
      t.app.request(
        "/api/templates",
        jsonPost({
          slug: "plain-task",
          name: "Plain",
          conditions: { type: "task" },
          specificity: 50,
          content: "Do it",
        }),
      ),
      201,
    );
    await claim(); // reads the new version once per process
    await createIssues(t.app, 1, () => ({ title: "Task 4", type: "task", status: "todo" }));
    const withoutPartial = await claim();
    for (const answer of [withPartial, withoutPartial]) expect(answer.status).toBe(201);
    expect(withoutPartial.calls).toBe(withPartial.calls - 1);
  });

  it("of a project's issue read the project once, for the prompt and its limits; a budget adds one query", async () => {
    const t = await testApp();
    const projectWith = async (limits: Record<string, number>) =>
      (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "p", limits })), 201)).id;
    const [plain, limited, budgeted] = [
      await projectWith({}),
      await projectWith({ maxActivePerAgent: 5 }),
      await projectWith({ dailyCostBudgetUsd: 10 }),
    ];
    for (const projectId of [plain, limited, budgeted])
      await createIssues(t.app, 2, (i) => ({ title: `Task ${i}`, type: "task", status: "todo", projectId }));
    const claim = (projectId: string) => costOf(t, "/api/dispatch/claim", jsonPost({ agent: "costed", projectId }));
    // The first claim of a process also seeds the default templates.
    expect((await claim(plain)).status).toBe(201);
    const [inPlain, inLimited, inBudgeted] = [await claim(plain), await claim(limited), await claim(budgeted)];
    for (const answer of [inPlain, inLimited, inBudgeted]) expect(answer.status).toBe(201);
    expect(inLimited.calls).toBe(inPlain.calls);
    expect(inBudgeted.calls).toBe(inPlain.calls + 1);
  });

  it("naming a project cost nothing more when they take its issue; one that does not exist is a 400 for the read a 204 would make", async () => {
    const t = await testApp();
    const projectId = (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "p" })), 201)).id;
    const empty = (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "e" })), 201)).id;
    await createIssues(t.app, 3, (i) => ({ title: `Task ${i}`, type: "task", status: "todo", projectId }));
    const claim = (body: Json = {}) => costOf(t, "/api/dispatch/claim", jsonPost({ agent: "costed", ...body }));
    // The first claim of a process also seeds the default templates.
    expect((await claim()).status).toBe(201);
    const [unnamed, named] = [await claim(), await claim({ projectId })];
    for (const answer of [unnamed, named]) expect(answer.status).toBe(201);
    expect(named.calls).toBe(unnamed.calls);
    // Nothing to take: the project is read to tell an empty one (204) from none (400), at the same cost.
    const [none, missing] = [
      await claim({ projectId: empty }),
      await claim({ projectId: "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV" }),
    ];
    expect([none.status, missing.status]).toEqual([204, 400]);
    expect(missing.calls).toBe(none.calls);
  });
});

describe("the queue's preview", () => {
  it("costs 4 calls for a page in no project; its projects add 1 read, their review limits 1, each budget 1 query; as many for a held project of 30 issues as of 3", async () => {
    const t = await testApp();
    const project = async (name: string, limits: Json) =>
      (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name, limits })), 201)).id;
    const todo = (projectId: string | null, priority: number) => (i: number) => ({
      title: `Task ${i}`,
      type: "task",
      status: "todo",
      priority,
      projectId,
    });
    const page = async (query: string) => {
      const answer = await costOf(t, `/api/dispatch/queue?${query}`);
      expect(answer.status, query).toBe(200);
      return answer;
    };
    await createIssues(t.app, 3, todo(null, 4));
    // The lease-expiry query, then the queue's page: its counts, its entries, its issues.
    expect((await page("limit=5")).calls).toBe(4);

    const plain = await project("Plain", {});
    const reviews = await project("Reviews", { maxInReview: 2 });
    const spent = await project("Spent", { dailyCostBudgetUsd: 1 });
    for (const projectId of [plain, reviews, spent]) await createIssues(t.app, 1, todo(projectId, 3));
    expect((await page(`projectId=${plain}`)).calls).toBe(5);
    expect((await page(`projectId=${reviews}`)).calls).toBe(6);
    expect((await page(`projectId=${spent}`)).calls).toBe(6);
    expect((await page("limit=10")).calls).toBe(7);

    // "Spent" reports its budget: its issues, the most urgent, fill the first page, held.
    const claimed = await dataOf<{ dispatch: { id: string; token: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "costed", projectId: spent })),
      201,
    );
    await dataOf(
      t.app.request(
        `/api/dispatch/${claimed.dispatch.id}/complete`,
        jsonPost(
          { result: "done", summary: "Spent", usage: { costUsd: 1 } },
          { Authorization: `Bearer ${claimed.dispatch.token}` },
        ),
      ),
    );
    await createIssues(t.app, 3, todo(spent, 1));
    const few = await page("limit=3");
    expect((few.body.data as { heldBy: string | null }[]).map(({ heldBy }) => heldBy)).toEqual(
      Array(3).fill("daily-cost-budget"),
    );
    await createIssues(t.app, 27, todo(spent, 1));
    const many = await page("limit=3");
    expect(many.body.total).toBe((few.body.total ?? 0) + 27);
    expect(many.calls).toBe(few.calls);
    expect(many.calls).toBe(6);
  });
});

describe("an agent's steps of a dispatch", () => {
  it("cost the token's check (1 read) and one transaction: an activity, a heartbeat, a completion", async () => {
    const t = await testApp();
    await createIssues(t.app, 1, () => ({ title: "Task", type: "task", status: "todo" }));
    const claimed = await dataOf<{ dispatch: { id: string; token: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "costed" })),
      201,
    );
    const { id, token } = claimed.dispatch;
    const as = { Authorization: `Bearer ${token}` };
    const step = (path: string, body: unknown) => costOf(t, `/api/dispatch/${id}/${path}`, jsonPost(body, as));
    const activity = await step("activities", { type: "action", body: "ran the tests" });
    const heartbeat = await step("heartbeat", { usage: { costUsd: 0.1 } });
    const completion = await step("complete", { result: "failed", summary: "Could not reproduce" });
    expect([activity.status, heartbeat.status, completion.status]).toEqual([201, 200, 200]);
    expect(activity.calls).toBe(2);
    expect(heartbeat.calls).toBe(2);
    // The completion also reads the issue it moves (and the dispatches' experiment, none here).
    expect(completion.calls).toBe(3);
  });
});

describe("a dispatch key acting as its dispatch's token", () => {
  it("costs what the token does on its dispatch (whose check's read its handler reuses), and one read more on its issue or prompt, to find their dispatch", async () => {
    const t = await testApp();
    await createIssues(t.app, 1, () => ({ title: "Task", type: "task", status: "todo" }));
    const fleet = await dataOf<{ key: string }>(
      t.app.request("/api/keys", jsonPost({ name: "fleet", scopes: ["dispatch"] })),
      201,
    );
    const asKey = { Authorization: `Bearer ${fleet.key}` };
    const claimed = await dataOf<{ dispatch: { id: string; token: string; issueId: string; promptId: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "costed" }, asKey)),
      201,
    );
    const { id, token, issueId, promptId } = claimed.dispatch;
    const asToken = { Authorization: `Bearer ${token}` };
    // The token's check reads the dispatch, and a read of that dispatch answers from it; the key finds
    // the dispatch of an issue or prompt by reading it first.
    const findsItsDispatch = (path: string) => !path.startsWith("/api/dispatch/");
    for (const path of [
      `/api/dispatch/${id}`,
      `/api/dispatch/${id}/activities`,
      `/api/issues/${issueId}`,
      `/api/prompts/${promptId}`,
    ]) {
      const [byRoot, byToken, byKey] = [
        await costOf(t, path),
        await costOf(t, path, { headers: asToken }),
        await costOf(t, path, { headers: asKey }),
      ];
      expect([byRoot.status, byToken.status, byKey.status], path).toEqual([200, 200, 200]);
      expect([byRoot.calls, byToken.calls, byKey.calls], path).toEqual(findsItsDispatch(path) ? [1, 2, 3] : [1, 1, 1]);
    }
    const steps: [string, unknown, number][] = [
      [`/api/dispatch/${id}/activities`, { type: "action", body: "ran the tests" }, 201],
      [`/api/dispatch/${id}/heartbeat`, {}, 200],
      [`/api/issues/${issueId}/comments`, { body: "On it", authorName: "costed", authorType: "agent" }, 201],
      [`/api/prompts/${promptId}/reviews`, { clarity: 4, completeness: 4, relevance: 4, authorType: "agent" }, 201],
    ];
    for (const [path, body, status] of steps) {
      const byToken = await costOf(t, path, jsonPost(body, asToken));
      const byKey = await costOf(t, path, jsonPost(body, asKey));
      expect([byToken.status, byKey.status], path).toEqual([status, status]);
      expect(byKey.calls, path).toBe(byToken.calls + (findsItsDispatch(path) ? 1 : 0));
    }
  });
});

describe("dashboard stats", () => {
  it("cost as many calls with 30 issues as with 2: they read counts, not issues", async () => {
    const t = await testApp();
    await createIssues(t.app, 2);
    const few = await costOf(t, "/api/dashboard/stats");
    await createIssues(t.app, 28, (i) => ({ title: `Issue ${i}`, type: i % 2 ? "task" : "plan", status: "todo" }));
    const many = await costOf(t, "/api/dashboard/stats");
    expect(few.status).toBe(200);
    expect(many.status).toBe(200);
    expect(many.calls).toBe(few.calls);
  });
});
