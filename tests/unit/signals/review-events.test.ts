/** What a code-host delivery says of a pull request's review (docs/api.md#review), read from the providers' own examples. */
import { describe, expect, it } from "vitest";
import { REVIEW_EVENT_TYPES, reviewEvent } from "../../../core/src/signals/rules.js";
import { codehostExamples } from "../../helpers/fixtures.js";

// biome-ignore lint/suspicious/noExplicitAny: provider payloads are edited as the provider would vary them.
type Body = Record<string, any>;

/** The first example of `event.action`, as the package has it. */
function example(event: string, action: string, pick: (body: Body) => boolean = () => true): Body {
  const found = codehostExamples([event]).find((candidate) => candidate.action === action && pick(candidate.body));
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found.body) as Body;
}

function review(state: string): Body {
  const body = example("pull_request_review", "submitted");
  body.review.state = state;
  return body;
}

describe("reviewEvent", () => {
  it("reads a submitted review of each state: only changes requested sends work back", () => {
    const body = example("pull_request_review", "submitted");
    for (const [state, sendsBack] of [
      ["changes_requested", true],
      ["approved", false],
      ["commented", false],
      ["CHANGES_REQUESTED", true],
    ] as const) {
      body.review.state = state;
      body.review.body = "Please handle the empty cart.";
      expect(reviewEvent("pull_request_review.submitted", body)).toMatchObject({
        kind: state.toLowerCase(),
        sendsBack,
        submittedReview: true,
        repository: body.repository.full_name,
        pullRequests: [{ number: body.pull_request.number, title: body.pull_request.title }],
        author: body.review.user.login,
        body: "Please handle the empty cart.",
        url: body.review.html_url,
        at: new Date(body.review.submitted_at).toISOString(),
      });
    }
    body.review.state = "dismissed";
    expect(reviewEvent("pull_request_review.submitted", body)).toBeNull();
    expect(reviewEvent("pull_request_review.dismissed", example("pull_request_review", "dismissed"))).toBeNull();
  });

  it("puts a review comment's file and line before its text", () => {
    const body = example("pull_request_review_comment", "created", (b) => typeof b.comment.line === "number");
    expect(reviewEvent("pull_request_review_comment.created", body)).toMatchObject({
      kind: "commented",
      sendsBack: false,
      submittedReview: false,
      body: `${body.comment.path}:${body.comment.line}\n\n${body.comment.body}`,
      author: body.comment.user.login,
      url: body.comment.html_url,
      at: new Date(body.comment.created_at).toISOString(),
    });
    expect(
      reviewEvent("pull_request_review_comment.edited", example("pull_request_review_comment", "edited")),
    ).toBeNull();
  });

  it("reads a failed check run on a pull request's head: its name, conclusion, title and summary", () => {
    const body = example("check_run", "completed", (b) => b.check_run.conclusion === "failure");
    body.check_run.output = { ...body.check_run.output, title: "3 tests failed", summary: "cart.test.ts: empty cart" };
    expect(reviewEvent("check_run.completed", body)).toMatchObject({
      kind: "check_failed",
      sendsBack: true,
      pullRequests: body.check_run.pull_requests.map((pr: { number: number }) => ({ number: pr.number })),
      body: `${body.check_run.name}: failure\n\n3 tests failed\n\ncart.test.ts: empty cart`,
      url: body.check_run.html_url,
    });
    body.check_run.conclusion = "timed_out";
    expect(reviewEvent("check_run.completed", body)?.kind).toBe("check_failed");
    body.check_run.pull_requests = [];
    expect(reviewEvent("check_run.completed", body)).toBeNull();
    const passed = example("check_run", "completed", (b) => b.check_run.conclusion === "success");
    expect(reviewEvent("check_run.completed", passed)).toBeNull();
  });

  it("reads a failed check suite by its app's name, and names issues by the head branch", () => {
    const body = example("check_suite", "completed", (b) => b.check_suite.pull_requests.length > 0);
    body.check_suite.conclusion = "failure";
    body.check_suite.pull_requests[0].head.ref = "kaizen/7-empty-cart";
    expect(reviewEvent("check_suite.completed", body)).toMatchObject({
      kind: "check_failed",
      pullRequests: [{ number: body.check_suite.pull_requests[0].number, references: [7] }],
      body: `${body.check_suite.app.name}: failure`,
    });
  });

  it("reads a closed pull request: merged closes the loop, unmerged sends work back, naming who closed it", () => {
    const body = example("pull_request", "closed");
    body.pull_request.title = "Fix the cart (KZN-12)";
    expect(reviewEvent("pull_request.closed", body)).toMatchObject({
      kind: "closed_unmerged",
      sendsBack: true,
      author: body.sender.login,
      body: `Pull request #${body.pull_request.number} closed without merging by ${body.sender.login}`,
      pullRequests: [{ number: body.pull_request.number, references: [12] }],
    });
    body.pull_request.merged = true;
    body.pull_request.merged_at = "2026-11-20T10:00:00Z";
    expect(reviewEvent("pull_request.closed", body)).toMatchObject({
      kind: "merged",
      sendsBack: false,
      at: "2026-11-20T10:00:00.000Z",
      pullRequests: [{ number: body.pull_request.number, url: body.pull_request.html_url }],
    });
  });

  it("reads the provider's time as its instant in UTC with milliseconds, and none that is no ISO-8601 time", () => {
    const body = example("pull_request", "closed");
    body.pull_request.merged = true;
    for (const [sent, read] of [
      ["2026-11-29T00:00:00Z", "2026-11-29T00:00:00.000Z"],
      ["2026-11-28T20:00:00-04:00", "2026-11-29T00:00:00.000Z"],
      ["yesterday", null],
      [1795910400, null],
    ] as const) {
      body.pull_request.merged_at = sent;
      expect(reviewEvent("pull_request.closed", body)?.at, String(sent)).toBe(read);
    }
    const comment = review("commented");
    comment.review.submitted_at = "2026-11-29T09:00:00.123456+09:00";
    expect(reviewEvent("pull_request_review.submitted", comment)?.at).toBe("2026-11-29T00:00:00.123Z");
    const check = example("check_run", "completed", (b) => b.check_run.conclusion === "failure");
    check.check_run.completed_at = "2026-11-29T01:00:00+01:00";
    expect(reviewEvent("check_run.completed", check)?.at).toBe("2026-11-29T00:00:00.000Z");
  });

  it("names every event type it reads a review from, and no other", () => {
    const bodies: Record<string, Body> = {
      "pull_request.closed": example("pull_request", "closed"),
      "pull_request_review.submitted": review("changes_requested"),
      "pull_request_review_comment.created": example("pull_request_review_comment", "created"),
      "check_run.completed": example("check_run", "completed", (b) => b.check_run.conclusion === "failure"),
      "check_suite.completed": {
        ...example("check_suite", "completed", (b) => b.check_suite.pull_requests.length > 0),
      },
    };
    (bodies["check_suite.completed"] as Body).check_suite.conclusion = "failure";
    expect([...REVIEW_EVENT_TYPES].sort()).toEqual(Object.keys(bodies).sort());
    for (const [type, body] of Object.entries(bodies)) expect(reviewEvent(type, body), type).not.toBeNull();
  });

  it("is null for other deliveries and for bodies that are not what they claim", () => {
    expect(reviewEvent("pull_request.opened", example("pull_request", "opened"))).toBeNull();
    expect(reviewEvent("push", { ref: "refs/heads/main" })).toBeNull();
    expect(reviewEvent("pull_request.closed", { pull_request: { number: "1", merged: true } })).toBeNull();
    expect(reviewEvent("pull_request_review.submitted", null)).toBeNull();
  });
});
