/**
 * Review capacity (docs/api.md#review-capacity): a project's `limits.maxInReview` holds claims of its
 * issues while that many wait in review, and frees them as reviews end; the count it is held against
 * stays exact under claims, completions and merges at once, served as Lambda serves them, in both
 * conflict modes.
 */
import { describe, expect, it } from "vitest";
import type { Project } from "../../core/src/catalog/schemas.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import { ReviewLoad } from "../../core/src/issues/review-load.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Requester } from "../helpers/app.js";
import { AUTH, dataOf, fleetOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery, mergedPullRequest } from "../helpers/deliveries.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };
const REPO = "octo-org/shop";

async function project(t: TestApp, maxInReview: number | null) {
  return dataOf<Project>(
    t.app.request("/api/projects", jsonPost({ name: `Shop ${maxInReview}`, limits: { maxInReview } })),
    201,
  );
}

async function todo(t: TestApp, projectId: string | null, count: number) {
  for (let i = 0; i < count; i++) {
    await dataOf(
      t.app.request("/api/issues", jsonPost({ title: `Issue ${i}`, type: "task", status: "todo", projectId })),
      201,
    );
  }
}

async function claim(app: Requester, projectId?: string) {
  const response = await app.request(
    "/api/dispatch/claim",
    jsonPost({ agent: "fixer", ...(projectId ? { projectId } : {}) }),
  );
  return {
    status: response.status,
    stopped: response.headers.get("Kaizen-Claim-Stopped"),
    claimed: response.status === 201 ? ((await response.json()) as { data: Claimed }).data : null,
  };
}

/** Completes `claimed` naming its own open pull request (numbered after its issue). */
async function completeInReview(app: Requester, claimed: Claimed) {
  const number = claimed.issue.number;
  const response = await app.request(
    `/api/dispatch/${claimed.dispatch.id}/complete`,
    jsonPost(
      {
        result: "done",
        summary: "Fixed",
        pullRequests: [{ number, title: `Fix ${number}`, url: `https://codehost.example/${REPO}/pull/${number}` }],
      },
      { Authorization: `Bearer ${claimed.dispatch.token}` },
    ),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { issue: Issue } }).data.issue;
}

async function merge(app: Requester, number: number) {
  const delivery = codehostDelivery("pull_request", mergedPullRequest(number, {}, REPO));
  const response = await app.request(delivery.path, delivery.init);
  expect(response.status).toBe(201);
}

async function inReviewCount(t: TestApp, projectId: string) {
  const response = await t.app.request(`/api/issues?projectId=${projectId}&status=in_review&limit=1`, {
    headers: AUTH,
  });
  return ((await response.json()) as { total: number }).total;
}

