/** The issue state machine of docs/api.md#states-and-transitions, written out for tests apart from the code that enforces it. */
import type { IssueStatus } from "../../core/src/issues/schemas.js";

/**
 * For each status, the statuses a PATCH may move an issue to (into `in_progress` only a claim moves,
 * into `in_review` only a completion naming an open pull request).
 */
export const PATCH_MOVES: Record<IssueStatus, IssueStatus[]> = {
  triage: ["backlog", "todo", "canceled", "done"],
  backlog: ["todo", "triage", "canceled"],
  todo: ["backlog", "canceled"],
  in_progress: ["done", "canceled", "todo"],
  in_review: ["done", "todo", "canceled"],
  done: ["triage", "todo"],
  canceled: ["triage", "backlog"],
};
