/**
 * @module issues/verification-watch — the merged fixes being watched, by when their windows end
 * (docs/api.md#verification): one entry per issue whose `verification` is pending, written and
 * removed by the move that starts or ends the watch (in that move's transaction), and read by the
 * sweep that marks quiet windows verified (issues/verification-sweep.ts).
 */
import type { Db, TransactItem } from "../db/db.js";
import { VERIFY_WATCH_PARTITION, verifyWatchKey } from "./keys.js";
import type { Verification } from "./schemas.js";

/** A watched fix whose window has ended: the issue and when its window ended. */
export interface DueWatch {
  issueId: string;
  until: string;
}

/**
 * The writes that keep an issue's watch entry in step with its verification: the entry of a
 * pending watch that ends or changes goes, the entry of a pending watch that starts comes.
 * `after` undefined: the issue is deleted.
 */
export function verificationWatchChanges(
  issueId: string,
  before: Verification | null,
  after: Verification | null | undefined,
): TransactItem[] {
  const was = before?.status === "pending" ? before.until : null;
  const now = after?.status === "pending" ? after.until : null;
  if (was === now) return [];
  const writes: TransactItem[] = [];
  if (was) writes.push({ Delete: { Key: verifyWatchKey(was, issueId) } });
  if (now) writes.push({ Put: { Item: { ...verifyWatchKey(now, issueId), issueId, until: now } } });
  return writes;
}

/** Reads the watches whose windows have ended. */
export class VerificationWatch {
  constructor(private readonly db: Db) {}

  /** Up to `limit` watches whose window ended before `now`, the oldest first (one strongly consistent query). */
  async dueBy(now: string, limit: number): Promise<DueWatch[]> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk < :now",
      ExpressionAttributeValues: { ":pk": VERIFY_WATCH_PARTITION, ":now": now },
      ConsistentRead: true,
      Limit: limit,
    });
    return (out.Items ?? []).map((item) => ({ issueId: String(item.issueId), until: String(item.until) }));
  }

  /** Removes an entry whose issue no longer watches that window (deleted, or moved on meanwhile). */
  async drop(entry: DueWatch): Promise<void> {
    await this.db.delete(verifyWatchKey(entry.until, entry.issueId));
  }
}