describe("review capacity", () => {
  it("limits.maxInReview is set, shown and validated like the other limits", async () => {
    const t = await testApp();
    const plain = await project(t, null);
    expect(plain.limits).toEqual({
      maxActivePerAgent: null,
      dailyCostBudgetUsd: null,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
    expect((await project(t, 3)).limits.maxInReview).toBe(3);
    expect((await project(t, 100)).limits.maxInReview).toBe(100);
    for (const maxInReview of [0, 101, 1000]) {
      const refused = await t.app.request("/api/projects", jsonPost({ name: "Bad", limits: { maxInReview } }));
      expect(refused.status, String(maxInReview)).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe(
        "limits.maxInReview: must be an integer 1..100, or null",
      );
    }
  });

  it("holds claims of the project's issues while maxInReview wait in review, and frees them as reviews end", async () => {
    const t = await testApp();
    const shop = await project(t, 2);
    await todo(t, shop.id, 4);
    for (let i = 0; i < 2; i++) {
      const { claimed } = await claim(t.app, shop.id);
      if (!claimed) throw new Error("nothing claimed");
      expect((await completeInReview(t.app, claimed)).status).toBe("in_review");
    }
    expect(await new ReviewLoad(t.db).inReview(shop.id)).toBe(2);
    // Filtered by the project, and not: both stop, saying why.
    expect(await claim(t.app, shop.id)).toEqual({ status: 204, stopped: "review-capacity", claimed: null });
    expect(await claim(t.app)).toEqual({ status: 204, stopped: "review-capacity", claimed: null });
    // Another project's issue is claimed past the held ones.
    await todo(t, null, 1);
    const elsewhere = await claim(t.app);
    expect(elsewhere.claimed?.issue.projectId).toBeNull();
    // A merge ends one review: the project's issues are claimed again.
    const [first] = await dataOf<Issue[]>(
      t.app.request(`/api/issues?projectId=${shop.id}&status=in_review`, { headers: AUTH }),
    );
    if (!first) throw new Error("no issue in review");
    await merge(t.app, first.number);
    expect(await new ReviewLoad(t.db).inReview(shop.id)).toBe(1);
    expect((await claim(t.app, shop.id)).status).toBe(201);
  });

  it("moving an issue in review to another project, or deleting it, moves its place in the counts", async () => {
    const t = await testApp();
    const [a, b] = [await project(t, 5), await project(t, 5)];
    await todo(t, a.id, 2);
    const issues = [];
    for (let i = 0; i < 2; i++) {
      const { claimed } = await claim(t.app, a.id);
      if (!claimed) throw new Error("nothing claimed");
      issues.push(await completeInReview(t.app, claimed));
    }
    const [moved, deleted] = issues as [Issue, Issue];
    const patch = (id: string, body: unknown) =>
      t.app.request(`/api/issues/${id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await patch(moved.id, { projectId: b.id })).status).toBe(200);
    expect((await t.app.request(`/api/issues/${deleted.id}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
    const load = new ReviewLoad(t.db);
    expect([await load.inReview(a.id), await load.inReview(b.id)]).toEqual([0, 1]);
  });

  it.each(CONFLICT_MODES)(
    "stays exact under completions, then claims and merges at once, through a fleet of one-request instances ($mode)",
    async ({ emulateConflicts }) => {
      const t = await testApp({}, { emulateConflicts });
      const fleet = fleetOf(t, emulateConflicts);
      const shop = await project(t, 3);
      await todo(t, shop.id, 6);
      const claims = await Promise.all(Array.from({ length: 6 }, () => claim(fleet, shop.id)));
      const claimed = claims.flatMap(({ claimed }) => (claimed ? [claimed] : []));
      expect(claimed).toHaveLength(6);
      // Six completions at once: all six wait in review (the limit holds claims, not completions).
      await Promise.all(claimed.map((one) => completeInReview(fleet, one)));
      const load = new ReviewLoad(t.db);
      expect(await load.inReview(shop.id)).toBe(6);
      expect(await inReviewCount(t, shop.id)).toBe(6);

      // Four merges and four claims at once: a claim is held or takes an issue, never anything else.
      await todo(t, shop.id, 4);
      const numbers = claimed.slice(0, 4).map(({ issue }) => issue.number);
      const [, racing] = await Promise.all([
        Promise.all(numbers.map((number) => merge(fleet, number))),
        Promise.all(Array.from({ length: 4 }, () => claim(fleet, shop.id))),
      ]);
      for (const answer of racing) {
        if (answer.status === 204) expect(answer.stopped).toBe("review-capacity");
        else expect(answer.status).toBe(201);
      }
      // The count is the recount: two wait in review, so the rest of the queue is claimed.
      expect(await load.inReview(shop.id)).toBe(2);
      expect(await inReviewCount(t, shop.id)).toBe(2);
      const left = 4 - racing.filter(({ status }) => status === 201).length;
      const after = await Promise.all(Array.from({ length: left }, () => claim(fleet, shop.id)));
      expect(after.map(({ status }) => status)).toEqual(after.map(() => 201));
    },
  );
});
