/**
 * Review closes the loop (docs/api.md#review): a completion naming an open pull request puts the
 * issue in review; the code host's reviews, review comments, failed checks and closes, signed as
 * the code host signs them and shaped as @octokit/webhooks-examples has them, send it back with
 * their reasons, and the next prompt carries them; the merge finishes it.
 */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import type { Signal } from "../../core/src/signals/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery } from "../helpers/deliveries.js";
import { codehostExamples } from "../helpers/fixtures.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };
type Ingested = { signal: Signal; issue: Issue | null; duplicate: boolean };

/** The examples' pull request: Codertocat/Hello-World#2, head branch `changes`, naming no Kaizen issue. */
const REPOSITORY = "Codertocat/Hello-World";
const PR_URL = `https://github.com/${REPOSITORY}/pull/2`;

// biome-ignore lint/suspicious/noExplicitAny: provider payloads are edited as the provider would vary them.
type Body = Record<string, any>;

function example(event: string, action: string, pick: (body: Body) => boolean = () => true): Body {
  const found = codehostExamples([event]).find((candidate) => candidate.action === action && pick(candidate.body));
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found.body) as Body;
}

function review(state: string, text: string, at = "2026-11-20T10:00:00Z"): Body {
  const body = example("pull_request_review", "submitted");
  body.review.state = state;
  body.review.body = text;
  body.review.submitted_at = at;
  return body;
}

function failedCheck(title: string, summary: string): Body {
  const body = example("check_run", "completed", (b) => b.check_run.conclusion === "failure");
  body.check_run.output = { ...body.check_run.output, title, summary };
  return body;
}

function closed(merged: boolean): Body {
  const body = example("pull_request", "closed");
  body.pull_request.merged = merged;
  body.pull_request.merged_at = merged ? "2026-11-21T09:00:00Z" : null;
  return body;
}

async function deliver(t: TestApp, event: string, body: unknown, delivery?: string) {
  const signed = codehostDelivery(event, body, delivery ? { delivery } : {});
  const response = await t.app.request(signed.path, signed.init);
  return { status: response.status, data: ((await response.json()) as { data: Ingested }).data };
}

const read = (t: TestApp, id: string) => dataOf<Issue>(t.app.request(`/api/issues/${id}`, { headers: AUTH }));
const claim = (t: TestApp) => dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "fixer" })), 201);

function complete(t: TestApp, claimed: Claimed, pullRequests: unknown[], result = "done") {
  return dataOf<{ dispatch: Dispatch; issue: Issue }>(
    t.app.request(
      `/api/dispatch/${claimed.dispatch.id}/complete`,
      jsonPost(
        { result, summary: "Handled the empty cart", pullRequests },
        { Authorization: `Bearer ${claimed.dispatch.token}` },
      ),
    ),
  );
}

/** An issue in `todo`, claimed, completed naming the examples' open pull request: in review. */
async function inReview(t: TestApp, title = "Checkout fails on an empty cart") {
  const issue = await dataOf<Issue>(
    t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" })),
    201,
  );
  const claimed = await claim(t);
  expect(claimed.issue.id).toBe(issue.id);
  const completed = await complete(t, claimed, [{ number: 2, title: "Update the README", url: PR_URL, state: "open" }]);
  return { issue: completed.issue, dispatch: completed.dispatch };
}

