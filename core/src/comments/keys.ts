/**
 * @module comments/keys — the comment entity's items and keys (pure functions, no I/O).
 *
 * Access patterns:
 * - comment by id .......... GetItem  pk=$kaizen#comment_1#<id>  sk=$kaizen#comment_1
 *                            (also the ConditionCheck that a reply's parent is a comment of its issue)
 * - lists .................. listings of db/listing-index.ts, entity `comment`, sort key = the id's ULID,
 *                            buckets of one hour; listings `issue=<issueId>` (every comment of an
 *                            issue) and `issue=<issueId>/parent=<commentId>` (one comment's replies)
 *
 * Ids come from db/ids.ts and `createdAt` is read back from the id, so within one process ULID
 * order is creation order and `createdAt` never runs backwards along a listing.
 */
import { decodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";
import { type ListingScheme, ulidListingScheme } from "../db/listing-index.js";

export const COMMENT_ENTITY = keyPrefix("comment");

const nextUlid = ulidSource();

/** A new comment id, and the instant it names (its `createdAt`). */
export function newCommentId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `cmt_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

export function commentKey(id: string): Key {
  return { pk: `${COMMENT_ENTITY}#${id}`, sk: COMMENT_ENTITY };
}

/** Comment listings sort by id (time) and count per hour (ULID buckets of 8 characters, as signals'). */
export const COMMENT_LISTINGS: ListingScheme = ulidListingScheme("comment", 3_600_000, 8);

/** Sort key of a comment in its listings: the ULID of its id. */
export function commentSortKey(id: string): string {
  return id.slice("cmt_".length);
}

/** Every comment of an issue. */
export function issueCommentsListing(issueId: string): string {
  return `issue=${issueId}`;
}

/**
 * The direct replies to one comment. Scoped by issue so that asking one issue for the replies of
 * another issue's comment finds nothing.
 */
export function repliesListing(issueId: string, parentId: string): string {
  return `issue=${issueId}/parent=${parentId}`;
}

/** Every listing a comment appears in. */
export function commentListings(comment: { issueId: string; parentId: string | null }): string[] {
  return [
    issueCommentsListing(comment.issueId),
    ...(comment.parentId ? [repliesListing(comment.issueId, comment.parentId)] : []),
  ];
}
