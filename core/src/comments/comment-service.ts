/** @module comments/comment-service — comment rules: the issue must exist, replies stay within their issue, lists in conversation order. */
import { pageOffset } from "../http/pagination.js";
import { ISSUE_ID } from "../issues/keys.js";
import type { CommentStore, StoredComment } from "./comment-store.js";
import type { CreateCommentBody, ListCommentsQuery } from "./schemas.js";

/**
 * Finds the issue a comment path names, by `iss_…` id or `KZN-<n>`; throws NotFoundError for an
 * unknown issue. Handed in by the issues family, which owns issue reads.
 */
export type CommentIssueLookup = (ref: string) => Promise<{ id: string }>;

export class CommentService {
  constructor(
    private readonly store: CommentStore,
    private readonly findIssue: CommentIssueLookup,
  ) {}

  /**
   * Adds a comment to the issue `issueRef` names. A reply (`parentId`) may answer any comment of
   * the same issue, replies included: threads have any depth, and cannot form cycles because a
   * parent always exists before its replies.
   */
  async addComment(issueRef: string, input: CreateCommentBody): Promise<StoredComment> {
    const issue = await this.findIssue(issueRef);
    return this.store.create({
      issueId: issue.id,
      parentId: input.parentId ?? null,
      body: input.body,
      authorName: input.authorName,
      authorType: input.authorType,
    });
  }

  /**
   * A page of the issue's comments oldest first (the order a conversation reads), or of one
   * comment's direct replies. A `parentId` that is not a comment of this issue has no replies
   * here: an empty page, as for any filter that matches nothing.
   */
  /**
   * A page of an issue's comments. An `iss_…` id is not looked up first: comments exist only on
   * existing issues, so the issue is checked (404) only when the page comes back empty.
   */
  async listComments(issueRef: string, query: ListCommentsQuery) {
    const byId = ISSUE_ID.test(issueRef);
    const issueId = byId ? issueRef : (await this.findIssue(issueRef)).id;
    const page = await this.store.list({
      issueId,
      parentId: query.parentId,
      offset: pageOffset(query),
      limit: query.limit,
    });
    if (byId && page.total === 0) await this.findIssue(issueRef);
    return page;
  }
}
