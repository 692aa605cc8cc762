/**
 * @module signals/rules/codehost-review — what a code-host webhook delivery says of a pull request's
 * review (docs/api.md#review): a review, a review comment, a failed check on the pull request's head,
 * the pull request closed with or without merging. Pure: the issues it concerns are found by
 * ../review-loop.ts.
 */
import { providerTimestamp } from "../../http/timestamps.js";
import type { FeedbackKind } from "../../issues/schemas.js";
import { issueReferences } from "./codehost.js";
import { field, idText, text } from "./index.js";

/** A pull request as a review event names it. */
export interface ReviewedPullRequest {
  number: number;
  /** Its title and page, where the delivery carries them (pull request and review events do). */
  title?: string;
  url?: string | null;
  /** `KZN-<n>` in its title or body and a `kaizen/<n>` head branch name issues too. */
  references: number[];
}

/** What one code-host delivery says of the review of pull requests in one repository. */
export interface ReviewEvent {
  /** `merged` closes the loop; the others are feedback. */
  kind: FeedbackKind | "merged";
  /** Sends an issue in review back to `todo` (changes requested, a failed check, closed unmerged). */
  sendsBack: boolean;
  /**
   * A person's submitted review (approved, changes requested or commented), not a review comment,
   * a check or a close: kept as a human review of the prompt behind the pull request
   * (docs/api.md#prompts-and-reviews).
   */
  submittedReview: boolean;
  repository: string | null;
  pullRequests: ReviewedPullRequest[];
  author: string | null;
  /** The feedback's text: the review's body; the check's name, title and summary; who closed it. */
  body: string;
  url: string | null;
  /**
   * When it happened, as the provider says, in UTC with milliseconds (docs/api.md#identifiers-and-fields);
   * null when it does not say, or says no ISO-8601 time (the signal's time then).
   */
  at: string | null;
}

/** The code-host event types that may report a review: only their payloads are read for one. */
export const REVIEW_EVENT_TYPES: ReadonlySet<string> = new Set([
  "pull_request.closed",
  "pull_request_review.submitted",
  "pull_request_review_comment.created",
  "check_run.completed",
  "check_suite.completed",
]);

const CHECK_FAILURES: ReadonlySet<string> = new Set(["failure", "timed_out"]);
const REVIEW_KINDS: Readonly<Record<string, FeedbackKind>> = {
  changes_requested: "changes_requested",
  approved: "approved",
  commented: "commented",
};

/**
 * The review a code-host delivery reports, or null when it reports none: `pull_request_review.submitted`,
 * `pull_request_review_comment.created`, `check_run.completed` and `check_suite.completed` that failed
 * on pull requests, and `pull_request.closed` (merged or not).
 * @example reviewEvent("pull_request_review.submitted", body)?.kind // "changes_requested"
 */
export function reviewEvent(type: string, body: unknown): ReviewEvent | null {
  const repository = text(field(body, "repository", "full_name")) ?? null;
  switch (type) {
    case "pull_request.closed":
      return closedPullRequest(body, repository);
    case "pull_request_review.submitted":
      return submittedReview(body, repository);
    case "pull_request_review_comment.created":
      return reviewComment(body, repository);
    case "check_run.completed":
    case "check_suite.completed":
      return failedCheck(type.startsWith("check_run") ? "check_run" : "check_suite", body, repository);
    default:
      return null;
  }
}

/** The pull request of a `pull_request*` delivery, with the issues its title, body and branch name. */
function pullRequestOf(body: unknown): ReviewedPullRequest | null {
  const pr = field(body, "pull_request");
  const number = field(pr, "number") ?? field(body, "number");
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 1) return null;
  const title = text(field(pr, "title")) ?? `Pull request #${number}`;
  const references = issueReferences({
    title,
    body: text(field(pr, "body")) ?? null,
    headBranch: text(field(pr, "head", "ref")) ?? null,
  });
  return { number, title, url: text(field(pr, "html_url")) ?? null, references };
}

