/** @module issues/transitions — the issue state machine of docs/api.md#states-and-transitions, in one place. */
import type { IssueStatus } from "./schemas.js";

/**
 * Who moves the issue: a client's PATCH, the dispatch flow (claim, complete, release, expiry), a
 * signal (a close or reopen event of its provider, a merged pull request naming it), or its
 * project's automation (a triage issue accepted, docs/api.md#automation).
 */
export type TransitionActor = "patch" | "dispatch" | "signal" | "automation";

const ALLOWED: Record<IssueStatus, readonly IssueStatus[]> = {
  triage: ["backlog", "todo", "canceled", "done"],
  backlog: ["todo", "triage", "canceled"],
  todo: ["backlog", "canceled", "in_progress"],
  in_progress: ["done", "canceled", "todo", "in_review"],
  in_review: ["done", "todo", "canceled"],
  done: ["triage", "todo"],
  canceled: ["triage", "backlog"],
};

const FINISHED: readonly IssueStatus[] = ["done", "canceled"];
/** Statuses only the dispatch flow moves an issue into. */
const DISPATCH_ONLY: readonly IssueStatus[] = ["in_progress", "in_review"];

/**
 * Why `from → to` is refused for `actor`, or null when it is allowed. Staying put is no move.
 * `in_progress` is entered only by a dispatch claim, and `in_review` only by a dispatch's completion
 * naming an open pull request (docs/api.md#review); leaving either by PATCH is allowed (leaving
 * `in_progress` ends the dispatch). A signal may finish any open issue (the fix is merged, the
 * provider closed it), and sends an issue in review back to `todo` (review asked for changes). A
 * dispatch a person (or its budget, as `automation`) stopped may send its issue from `in_progress` to
 * `backlog`.
 * @example transitionRefusal("done", "backlog", "patch") // "Cannot move issue from done to backlog"
 */
export function transitionRefusal(from: IssueStatus, to: IssueStatus, actor: TransitionActor): string | null {
  if (from === to) return null;
  const finishedBySignal = actor === "signal" && to === "done" && isOpen(from);
  // A stopped dispatch may send its issue to the backlog (docs/api.md#stopping-a-dispatch); Kaizen
  // stops one that passed its budget so (docs/api.md#budget-per-dispatch).
  const stoppedToBacklog =
    (actor === "dispatch" || actor === "automation") && from === "in_progress" && to === "backlog";
  const allowed =
    (ALLOWED[from].includes(to) || finishedBySignal || stoppedToBacklog) &&
    (!DISPATCH_ONLY.includes(to) || actor === "dispatch");
  return allowed ? null : `Cannot move issue from ${from} to ${to}`;
}

/** `completedAt` after a move: set on entering done/canceled, cleared on leaving them. */
export function completedAtAfter(
  from: IssueStatus,
  to: IssueStatus,
  current: string | null,
  now: string,
): string | null {
  if (from === to) return current;
  if (FINISHED.includes(to)) return now;
  return null;
}

/** Whether an issue in this status still waits to be worked on or is being worked on. */
export function isOpen(status: IssueStatus): boolean {
  return !FINISHED.includes(status);
}