describe("review", () => {
  it("a completion naming an open pull request puts the issue in review and keeps the pull request with its repository", async () => {
    const t = await testApp();
    const { issue, dispatch } = await inReview(t);
    expect(dispatch.status).toBe("completed");
    expect(issue).toMatchObject({
      status: "in_review",
      statusChange: { from: "in_progress", to: "in_review", by: "dispatch" },
      completedAt: null,
      reviewRounds: 0,
      feedback: [],
      pullRequests: [{ number: 2, repository: REPOSITORY, url: PR_URL, state: "open" }],
    });
    const listed = await dataOf<Issue[]>(t.app.request("/api/issues?status=in_review", { headers: AUTH }));
    expect(listed.map(({ id }) => id)).toEqual([issue.id]);
    const stats = await dataOf<{ issues: { byStatus: Record<string, number> } }>(
      t.app.request("/api/dashboard/stats", { headers: AUTH }),
    );
    expect(stats.issues.byStatus.in_review).toBe(1);
    // Only a completion moves an issue into review; a person may move it out.
    const into = await t.app.request(`/api/issues/${issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "in_review" }),
    });
    expect(into.status).toBe(200); // staying put is no move
    const other = await dataOf<Issue>(t.app.request("/api/issues", jsonPost({ title: "x", type: "task" })), 201);
    const refused = await t.app.request(`/api/issues/${other.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "in_review" }),
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "Cannot move issue from triage to in_review" });
    const done = await dataOf<Issue>(
      t.app.request(`/api/issues/${issue.id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "done" }),
      }),
    );
    expect(done).toMatchObject({ status: "done", statusChange: { from: "in_review", to: "done", by: "api" } });
  });

  it("a completion whose pull requests are merged, or that names none, is done at once", async () => {
    const t = await testApp();
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "a", type: "task", status: "todo" })), 201);
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "b", type: "task", status: "todo" })), 201);
    const first = await complete(t, await claim(t), [
      { number: 3, title: "Merged", repository: "acme/shop", mergedAt: "2026-11-20T10:00:00Z", state: "merged" },
    ]);
    expect(first.issue.status).toBe("done");
    const second = await complete(t, await claim(t), []);
    expect(second.issue.status).toBe("done");
  });

  it("changes requested, a failed check and an unmerged close send it back with their reasons; the next prompt carries them; the merge finishes it", async () => {
    const t = await testApp();
    const { issue } = await inReview(t);

    // A review comment: feedback with its file and line, no move.
    const comment = example("pull_request_review_comment", "created", (b) => typeof b.comment.line === "number");
    const commented = await deliver(t, "pull_request_review_comment", comment);
    expect(commented.status).toBe(201);
    expect(commented.data.signal).toMatchObject({ action: "review", issueId: issue.id });
    expect(commented.data.issue).toMatchObject({ status: "in_review", reviewRounds: 0 });
    expect(commented.data.issue?.feedback).toEqual([
      {
        kind: "commented",
        author: comment.comment.user.login,
        body: `${comment.comment.path}:${comment.comment.line}\n\n${comment.comment.body}`,
        url: comment.comment.html_url,
        at: new Date(comment.comment.created_at).toISOString(),
        pullRequest: { repository: REPOSITORY, number: 2 },
      },
    ]);

    // Changes requested: back to todo, one round, the review's body kept.
    const asked = review("changes_requested", "An empty cart still shows a total of NaN.");
    const sentBack = await deliver(t, "pull_request_review", asked, "review-delivery-1");
    expect(sentBack.data.signal).toMatchObject({ action: "review", issueId: issue.id });
    expect(sentBack.data.issue).toMatchObject({
      status: "todo",
      reviewRounds: 1,
      statusChange: { from: "in_review", to: "todo", by: "signal" },
    });
    expect(sentBack.data.issue?.feedback.at(-1)).toEqual({
      kind: "changes_requested",
      author: asked.review.user.login,
      body: "An empty cart still shows a total of NaN.",
      url: asked.review.html_url,
      // The review's submitted_at, "2026-11-20T10:00:00Z", in UTC with milliseconds.
      at: "2026-11-20T10:00:00.000Z",
      pullRequest: { repository: REPOSITORY, number: 2 },
    });
    // A redelivery is a duplicate; another delivery of the same review adds nothing.
    const again = await deliver(t, "pull_request_review", asked, "review-delivery-1");
    expect(again).toMatchObject({ status: 200, data: { duplicate: true } });
    const copy = await deliver(t, "pull_request_review", asked, "review-delivery-2");
    expect(copy.data.issue?.feedback).toHaveLength(2);
    expect((await read(t, issue.id)).feedback).toHaveLength(2);

    // The next claim's prompt carries the review and the earlier pull request.
    const second = await claim(t);
    expect(second.issue.id).toBe(issue.id);
    const text = second.prompt?.text ?? "";
    expect(text).toContain("## Review feedback: review sent this back 1 time(s).");
    expect(text).toContain("An empty cart still shows a total of NaN.");
    expect(text).toContain(`${comment.comment.path}:${comment.comment.line}`);
    expect(text).toContain(`— pull request #2 (${PR_URL})`);

    // In review again; a failed check on the pull request's head sends it back a second time.
    expect((await complete(t, second, [{ number: 2, title: "Update the README", url: PR_URL }])).issue.status).toBe(
      "in_review",
    );
    const check = failedCheck("2 tests failed", "cart.test.ts: an empty cart totals 0");
    const failed = await deliver(t, "check_run", check);
    expect(failed.data.issue).toMatchObject({ status: "todo", reviewRounds: 2 });
    expect(failed.data.issue?.feedback.at(-1)).toMatchObject({
      kind: "check_failed",
      body: `${check.check_run.name}: failure\n\n2 tests failed\n\ncart.test.ts: an empty cart totals 0`,
      url: check.check_run.html_url,
    });

    // Closed without merging: back again, naming who closed it.
    const third = await claim(t);
    await complete(t, third, [{ number: 2, title: "Update the README", url: PR_URL }]);
    const unmerged = closed(false);
    const closedBack = await deliver(t, "pull_request", unmerged);
    expect(closedBack.data.issue).toMatchObject({ status: "todo", reviewRounds: 3 });
    expect(closedBack.data.issue?.feedback.at(-1)).toMatchObject({
      kind: "closed_unmerged",
      author: unmerged.sender.login,
      body: `Pull request #2 closed without merging by ${unmerged.sender.login}`,
    });

    // Approved, then merged: done, by the pull request it keeps (it names no KZN-<n>).
    const fourth = await claim(t);
    await complete(t, fourth, [{ number: 2, title: "Update the README", url: PR_URL }]);
    const approved = await deliver(
      t,
      "pull_request_review",
      review("approved", "Looks right.", "2026-11-21T08:00:00Z"),
    );
    expect(approved.data.issue).toMatchObject({ status: "in_review", reviewRounds: 3 });
    expect(approved.data.issue?.feedback.at(-1)).toMatchObject({ kind: "approved", body: "Looks right." });
    const merged = await deliver(t, "pull_request", closed(true));
    expect(merged.data.signal).toMatchObject({ action: "closed_loop", issueId: issue.id });
    expect(merged.data.issue).toMatchObject({
      status: "done",
      statusChange: { from: "in_review", to: "done", by: "signal" },
      pullRequests: [{ number: 2, repository: REPOSITORY, state: "merged", mergedAt: "2026-11-21T09:00:00.000Z" }],
    });
    const signals = await dataOf<Signal[]>(t.app.request(`/api/signals?issueId=${issue.id}`, { headers: AUTH }));
    expect(signals.map(({ action }) => action).sort()).toEqual([
      "closed_loop",
      "review",
      "review",
      "review",
      "review",
      "review",
      "review",
    ]);
  });

  it("a review of a pull request no issue keeps or names opens nothing and is recorded as before", async () => {
    const t = await testApp();
    const answered = await deliver(t, "pull_request_review", review("changes_requested", "Not ours."));
    expect(answered.data.signal.action).toBe("recorded");
    expect(answered.data.issue).toBeNull();
  });

  it.each(CONFLICT_MODES)(
    "review comments arriving at once are all kept, each once ($mode)",
    async ({ emulateConflicts }) => {
      const t = await testApp({}, { emulateConflicts });
      const { issue } = await inReview(t);
      const comments = Array.from({ length: 8 }, (_, i) => {
        const body = example("pull_request_review_comment", "created", (b) => typeof b.comment.line === "number");
        body.comment.body = `Point ${i}`;
        body.comment.html_url = `${PR_URL}#discussion_r${i}`;
        return body;
      });
      const answers = await Promise.all(comments.map((body) => deliver(t, "pull_request_review_comment", body)));
      expect(answers.map(({ status }) => status)).toEqual(comments.map(() => 201));
      const after = await read(t, issue.id);
      expect(after.status).toBe("in_review");
      expect(after.feedback.map(({ body }) => body.split("\n\n")[1]).sort()).toEqual(
        comments.map((_, i) => `Point ${i}`),
      );
    },
  );
});
