/**
 * @module comments/comment-store — every DynamoDB expression about comments: the create transaction
 * (comment, listing entries and counts, and the check that a reply's parent belongs to the same
 * issue) and listing pages located from bucket counts. Keys and access patterns: ./keys.ts.
 */
import { ConditionFailedError, type Db, type Item, type TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import { retryRaces } from "../db/retry.js";
import { fieldError } from "../errors.js";
import {
  COMMENT_LISTINGS,
  commentKey,
  commentListings,
  commentSortKey,
  issueCommentsListing,
  newCommentId,
  repliesListing,
} from "./keys.js";
import type { Comment } from "./schemas.js";

/** A comment plus its version (the `ETag`). */
export interface StoredComment {
  comment: Comment;
  version: number;
}

/** Fields a caller chooses; the store assigns id and times. */
export type NewComment = Omit<Comment, "id" | "createdAt" | "updatedAt">;

export interface CommentListRequest {
  issueId: string;
  /** Only the direct replies to this comment. */
  parentId?: string;
  offset: number;
  limit: number;
}

// Named condition fragments.
/** The comment id is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The parent exists and is a comment of the reply's issue. */
const parentInIssue = "attribute_exists(pk) AND #issueId = :issueId";

export class CommentStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, COMMENT_LISTINGS);
  }

  /**
   * Writes a comment with its listing entries and counts in one transaction. A reply's parent is
   * checked inside the same transaction (first item), so an unknown parent or another issue's
   * comment is a 400 without a read before the write. Retries while concurrent comments of the
   * same issue contend for a count item.
   */
  async create(fields: NewComment, now: () => number = Date.now): Promise<StoredComment> {
    const { comment, writes } = this.prepareCreate(fields, now());
    try {
      // Failed conditions are never races here: only transaction conflicts are retried.
      await retryRaces(() => this.db.transactWrite(writes), { isRace: () => false });
    } catch (error) {
      if (comment.parentId && error instanceof ConditionFailedError && error.reasons[0] === "ConditionalCheckFailed") {
        const problem = `comment ${comment.parentId} is not a comment of this issue`;
        throw fieldError("parentId", problem);
      }
      throw error;
    }
    return { comment, version: 1 };
  }

  /**
   * The writes of a new comment made at `now` (epoch ms), for a caller's transaction: the comment,
   * its listing entries, and for a reply the check that its parent is a comment of its issue.
   */
  prepareCreate(fields: NewComment, now: number): { comment: Comment; writes: TransactItem[] } {
    const { id, createdAt } = newCommentId(now);
    const comment: Comment = { ...fields, id, createdAt, updatedAt: createdAt };
    return {
      comment,
      writes: [
        ...(comment.parentId ? [parentCheck(comment.parentId, comment.issueId)] : []),
        { Put: { Item: commentItem(comment, 1), ConditionExpression: itemAbsent } },
        ...this.listings.additions(commentListings(comment), commentSortKey(id), { id }),
      ],
    };
  }

  /** One page of an issue's comments (or one comment's replies), oldest first: three calls at most. */
  async list({
    issueId,
    parentId,
    offset,
    limit,
  }: CommentListRequest): Promise<{ comments: Comment[]; total: number }> {
    const listing = parentId ? repliesListing(issueId, parentId) : issueCommentsListing(issueId);
    const { entries, total } = await this.listings.page(listing, { order: "asc", offset, limit });
    const items = await this.db.batchGet(
      entries.map((entry) => commentKey(String(entry.id))),
      { consistent: true },
    );
    return { comments: items.map((item) => fromItem(item).comment), total };
  }
}

/** Condition that `parentId` names a comment of `issueId`; fails the transaction otherwise. */
function parentCheck(parentId: string, issueId: string): TransactItem {
  return {
    ConditionCheck: {
      Key: commentKey(parentId),
      ConditionExpression: parentInIssue,
      ExpressionAttributeNames: { "#issueId": "issueId" },
      ExpressionAttributeValues: { ":issueId": issueId },
    },
  };
}

function commentItem(comment: Comment, version: number): Item {
  return { ...commentKey(comment.id), entity: entityOf("comment"), version, ...comment };
}

/** The stored comment an item holds. */
export function fromItem(item: Item): StoredComment {
  const comment: Comment = {
    id: String(item.id),
    issueId: String(item.issueId),
    parentId: typeof item.parentId === "string" ? item.parentId : null,
    body: String(item.body),
    authorName: String(item.authorName),
    authorType: item.authorType as Comment["authorType"],
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
  return { comment, version: Number(item.version ?? 1) };
}
