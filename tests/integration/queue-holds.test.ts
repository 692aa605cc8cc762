/**
 * The queue's preview against projects' limits (docs/api.md#dispatch): issues of a project whose claims
 * stop now (its daily cost budget spent, its reviews full) keep their place in `GET /api/dispatch/queue`
 * marked `heldBy` with the stop, and the rest is exactly what successive claims take, filtered by a
 * project or not, page after page. A `projectId` that names no project is a 400 on the claim, the
 * GET claim and the preview alike.
 */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, mergedPullRequest } from "../helpers/deliveries.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };
type QueueItem = { issue: Issue; score: number; heldBy: string | null };
type Page = { data: QueueItem[]; total: number };
const REPO = "octo-org/shop";

async function project(t: TestApp, name: string, limits: Record<string, number>): Promise<string> {
  return (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name, limits })), 201)).id;
}

async function todo(t: TestApp, title: string, priority: number, projectId: string | null): Promise<Issue> {
  return dataOf<Issue>(
    t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo", priority, projectId })),
    201,
  );
}

const claim = (t: TestApp, body: Record<string, unknown>) => t.app.request("/api/dispatch/claim", jsonPost(body));

async function claimed(t: TestApp, body: Record<string, unknown>): Promise<Claimed> {
  return dataOf<Claimed>(claim(t, body), 201);
}

/** Ends `one` done: with an open pull request it waits in review; `costUsd` is what it reports. */
async function complete(t: TestApp, one: Claimed, { review = false, costUsd = 0 }) {
  const number = one.issue.number;
  const pullRequests = review
    ? [{ number, title: `Fix ${number}`, url: `https://codehost.example/${REPO}/pull/${number}` }]
    : [];
  await dataOf(
    t.app.request(
      `/api/dispatch/${one.dispatch.id}/complete`,
      jsonPost(
        { result: "done", summary: "Fixed", pullRequests, usage: { costUsd } },
        { Authorization: `Bearer ${one.dispatch.token}` },
      ),
    ),
  );
}

async function queuePage(t: TestApp, query: string): Promise<Page> {
  const response = await t.app.request(`/api/dispatch/queue?${query}`, { headers: AUTH });
  expect(response.status, query).toBe(200);
  return (await response.json()) as Page;
}

/** The whole preview read `limit` at a time, checking that every page says the same total. */
async function wholeQueue(t: TestApp, filter: string, limit: number): Promise<QueueItem[]> {
  const items: QueueItem[] = [];
  const first = await queuePage(t, `${filter}&limit=${limit}&page=1`);
  items.push(...first.data);
  for (let page = 2; items.length < first.total; page++) {
    const next = await queuePage(t, `${filter}&limit=${limit}&page=${page}`);
    expect(next.total).toBe(first.total);
    expect(next.data.length).toBeGreaterThan(0);
    items.push(...next.data);
  }
  expect(items).toHaveLength(first.total);
  return items;
}

const held = (items: QueueItem[]) => items.map(({ issue, heldBy }) => [issue.identifier, heldBy]);

/**
 * Three projects and issues in none, interleaved by priority: "Reviews" (`maxInReview: 1`, one issue
 * in review), "Budget" (`dailyCostBudgetUsd: 1`, $1.25 reported today) and "Free" (no limits).
 */
async function heldProjects() {
  const t = await testApp();
  const reviews = await project(t, "Reviews", { maxInReview: 1 });
  const budget = await project(t, "Budget", { dailyCostBudgetUsd: 1 });
  const free = await project(t, "Free", {});
  // Claimed first and ended, so their projects hold: one waits in review, one reported $1.25.
  await todo(t, "reviewed", 1, reviews);
  await todo(t, "spent", 1, budget);
  await complete(t, await claimed(t, { agent: "setup", projectId: reviews }), { review: true });
  await complete(t, await claimed(t, { agent: "setup", projectId: budget }), { costUsd: 1.25 });
  // The held projects' issues lead: the head of the queue is what claims pass over.
  for (const [i, projectId] of [budget, reviews, null, free, reviews, budget, null, free, reviews].entries()) {
    await todo(t, `queued ${i}`, 1 + (i % 4), projectId);
  }
  return { t, reviews, budget, free };
}