function closedPullRequest(body: unknown, repository: string | null): ReviewEvent | null {
  const pr = pullRequestOf(body);
  if (!pr) return null;
  const merged = field(body, "pull_request", "merged") === true;
  const closer = text(field(body, "sender", "login")) ?? null;
  return {
    kind: merged ? "merged" : "closed_unmerged",
    sendsBack: !merged,
    submittedReview: false,
    repository,
    pullRequests: [pr],
    author: closer,
    body: merged
      ? `Pull request #${pr.number} merged`
      : `Pull request #${pr.number} closed without merging${closer ? ` by ${closer}` : ""}`,
    url: text(field(body, "pull_request", "html_url")) ?? null,
    at: providerTimestamp(field(body, "pull_request", merged ? "merged_at" : "closed_at")) ?? null,
  };
}

function submittedReview(body: unknown, repository: string | null): ReviewEvent | null {
  const pr = pullRequestOf(body);
  const kind = REVIEW_KINDS[(text(field(body, "review", "state")) ?? "").toLowerCase()];
  if (!pr || !kind) return null;
  return {
    kind,
    sendsBack: kind === "changes_requested",
    submittedReview: true,
    repository,
    pullRequests: [pr],
    author: text(field(body, "review", "user", "login")) ?? null,
    body: text(field(body, "review", "body")) ?? "",
    url: text(field(body, "review", "html_url")) ?? null,
    at: providerTimestamp(field(body, "review", "submitted_at")) ?? null,
  };
}

function reviewComment(body: unknown, repository: string | null): ReviewEvent | null {
  const pr = pullRequestOf(body);
  if (!pr) return null;
  const comment = field(body, "comment");
  const path = text(field(comment, "path"));
  const line = idText(field(comment, "line")) ?? idText(field(comment, "original_line"));
  const place = path ? `${path}${line ? `:${line}` : ""}` : null;
  const said = text(field(comment, "body")) ?? "";
  return {
    kind: "commented",
    sendsBack: false,
    submittedReview: false,
    repository,
    pullRequests: [pr],
    author: text(field(comment, "user", "login")) ?? null,
    body: place ? `${place}\n\n${said}` : said,
    url: text(field(comment, "html_url")) ?? null,
    at: providerTimestamp(field(comment, "created_at")) ?? null,
  };
}

function failedCheck(
  eventType: "check_run" | "check_suite",
  body: unknown,
  repository: string | null,
): ReviewEvent | null {
  const run = field(body, eventType);
  if (!CHECK_FAILURES.has(text(field(run, "conclusion")) ?? "")) return null;
  const listed = field(run, "pull_requests");
  const headBranch =
    text(eventType === "check_run" ? field(run, "check_suite", "head_branch") : field(run, "head_branch")) ?? null;
  const pullRequests = (Array.isArray(listed) ? listed : []).flatMap((pr): ReviewedPullRequest[] => {
    const number = field(pr, "number");
    if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 1) return [];
    const branch = text(field(pr, "head", "ref")) ?? headBranch;
    return [{ number, references: issueReferences({ headBranch: branch }) }];
  });
  if (pullRequests.length === 0) return null;
  const name = (eventType === "check_suite" ? text(field(run, "app", "name")) : text(field(run, "name"))) ?? "A check";
  const conclusion = text(field(run, "conclusion")) ?? "failure";
  const title = text(field(run, "output", "title"));
  const summary = text(field(run, "output", "summary"));
  return {
    kind: "check_failed",
    sendsBack: true,
    submittedReview: false,
    repository,
    pullRequests,
    author: text(field(run, "app", "name")) ?? null,
    body: [`${name}: ${conclusion}`, title, summary].filter((part): part is string => Boolean(part)).join("\n\n"),
    url: text(field(run, "html_url")) ?? null,
    at: providerTimestamp(field(run, "completed_at")) ?? providerTimestamp(field(run, "updated_at")) ?? null,
  };
}
