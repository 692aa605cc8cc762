/**
 * @module catalog/fence — deletion fences: a delete that must first count references kept
 * elsewhere (issues in a project, issues carrying a label) marks the item `deletingUntil`, and
 * writers adding such a reference check {@link unfenced} in their own transaction. Once the
 * fence is up, no new reference can land, so the count the delete then reads is final.
 *
 * Every issue write that names a project or label checks it, so the guard is a spread item
 * (db/spread.ts): a burst of writes naming one label checks different shards of its guard
 * instead of all holding one item. A fence is set on the item and all its shards at once, and a
 * delete leaves a tombstone (`gone`) on each shard, so no shard lets a write through afterwards.
 */
import type { Db, Key, TransactItem } from "../db/db.js";
import { ConditionFailedError } from "../db/db.js";
import { retryConflicts } from "../db/retry.js";
import { spreadShardKeys } from "../db/spread.js";

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

/** A shard of the guard no delete has finished. */
const shardNotGone = "attribute_not_exists(#gone)";

/**
 * The check an issue write makes on a project or label it names: the item exists (a shard: it
 * was not deleted) and no delete is counting its references.
 */
export function referenceCheck(key: Key, now: Date): TransactItem {
  const names = { "#deletingUntil": "deletingUntil" };
  const values = { ":now": now.toISOString() };
  return {
    SpreadCheck: {
      Key: key,
      base: { expression: `${targetExists} AND ${unfenced}`, names, values },
      shard: { expression: `${shardNotGone} AND ${unfenced}`, names: { ...names, "#gone": "gone" }, values },
    },
  };
}

/** Sets `deletingUntil` on an item, if `guard` holds, and on every shard of its reference check. */
export async function setFence(
  db: Db,
  key: Key,
  until: string,
  guard: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
): Promise<void> {
  await retryConflicts(() =>
    db.transactWrite([
      {
        Update: {
          Key: key,
          UpdateExpression: "SET #deletingUntil = :until",
          ConditionExpression: guard.expression,
          ExpressionAttributeNames: { ...guard.names, "#deletingUntil": "deletingUntil" },
          ExpressionAttributeValues: { ...guard.values, ":until": until },
        },
      },
      ...spreadShardKeys(key).map((shard) => ({
        Update: {
          Key: shard,
          UpdateExpression: "SET #deletingUntil = :until",
          ExpressionAttributeNames: { "#deletingUntil": "deletingUntil" },
          ExpressionAttributeValues: { ":until": until },
        },
      })),
    ]),
  );
}

/** Removes `deletingUntil` from an item that still exists and from its shards (a gone item stays gone). */
export async function removeFence(db: Db, key: Key): Promise<void> {
  try {
    await retryConflicts(() =>
      db.transactWrite([
        {
          Update: {
            Key: key,
            UpdateExpression: "REMOVE #deletingUntil",
            ConditionExpression: targetExists,
            ExpressionAttributeNames: { "#deletingUntil": "deletingUntil" },
          },
        },
        ...spreadShardKeys(key).map((shard) => ({
          Update: {
            Key: shard,
            UpdateExpression: "REMOVE #deletingUntil",
            ExpressionAttributeNames: { "#deletingUntil": "deletingUntil" },
          },
        })),
      ]),
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/** Writes, for a delete's transaction, that leave a tombstone on every shard of the item's check. */
export function guardTombstones(key: Key): TransactItem[] {
  return spreadShardKeys(key).map((shard) => ({ Put: { Item: { ...shard, gone: true } } }));
}

/** Writes, for a new item's transaction, that clear the shards a previous item under its key left. */
export function guardShardsCleared(key: Key): TransactItem[] {
  return spreadShardKeys(key).map((shard) => ({ Delete: { Key: shard } }));
}