describe("the queue's preview of held projects", () => {
  it("keeps their issues in place marked heldBy, the rest in exactly the order successive claims take, page after page", async () => {
    const { t, reviews, budget, free } = await heldProjects();
    const preview = await wholeQueue(t, "", 100);
    expect(preview).toHaveLength(9);
    // Paging: two at a time reads the same list with the same marks (scores grow with age as it is read).
    expect(held(await wholeQueue(t, "", 2))).toEqual(held(preview));
    const stopOf = new Map([
      [reviews, "review-capacity"],
      [budget, "daily-cost-budget"],
    ]);
    for (const { issue, heldBy } of preview)
      expect(heldBy, issue.identifier).toBe(stopOf.get(issue.projectId ?? "") ?? null);
    expect(preview.filter(({ heldBy }) => heldBy !== null)).toHaveLength(5);

    // Filtered by each project: the same marks, and the claim answers as they say.
    for (const projectId of [reviews, budget, free]) {
      const filtered = await wholeQueue(t, `projectId=${projectId}`, 2);
      expect(held(filtered)).toEqual(held(preview.filter(({ issue }) => issue.projectId === projectId)));
      const stop = stopOf.get(projectId);
      if (!stop) continue;
      const refused = await claim(t, { agent: "filtered", projectId });
      expect(refused.status).toBe(204);
      expect(refused.headers.get("Kaizen-Claim-Stopped")).toBe(stop);
    }

    // Successive claims take exactly the issues not held, in the preview's order, then stop saying why.
    const open = preview.filter(({ heldBy }) => heldBy === null).map(({ issue }) => issue.id);
    const taken: string[] = [];
    for (let i = 0; i < open.length; i++) taken.push((await claimed(t, { agent: `a${i}` })).issue.id);
    expect(taken).toEqual(open);
    const stopped = await claim(t, { agent: "last" });
    expect(stopped.status).toBe(204);
    expect(stopped.headers.get("Kaizen-Claim-Stopped")).toBe("review-capacity");
    // What is left in the preview is what was held, still in its order.
    expect(held(await wholeQueue(t, "", 3))).toEqual(held(preview.filter(({ heldBy }) => heldBy !== null)));
  });

  it("drops the mark as the stop ends: a review merged frees its project's issues for the preview and the claim alike", async () => {
    const { t, reviews } = await heldProjects();
    const [inReview] = await dataOf<Issue[]>(
      t.app.request(`/api/issues?projectId=${reviews}&status=in_review`, { headers: AUTH }),
    );
    if (!inReview) throw new Error("no issue in review");
    const delivery = codehostDelivery("pull_request", mergedPullRequest(inReview.number, {}, REPO));
    expect((await t.app.request(delivery.path, delivery.init)).status).toBe(201);
    const preview = await wholeQueue(t, `projectId=${reviews}`, 2);
    expect(preview.map(({ heldBy }) => heldBy)).toEqual([null, null, null]);
    expect((await claimed(t, { agent: "freed", projectId: reviews })).issue.id).toBe(preview[0]?.issue.id);
    expect((await wholeQueue(t, `projectId=${reviews}`, 2)).map(({ heldBy }) => heldBy)).toEqual([null, null]);
  });
});

describe("a projectId that names no project", () => {
  const missing = "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV";
  const refusal = {
    error: `projectId: project ${missing} does not exist`,
    details: [{ path: "projectId", message: `project ${missing} does not exist` }],
  };

  it("is a 400 on the claim, the GET claim and the preview, as on POST /api/issues; an empty project that exists is not", async () => {
    const t = await testApp();
    await todo(t, "elsewhere", 1, null);
    const answers = [
      await claim(t, { agent: "a", projectId: missing }),
      await t.app.request(`/api/dispatch/next?agent=a&projectId=${missing}`, { headers: AUTH }),
      await t.app.request(`/api/dispatch/queue?projectId=${missing}`, { headers: AUTH }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.url).toBe(400);
      expect(await answer.json()).toEqual(refusal);
    }
    const created = await t.app.request("/api/issues", jsonPost({ title: "x", type: "task", projectId: missing }));
    expect(((await created.json()) as { error: string }).error).toBe(refusal.error);

    const empty = await project(t, "Empty", {});
    expect((await claim(t, { agent: "a", projectId: empty })).status).toBe(204);
    expect((await t.app.request(`/api/dispatch/next?agent=a&projectId=${empty}`, { headers: AUTH })).status).toBe(204);
    expect(await queuePage(t, `projectId=${empty}`)).toEqual({ data: [], total: 0 });
    // The issue elsewhere was never claimed by the refused claims.
    expect((await queuePage(t, "")).total).toBe(1);
  });
});
