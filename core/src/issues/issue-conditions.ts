/**
 * @module issues/issue-conditions — the named condition fragments of issue writes, shared by the
 * store's creates and updates (./issue-store.ts) and the signal grouping (./signal-grouping.ts).
 */
import type { Item, TransactItem } from "../db/db.js";

/** The issue id is new. */
export const itemAbsent = "attribute_not_exists(pk)";
/** The item is still there (a pending signal not yet folded). */
export const itemExists = "attribute_exists(pk)";
/** The issue has not been deleted. */
export const issueLive = "attribute_not_exists(deletedAt)";
/** The issue is neither done nor canceled. */
export const issueOpen = "NOT (#status IN (:done, :canceled))";
/**
 * One more signal leaves the issue's place in the queue as it is: it is not in `todo` (only those
 * have a place), or its count is none of those from which one more reaches a power of two and
 * changes its impact bonus (./scoring.ts).
 */
export const placeKept =
  "(#status <> :todo OR NOT (#signalCount IN (:impact1, :impact3, :impact7, :impact15, :impact31)))";
export const PLACE_KEPT_VALUES = {
  ":todo": "todo",
  ":impact1": 1,
  ":impact3": 3,
  ":impact7": 7,
  ":impact15": 15,
  ":impact31": 31,
};
/** The issue is not in `todo`: it has no place in the queue that signals folded into it could move. */
export const notQueued = "#status <> :todo";

/** The issue is as it was read. */
export const versionUnchanged = "#version = :expectedVersion";

/** Replaces an issue item only if it is still at `version` (nobody wrote it since it was read). */
export function putAtVersion(item: Item, version: number): TransactItem {
  return {
    Put: {
      Item: item,
      ConditionExpression: versionUnchanged,
      ExpressionAttributeNames: { "#version": "version" },
      ExpressionAttributeValues: { ":expectedVersion": version },
    },
  };
}
