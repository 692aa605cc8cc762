/**
 * @module catalog/fence — deletion fences: a delete that must first count references kept
 * elsewhere (issues in a project, issues carrying a label) marks the item `deletingUntil`, and
 * writers adding such a reference check {@link unfenced} in their own transaction. Once the
 * fence is up, no new reference can land, so the count the delete then reads is final.
 */
import type { Db, Key } from "../db/client.js";
import { ConditionFailedError } from "../db/client.js";

// Named condition fragments.
/** The item exists (a record, or a label name claim). */
export const targetExists = "attribute_exists(pk)";
/** No delete is under way (or the one that fenced the item gave up long ago). */
export const unfenced = "(attribute_not_exists(#deletingUntil) OR #deletingUntil < :now)";
/** The fence this delete set still holds. */
export const fenceHeld = "#deletingUntil > :now";

/**
 * How long a deletion fence holds: longer than any request lives (functions time out after
 * 10 s), so a delete that crashed between fencing and deleting frees the item soon after.
 */
export const FENCE_MS = 30_000;

/** Sets `deletingUntil` on an item if `guard` holds. */
export async function setFence(
  db: Db,
  key: Key,
  until: string,
  guard: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
): Promise<void> {
  await db.update({
    Key: key,
    UpdateExpression: "SET #deletingUntil = :until",
    ConditionExpression: guard.expression,
    ExpressionAttributeNames: { ...guard.names, "#deletingUntil": "deletingUntil" },
    ExpressionAttributeValues: { ...guard.values, ":until": until },
  });
}

/** Removes `deletingUntil` from an item that still exists (a gone item stays gone). */
export async function removeFence(db: Db, key: Key): Promise<void> {
  try {
    await db.update({
      Key: key,
      UpdateExpression: "REMOVE #deletingUntil",
      ConditionExpression: targetExists,
      ExpressionAttributeNames: { "#deletingUntil": "deletingUntil" },
    });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
