/**
 * @module stats/counts — the activity counts (issues by status and type, dispatches by status, queue
 * depth, todo-to-done times) that issue and dispatch writes keep and the dashboard reads (docs/api.md#service-health-dashboard-and-docs),
 * as spread counts (db/spread.ts) so no count becomes a hot item.
 *
 * Keys:
 * - pk=$kaizen#stats_1, sk=`issue.status#<status>` · `issue.type#<type>` · `dispatch.status#<status>`
 *   · `queue.depth` · `todo-to-done#<bucket>` (a histogram of seconds from todo to done);
 *   the dashboard reads them all in one query, whatever the number of issues.
 * Signals per hour and source are not counted here: the signal listings `source=<source>` already
 * keep a count per hour in each signal's transaction (db/listing-index.ts).
 *
 * The issue, dispatch and queue listings count their members too, but per bucket of sort keys (what
 * paging needs): a total read from them costs one item per bucket, so it grows with the table.
 * These totals are what keeps the dashboard's cost the same at ten issues and at a million.
 */
import type { Db, Key, TransactItem } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import { sumSpreadCounts } from "../db/spread.js";

const STATS = keyPrefix("stats");

export const STATS_PARTITION = STATS;

export type Counter =
  | `issue.status#${string}`
  | `issue.type#${string}`
  | `dispatch.status#${string}`
  | "queue.depth"
  | `todo-to-done#${string}`;

function add(key: Key, delta: number): TransactItem {
  return { SpreadAdd: { Key: key, attribute: "count", delta } };
}

/** One change of one dashboard count, for the transaction of the write it follows. */
export function countChange(counter: Counter, delta: 1 | -1): TransactItem {
  return add({ pk: STATS, sk: counter }, delta);
}

/**
 * Histogram buckets of todo-to-done durations: bucket `b` holds durations in
 * [1.25^b, 1.25^(b+1)) seconds, so a median read from it is within 25 % of the exact one.
 */
const GROWTH = 1.25;

export function durationBucket(seconds: number): string {
  const bucket = seconds < 1 ? 0 : Math.floor(Math.log(seconds) / Math.log(GROWTH)) + 1;
  return String(bucket).padStart(3, "0");
}

/** The middle of a bucket's range, in seconds (the geometric middle; bucket 0 is under a second). */
export function bucketSeconds(bucket: string): number {
  const b = Number(bucket);
  if (b === 0) return 0.5;
  return GROWTH ** (b - 1) * Math.sqrt(GROWTH);
}

/**
 * The median of a histogram (bucket → count): the middle of the bucket that holds the middle
 * duration; null when it is empty.
 * @example medianOf({ "010": 3, "020": 1 }) // bucketSeconds("010")
 */
export function medianOf(histogram: Record<string, number>): number | null {
  const buckets = Object.entries(histogram)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen * 2 >= total) return bucketSeconds(bucket);
  }
  return null;
}

/** The update expression of {@link plainAddition}: how a merge tells one apart. */
const PLAIN_ADD = "ADD #added :delta";

/**
 * Adds `delta` to `attribute` of the one item at `key`, unconditionally: for a count kept on one item
 * because a condition elsewhere reads it whole (a spread count could not be checked). Merged like
 * spread counts by {@link mergeCountChanges}.
 */
export function plainAddition(key: Key, attribute: string, delta: number): TransactItem {
  return {
    Update: {
      Key: key,
      UpdateExpression: PLAIN_ADD,
      ExpressionAttributeNames: { "#added": attribute },
      ExpressionAttributeValues: { ":delta": delta },
    },
  };
}

/** A count change as a merge sees it: its item, attribute and delta, or undefined for any other write. */
function additionOf(write: TransactItem): { Key: Key; attribute: string; delta: number } | undefined {
  if (write.SpreadAdd) return write.SpreadAdd;
  const update = write.Update;
  if (update?.UpdateExpression !== PLAIN_ADD || update.ConditionExpression !== undefined) return undefined;
  const attribute = update.ExpressionAttributeNames?.["#added"];
  const delta = update.ExpressionAttributeValues?.[":delta"];
  if (typeof attribute !== "string" || typeof delta !== "number") return undefined;
  return { Key: { pk: String(update.Key?.pk), sk: String(update.Key?.sk) }, attribute, delta };
}

/**
 * Count changes merged per count: one transaction may not touch one item twice, so the changes a
 * move gathers for one count (an issue leaving the queue while its dependent joins it, two
 * dispatches of one agent ended by one merged fix) become their sum, and a sum of zero no change.
 * Spread counts and {@link plainAddition}s are merged; other items keep their place, first changes first.
 * @example mergeCountChanges([countChange("queue.depth", -1), countChange("queue.depth", 1)]) // []
 */
export function mergeCountChanges(writes: TransactItem[]): TransactItem[] {
  const sums = new Map<string, number>();
  const idOf = (write: TransactItem, addition: { Key: Key; attribute: string }) =>
    `${write.SpreadAdd ? "spread" : "plain"}\u0000${addition.Key.pk}\u0000${addition.Key.sk}\u0000${addition.attribute}`;
  for (const write of writes) {
    const addition = additionOf(write);
    if (addition) sums.set(idOf(write, addition), (sums.get(idOf(write, addition)) ?? 0) + addition.delta);
  }
  const merged: TransactItem[] = [];
  for (const write of writes) {
    const addition = additionOf(write);
    if (!addition) {
      merged.push(write);
      continue;
    }
    const id = idOf(write, addition);
    const delta = sums.get(id);
    if (delta === undefined) continue;
    sums.delete(id);
    if (delta === 0) continue;
    merged.push(
      write.SpreadAdd
        ? { SpreadAdd: { ...write.SpreadAdd, delta } }
        : plainAddition(addition.Key, addition.attribute, delta),
    );
  }
  return merged;
}

/** Every count's total now, by its name (`issue.status#todo`, `queue.depth`, …): one query, whatever the number of issues. */
export async function readCounts(db: Db): Promise<Map<string, number>> {
  const items = await db.queryPartition(STATS);
  return new Map(sumSpreadCounts(items, "count").map(({ sk, total }) => [sk, total]));
}
