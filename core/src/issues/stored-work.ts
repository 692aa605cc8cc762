/**
 * @module issues/stored-work — the pull requests and commits an issue or a dispatch's outcome keeps,
 * read as the API answers them (docs/api.md#identifiers-and-fields): an optional field the item
 * lacks is `null`, as in items written before the request schemas filled them in. Pure: the issue
 * item's decode (./issue-item.ts) and the dispatch's (../dispatch/outcome-marks.ts) read through it.
 */
import type { Commit, PullRequest } from "./schemas.js";

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
    mergedAt: textOrNull(pr.mergedAt),
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
    timestamp: textOrNull(commit.timestamp),
  }));
}
