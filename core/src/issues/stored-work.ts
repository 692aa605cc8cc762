/**
 * @module issues/stored-work — the commits, pull requests, watch and review feedback an issue or a
 * dispatch's outcome keeps, read as the API answers them (docs/api.md#identifiers-and-fields): an
 * optional field the item lacks is `null`, and a time a client or the code host sent is UTC with
 * milliseconds, as in items written before the request schemas filled the fields in and normalised
 * the times. Pure: the issue item's decode (./issue-item.ts) and the dispatch's
 * (../dispatch/outcome-marks.ts) read through it. Every function that reads an issue or a dispatch
 * carries it, the templates function within bytes of its budget, so it is kept small
 * (docs/contributing.md#budgets).
 */
import { storedTimestamp } from "../http/timestamps.js";
import type { Commit, Feedback, PullRequest, Verification } from "./schemas.js";

/** `entry` as stored over `absent` (its optional fields, null), with its `time` in the API's form. */
const completed = <T>(entry: object, absent: object, time: string): T =>
  ({ ...absent, ...entry, [time]: storedTimestamp((entry as Record<string, unknown>)[time]) }) as T;

/** Each entry of a stored list {@link completed}; nothing when the item holds no list. */
const each = <T>(value: unknown, absent: object, time: string): T[] =>
  ((value as object[] | undefined) ?? []).map((entry) => completed<T>(entry, absent, time));

/**
 * The work an issue item or a dispatch's outcome holds: its commits and pull requests, each with
 * every field, and the watch of its merged fix, or null. Of a watch's times only `mergedAt` comes
 * from outside (the code host's `merged_at`, or an agent's); `until` and `regressedAt` were always
 * written in the API's form.
 * @example storedWork({ pullRequests: [{ number: 2, title: "x", state: "closed" }] }).pullRequests // [{ number: 2, title: "x", state: "closed", url: null, repository: null, mergedAt: null }]
 */
export function storedWork(held: { commits?: unknown; pullRequests?: unknown; verification?: unknown }): {
  commits: Commit[];
  pullRequests: PullRequest[];
  verification: Verification | null;
} {
  return {
    commits: each(held.commits, { url: null, author: null }, "timestamp"),
    pullRequests: each(held.pullRequests, { url: null, repository: null, state: null }, "mergedAt"),
    verification: held.verification ? completed(held.verification, {}, "mergedAt") : null,
  };
}

/**
 * Review feedback as an item holds it, each entry's `at` (the code host's time) in the API's form.
 * @example storedFeedback([{ kind: "approved", at: "2026-11-20T10:00:00Z", … }])[0].at // "2026-11-20T10:00:00.000Z"
 */
export const storedFeedback = (value: unknown): Feedback[] => each(value, {}, "at");
