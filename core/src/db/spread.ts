/**
 * @module db/spread — counts that many writers add to at once, spread over several items.
 *
 * A count that every write of a kind touches (a listing's count for the current hour, say) is a
 * hot item: on AWS two transactions that hold it at once conflict, so a burst of writers would
 * take turns. A spread count is one logical count kept in up to {@link SPREAD_SHARDS} items:
 * the base item (`sk` as given) and shards (`sk~01` … `sk~31`), each holding part of the sum.
 * Readers add them up in the same query (the shards sort right after their base item). Writers
 * add to the base item while it is quiet; once a transaction has conflicted on a count, this
 * process writes that count to a random shard for a while, and a transaction cancelled only by
 * conflicts on spread counts is sent again at once with other shards (see `Db.transactWrite`).
 * So quiet counts stay one item each, and a burst spreads exactly where it lands.
 */
import type { Key } from "./client.js";

/** Items one spread count may use: the base item and 31 shards. */
export const SPREAD_SHARDS = 32;
/** Separates a shard number from its count's sort key; sorts after every digit and `#`. */
const SHARD_MARK = "~";
/** How long a count that conflicted stays spread in this process. */
const HOT_MS = 60_000;
const MAX_REMEMBERED = 10_000;

/** Adds `delta` to the spread count at `Key` (a transaction item; the client picks the shard). */
export interface SpreadAddition {
  Key: Key;
  attribute: string;
  delta: number;
}

/** The item of shard `shard` of the spread count at `base` (shard 0 is the base item itself). */
export function spreadShardKey(base: Key, shard: number): Key {
  return shard === 0 ? base : { pk: base.pk, sk: `${base.sk}${SHARD_MARK}${String(shard).padStart(2, "0")}` };
}

/** The count a shard item belongs to: its sort key without the shard suffix. */
export function spreadBaseSortKey(sk: string): string {
  const mark = sk.lastIndexOf(SHARD_MARK);
  return mark < 0 ? sk : sk.slice(0, mark);
}

/**
 * Sums the items of spread counts (as one query returns them, in sort-key order) into one total
 * per count, keyed and ordered by the counts' sort keys.
 */
export function sumSpreadCounts(items: Record<string, unknown>[], attribute: string): { sk: string; total: number }[] {
  const totals: { sk: string; total: number }[] = [];
  for (const item of items) {
    const sk = spreadBaseSortKey(String(item.sk));
    const value = Number(item[attribute] ?? 0);
    const last = totals[totals.length - 1];
    if (last && last.sk === sk) last.total += value;
    else totals.push({ sk, total: value });
  }
  return totals;
}

/** Counts that conflicted lately in this process, and until when they stay spread. */
const hotUntil = new Map<string, number>();

function countId(key: Key): string {
  return `${key.pk}\u0000${key.sk}`;
}

function isHot(key: Key, now: number): boolean {
  const until = hotUntil.get(countId(key));
  return until !== undefined && until > now;
}

function markHot(key: Key, now: number): void {
  if (hotUntil.size >= MAX_REMEMBERED) {
    for (const [id, until] of hotUntil) if (until <= now) hotUntil.delete(id);
    if (hotUntil.size >= MAX_REMEMBERED) hotUntil.clear();
  }
  hotUntil.set(countId(key), now + HOT_MS);
}

/**
 * The shards one transaction's spread additions use, attempt by attempt: the base item for a
 * quiet count, one random shard (shared by the transaction's hot counts) otherwise.
 */
export class ShardChoice {
  private shard = 0;

  constructor(
    private readonly additions: (SpreadAddition | undefined)[],
    private readonly random: () => number = Math.random,
  ) {
    if (additions.some((addition) => addition && isHot(addition.Key, Date.now()))) this.pickShard();
  }

  /** The item each addition writes in this attempt (undefined where the item is not a spread count). */
  keys(): (Key | undefined)[] {
    const now = Date.now();
    return this.additions.map((addition) => {
      if (!addition) return undefined;
      return spreadShardKey(addition.Key, isHot(addition.Key, now) ? this.shard : 0);
    });
  }

  /**
   * After a cancellation with conflicts (`reasons`, per item): marks the spread counts among them
   * hot and, when the conflicts fell on spread counts only, picks another shard and answers true.
   * False when another kind of item conflicted too: that is the caller's race to retry.
   */
  retryAfter(reasons: (string | undefined)[]): boolean {
    const conflicted = reasons.flatMap((reason, index) => (reason === "TransactionConflict" ? [index] : []));
    const now = Date.now();
    for (const index of conflicted) {
      const addition = this.additions[index];
      if (addition) markHot(addition.Key, now);
    }
    if (conflicted.length === 0 || conflicted.some((index) => !this.additions[index])) return false;
    this.pickShard();
    return true;
  }

  private pickShard(): void {
    const previous = this.shard;
    do this.shard = Math.floor(this.random() * SPREAD_SHARDS);
    while (this.shard === previous);
  }
}
