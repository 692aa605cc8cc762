/**
 * @module dispatch/claimers — the claims under way on each queue listing: a claimer enters before
 * it reads the queue, counts the ones that began before it, goes that many places down the queue,
 * and leaves in its claim's transaction (or at once when it took nothing). Keys: ./keys.ts.
 */
import type { Db, TransactItem } from "../db/db.js";
import { claimerIdFloor, claimerKey, claimersPartition } from "./keys.js";

/** How long a claimer entry left behind stays before DynamoDB's TTL removes it (it counts for nothing long before). */
const CLAIMER_KEPT_SECONDS = 3_600;

export class Claimers {
  constructor(private readonly db: Db) {}

  /**
   * Enters a claim under way on queue listing `listing`. Claimers count the ones that began before
   * them ({@link Claimers.claimersAhead}) and each goes that many places down the queue, so claims made at
   * once take different issues without taking turns and without trying one issue after another.
   */
  async enterClaimer(listing: string, claimerId: string, now: Date): Promise<void> {
    await this.db.put({
      Item: {
        ...claimerKey(listing, claimerId),
        expiresAt: Math.ceil(now.getTime() / 1000) + CLAIMER_KEPT_SECONDS,
      },
    });
  }

  /**
   * How many claims on `listing` began after `since` and before `claimerId`, not ended yet (one
   * read). A claimer's id is a ULID, so its key says when it began: one older than `since` gave
   * up or died, and counts for nothing. A claimer that began before `since` itself (a claim whose
   * transactions took long) has none ahead that still count: 0, without a read.
   */
  async claimersAhead(listing: string, claimerId: string, since: Date): Promise<number> {
    const floor = claimerIdFloor(since);
    if (floor > claimerId) return 0;
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :since AND :me",
      ExpressionAttributeValues: {
        ":pk": claimersPartition(listing),
        ":since": floor,
        ":me": claimerId,
      },
      ConsistentRead: true,
      Select: "COUNT",
    });
    // BETWEEN includes the claimer's own entry.
    return Math.max(0, (out.Count ?? 0) - 1);
  }

  /** The write that ends a claimer's entry, in its claim's transaction. */
  claimerEnd(listing: string, claimerId: string): TransactItem {
    return { Delete: { Key: claimerKey(listing, claimerId) } };
  }

  /** Ends a claimer's entry when its claim took nothing. */
  async leaveClaimers(listing: string, claimerId: string): Promise<void> {
    await this.db.delete(claimerKey(listing, claimerId));
  }
}
