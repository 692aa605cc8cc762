/**
 * @module issues/stored-work — the pull requests, commits, review feedback and verification an issue
 * or a dispatch's outcome keeps, read as the API answers them (docs/api.md#identifiers-and-fields):
 * an optional field the item lacks is `null`, and a time is UTC with milliseconds, as in items
 * written before the request schemas filled the fields in and normalised the times (a time a client
 * or provider sent was kept as sent). Pure: the issue item's decode (./issue-item.ts) and the
 * dispatch's (../dispatch/outcome-marks.ts) read through it.
 */
import { storedTimestamp } from "../http/timestamps.js";
import type { Commit, Feedback, PullRequest, Verification } from "./schemas.js";

type Stored = Record<string, unknown>;

/** The objects of a stored list; nothing when the item has none. */
function entries(value: unknown): Stored[] {
  return Array.isArray(value)
    ? value.filter((entry): entry is Stored => typeof entry === "object" && entry !== null)
    : [];
}

const textOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * Pull requests as an item holds them, each with every field.
 * @example storedPullRequests([{ number: 2, title: "x", state: "closed" }]) // [{ number: 2, title: "x", url: null, repository: null, state: "closed", mergedAt: null }]
 */
export function storedPullRequests(value: unknown): PullRequest[] {
  return entries(value).map((pr) => ({
    number: Number(pr.number),
    title: String(pr.title ?? ""),
    url: textOrNull(pr.url),
    repository: textOrNull(pr.repository),
    state: textOrNull(pr.state),
    mergedAt: storedTimestamp(pr.mergedAt),
  }));
}

/**
 * Commits as an item holds them, each with every field.
 * @example storedCommits([{ sha: "abc1234", message: "Fix" }]) // [{ sha: "abc1234", message: "Fix", url: null, author: null, timestamp: null }]
 */
export function storedCommits(value: unknown): Commit[] {
  return entries(value).map((commit) => ({
    sha: String(commit.sha),
    message: String(commit.message ?? ""),
    url: textOrNull(commit.url),
    author: textOrNull(commit.author),
    timestamp: storedTimestamp(commit.timestamp),
  }));
}

/** A time an item always holds, in the API's form (as stored when it names no instant). */
const heldTime = (value: string): string => storedTimestamp(value) ?? value;

/**
 * Review feedback as an item holds it, each entry's `at` (the provider's time) in the API's form.
 * @example storedFeedback([{ kind: "approved", at: "2026-11-20T10:00:00Z", … }])[0].at // "2026-11-20T10:00:00.000Z"
 */
export function storedFeedback(value: unknown): Feedback[] {
  return entries(value).map((entry) => {
    const feedback = entry as unknown as Feedback;
    return { ...feedback, at: heldTime(feedback.at) };
  });
}

/**
 * A merged fix's watch as an item holds it, or null: its times in the API's form (`mergedAt` is
 * the provider's `merged_at`, or the one an agent reported).
 * @example storedVerification({ status: "pending", mergedAt: "2026-11-29T00:00:00Z", … })?.mergedAt // "2026-11-29T00:00:00.000Z"
 */
export function storedVerification(value: unknown): Verification | null {
  if (typeof value !== "object" || value === null) return null;
  const watch = value as Verification;
  return {
    ...watch,
    mergedAt: heldTime(watch.mergedAt),
    until: heldTime(watch.until),
    regressedAt: storedTimestamp(watch.regressedAt),
  };
}
