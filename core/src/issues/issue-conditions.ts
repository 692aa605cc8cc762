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
