/**
 * @module db/spread — counts that many writers add to at once, spread over several items.
 *
 * A count that every write of a kind touches (a listing's count for the current hour, say) is a
 * hot item: on AWS two transactions that hold it at once conflict, so a burst of writers would
 * take turns. A spread count is one logical count kept in up to {@link SPREAD_SHARDS} items:
 * the base item (`sk` as given) and shards (`sk~01` … `sk~63`), each holding part of the sum.
 * Readers add them up in the same query (the shards sort right after their base item). Writers
 * add to the base item while it is quiet; once a transaction has conflicted on a count, this
 * process writes that count to a random shard for a while, and a transaction cancelled only by
 * conflicts on spread counts is sent again at once with other shards (see `Db.transactWrite`).
 * So quiet counts stay one item each, and a burst spreads exactly where it lands. Checks that
 * every writer of a kind makes on one guard item are spread the same way ({@link SpreadCheck}).
 */
import type { Key } from "./item.js";

/** Items one spread count may use: the base item and 63 shards. */
export const SPREAD_SHARDS = 64;
/** Separates a shard number from its count's sort key; sorts after every digit and `#`. */
const SHARD_MARK = "~";
/** How long a count that conflicted stays spread in this process. */
const HOT_MS = 60_000;
const MAX_REMEMBERED = 10_000;
/** How long a transaction waits, at most, for a shard while this process writes all of them. */
export const SHARD_WAIT_MS = 2_000;

/** A condition expression with its names and values. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/**
 * A check that every writer of a kind makes (a label still exists and no delete is counting its
 * uses), spread the same way: the guard is kept on the base item and on each shard, and the
 * client checks one of them. Whoever changes the guard (a delete's fence) writes every shard in
 * one transaction: {@link spreadShardKeys}.
 */
export interface SpreadCheck {
  Key: Key;
  /** The condition on the base item. */
  base: Condition;
  /** The condition on a shard item (absent until a guard change first writes it). */
  shard: Condition;
}

/** Every shard of the spread item at `base` but the base itself. */
export function spreadShardKeys(base: Key): Key[] {
  return Array.from({ length: SPREAD_SHARDS - 1 }, (_, i) => spreadShardKey(base, i + 1));
}

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
 * per count, in the order their first items came (a count's base item sorts before its shards).
 */
export function sumSpreadCounts(items: Record<string, unknown>[], attribute: string): { sk: string; total: number }[] {
  // By base key, not by position: a count whose sort key extends another's (`cost` and
  // `cost-reported`) sorts between that one's base item and its shards (`cost~01`).
  const totals = new Map<string, number>();
  for (const item of items) {
    const sk = spreadBaseSortKey(String(item.sk));
    totals.set(sk, (totals.get(sk) ?? 0) + Number(item[attribute] ?? 0));
  }
  return [...totals].map(([sk, total]) => ({ sk, total }));
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

/** Shards of each hot count that this process's transactions are writing right now, with how many. */
const writing = new Map<string, Map<number, number>>();

function beginWriting(id: string, shard: number): void {
  const shards = writing.get(id) ?? new Map<number, number>();
  shards.set(shard, (shards.get(shard) ?? 0) + 1);
  writing.set(id, shards);
}

/** Attempts waiting for a shard of this process to be released: woken at the next release. */
let released: (() => void)[] = [];

function endWriting(id: string, shard: number): void {
  const waiting = released;
  released = [];
  for (const wake of waiting) wake();
  const shards = writing.get(id);
  const left = (shards?.get(shard) ?? 1) - 1;
  if (left > 0) shards?.set(shard, left);
  else shards?.delete(shard);
  if (shards?.size === 0) writing.delete(id);
}

/**
 * The shards one transaction's spread counts and checks use, attempt by attempt: the base item for a
 * quiet count; for hot ones, one shard shared by the transaction, chosen at random among those
 * no other transaction of this process is writing (a process never sends two of its own
 * transactions at the same shard; across processes, randomness spreads them).
 */
export class ShardChoice {
  private shard = 0;

  /** `spread`: per transaction item, the base key of its spread count or check, if it is one. */
  constructor(
    private readonly spread: (Key | undefined)[],
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * One attempt: the item each spread count or check uses (undefined where the transaction item
   * is not spread), and `release`, to call once the attempt's answer is in.
   */
  attempt(): { keys: (Key | undefined)[]; release: () => void } {
    const now = Date.now();
    const hot = this.spread.map((key) => (key && isHot(key, now) ? countId(key) : undefined));
    const hotIds = [...new Set(hot.filter((id): id is string => id !== undefined))];
    if (hotIds.length > 0) this.shard = this.freeShard(hotIds);
    const shard = this.shard;
    for (const id of hotIds) beginWriting(id, shard);
    return {
      keys: this.spread.map((key, index) =>
        key ? spreadShardKey(key, hot[index] !== undefined ? shard : 0) : undefined,
      ),
      release: () => {
        for (const id of hotIds) endWriting(id, shard);
      },
    };
  }

  /**
   * After a cancellation with conflicts (`reasons`, per item): marks the spread counts among them
   * hot (the next attempt spreads them) and answers whether the conflicts fell on spread counts
   * only. False when another kind of item conflicted too: that is the caller's race to retry.
   */
  retryAfter(reasons: (string | undefined)[]): boolean {
    const conflicted = reasons.flatMap((reason, index) => (reason === "TransactionConflict" ? [index] : []));
    const now = Date.now();
    for (const index of conflicted) {
      const key = this.spread[index];
      if (key) markHot(key, now);
    }
    return conflicted.length > 0 && conflicted.every((index) => this.spread[index] !== undefined);
  }

  /**
   * Undefined when the next attempt can have a shard this process is not writing (or spreads
   * nothing); else a wait until one is released, or {@link SHARD_WAIT_MS} passed: while this
   * process writes every shard of a hot count, another attempt would surely conflict.
   */
  shardReleased(): Promise<void> | undefined {
    const now = Date.now();
    const hotIds = [...new Set(this.spread.flatMap((key) => (key && isHot(key, now) ? [countId(key)] : [])))];
    if (hotIds.length === 0 || this.freeShards(hotIds).length > 0) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SHARD_WAIT_MS);
      released.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** A random shard other than the last one tried, preferring those this process is not writing. */
  private freeShard(ids: string[]): number {
    const free = this.freeShards(ids);
    const pool = free.length > 0 ? free : Array.from({ length: SPREAD_SHARDS }, (_, shard) => shard);
    return pool[Math.floor(this.random() * pool.length)] ?? 0;
  }

  /** The shards of the counts `ids` that no transaction of this process is writing, but the last one tried. */
  private freeShards(ids: string[]): number[] {
    const busy = new Set<number>([this.shard]);
    for (const id of ids) for (const shard of writing.get(id)?.keys() ?? []) busy.add(shard);
    return Array.from({ length: SPREAD_SHARDS }, (_, shard) => shard).filter((shard) => !busy.has(shard));
  }
}
