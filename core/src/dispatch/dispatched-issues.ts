/**
 * @module dispatch/dispatched-issues — the issue side every dispatch protocol works on, as one
 * collaborator: issue items (read, and their partitions for a claim's prompt), the dispatch queue
 * (its head and its order), IssueMoves, the one place an issue's status changes, the pointers
 * from the pull requests a completion names to its issue, and the issues' comments.
 */
import type { CommentStore } from "../comments/comment-store.js";
import type { DispatchQueue } from "../issues/dispatch-queue.js";
import type { IssueMoves } from "../issues/issue-moves.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { PullRequestIndex } from "../issues/pull-request-index.js";

export interface DispatchedIssues {
  store: IssueStore;
  queue: DispatchQueue;
  moves: IssueMoves;
  pullRequests: PullRequestIndex;
  /** Comments on issues: what Kaizen says on an issue when it stops a dispatch itself. */
  comments: Pick<CommentStore, "prepareCreate">;
}
