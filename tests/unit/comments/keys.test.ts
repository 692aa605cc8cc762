import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import {
  COMMENT_LISTINGS,
  commentKey,
  commentListings,
  commentSortKey,
  issueCommentsListing,
  newCommentId,
  repliesListing,
} from "../../../core/src/comments/keys.js";
import { COMMENT_ID } from "../../../core/src/comments/schemas.js";
import { listingCountKey, listingEntryKey } from "../../../core/src/db/listing-index.js";
import { timeFloor } from "../../../core/src/signals/keys.js";

const ISSUE = "iss_01JD0000000000000000000000";
const PARENT = "cmt_01JD0000000000000000000001";

describe("comment keys", () => {
  it("name the entity and version in every key", () => {
    expect(commentKey("cmt_1")).toEqual({ pk: "$kaizen#comment_1#cmt_1", sk: "$kaizen#comment_1" });
    const { id } = newCommentId(Date.parse("2026-05-06T07:08:09.010Z"));
    expect(listingEntryKey(COMMENT_LISTINGS.entity, issueCommentsListing(ISSUE), commentSortKey(id))).toEqual({
      pk: `$kaizen#commentlist_1#issue=${ISSUE}`,
      sk: id.slice(4),
    });
    expect(listingCountKey(COMMENT_LISTINGS.entity, issueCommentsListing(ISSUE), "00494671")).toEqual({
      pk: `$kaizen#commentcount_1#issue=${ISSUE}`,
      sk: "00494671",
    });
  });

  it("list a comment under its issue, and a reply also under its parent within that issue", () => {
    expect(commentListings({ issueId: ISSUE, parentId: null })).toEqual([`issue=${ISSUE}`]);
    expect(commentListings({ issueId: ISSUE, parentId: PARENT })).toEqual([
      `issue=${ISSUE}`,
      `issue=${ISSUE}/parent=${PARENT}`,
    ]);
    expect(repliesListing("iss_A", PARENT)).not.toBe(repliesListing("iss_B", PARENT));
  });

  it("give well-formed ids whose time is createdAt", () => {
    const at = Date.parse("2026-05-06T07:08:09.010Z");
    const { id, createdAt } = newCommentId(at);
    expect(id).toMatch(COMMENT_ID);
    expect(createdAt).toBe("2026-05-06T07:08:09.010Z");
    expect(decodeTime(commentSortKey(id))).toBe(at);
  });

  it("sort ids in creation order, even within one millisecond or when the clock steps back", () => {
    const at = Date.parse("2026-05-06T09:00:00.000Z");
    const ids = [newCommentId(at), newCommentId(at), newCommentId(at), newCommentId(at - 5_000), newCommentId(at + 1)];
    const keys = ids.map(({ id }) => commentSortKey(id));
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    const times = ids.map(({ createdAt }) => createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it("bucket by hour, with bounds that enclose the hour's ids", () => {
    const at = Date.parse("2026-06-01T07:30:00.000Z");
    const sk = commentSortKey(newCommentId(at).id);
    const bucket = COMMENT_LISTINGS.bucketOf(sk);
    expect(sk >= COMMENT_LISTINGS.bucketStart(bucket)).toBe(true);
    expect(sk < COMMENT_LISTINGS.bucketEnd(bucket)).toBe(true);
    expect(COMMENT_LISTINGS.bucketStart(bucket)).toBe(timeFloor(Date.parse("2026-06-01T07:00:00.000Z")));
    const nextHour = commentSortKey(newCommentId(Date.parse("2026-06-01T08:00:00.000Z")).id);
    expect(COMMENT_LISTINGS.bucketOf(nextHour) > bucket).toBe(true);
    expect(nextHour >= COMMENT_LISTINGS.bucketEnd(bucket)).toBe(true);
  });
});
