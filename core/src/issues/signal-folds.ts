/**
 * @module issues/signal-folds — folding the signals that wait beside an issue into it: the delivery
 * whose signal is the oldest waiting folds, the others wait their turn, across processes too.
 * The writes are ./signal-grouping.ts's; the store (./issue-store.ts) runs the folds.
 */
import type { Db } from "../db/db.js";
import { ConditionFailedError, TransactionConflictError } from "../db/db.js";
import { InFlight } from "../db/in-flight.js";
import type { DispatchQueue } from "./dispatch-queue.js";
import { fromItem, type RecentSignal } from "./issue-item.js";
import { ISSUE_ENTITY, issueKey, PENDING_SIGNAL_PREFIX, pendingSignalKey } from "./keys.js";
import { foldWrites, moveWrites } from "./signal-grouping.js";

/** Pending signals one fold takes: with the issue item, half a transaction's limit. */
const FOLDED_AT_ONCE = 49;
/** How long a delivery keeps folding before it leaves its signal to the next fold. */
const FOLD_BUDGET_MS = 5_000;
/**
 * How long a delivery whose signal waits behind others reads again (about one transaction's time
 * at first, then growing to {@link FOLD_WAIT_CAP_MS}, with jitter).
 */
const FOLD_WAIT_MS = 20;
const FOLD_WAIT_CAP_MS = 120;
/** How long the oldest waiting signal may stay the oldest before another delivery folds it. */
const FOLD_STALL_MS = 1_000;

function foldWait(waits: number): number {
  return Math.min(FOLD_WAIT_MS * 1.5 ** (waits - 1), FOLD_WAIT_CAP_MS) * (0.5 + Math.random());
}

/** What one fold did: the issue is gone, or these signals were folded (or moved on to `movedTo`). */
interface FoldRound {
  gone: boolean;
  folded: string[];
  /** The issue was merged into this one: the signals waiting beside it now wait beside that one. */
  movedTo?: string;
}

export class SignalFolds {
  /** Folds of pending signals running in this process, by issue. */
  private readonly folds = new InFlight();

  constructor(
    private readonly db: Db,
    /** The queue a fold that changes a queued issue's impact moves it in. */
    private readonly queue: DispatchQueue,
  ) {}

  /**
   * Folds the signals waiting in the issue's partition into its item until the signal `signalId`
   * is folded: `signalCount` and `version` go up by their number, they join the latest ten, and
   * their items are deleted under the condition that they still exist, so each is counted once
   * however many fold at once. Folds take turns without meeting, across processes too: the
   * delivery whose signal is the oldest waiting folds (everything waiting by then, up to a
   * transaction's worth), and the others read where the oldest stands until theirs is folded or
   * is the oldest. One whose oldest has not moved for {@link FOLD_STALL_MS} (its delivery died)
   * folds in its place, and goes on folding until its own is in. In one process, a fold of the issue under way is joined. Resolves true
   * once the signal is folded, false when the issue is gone or `budgetMs` passed (the signal stays
   * waiting and the next fold takes it).
   */
  async foldPendingSignals(issueId: string, signalId: string, budgetMs = FOLD_BUDGET_MS): Promise<boolean> {
    const deadline = Date.now() + budgetMs;
    const own = pendingSignalKey(issueId, signalId).sk;
    let stall = { oldest: "", since: Date.now() };
    // Once it has folded, a delivery goes on folding until its own signal is in.
    let folding = false;
    for (let waits = 0; ; ) {
      const joined = this.folds.pending(issueId) as Promise<FoldRound> | undefined;
      if (joined) {
        const round = await joined.catch(() => undefined);
        if (round?.folded.includes(signalId)) return true;
      }
      const oldest = await this.oldestPendingSignal(issueId);
      // Waiting signals sort by id: none at or before this one means it was folded.
      if (oldest === undefined || oldest > own) return true;
      if (oldest !== stall.oldest) stall = { oldest, since: Date.now() };
      if (folding || oldest === own || Date.now() - stall.since >= FOLD_STALL_MS) {
        try {
          const round = await this.folds.run(issueId, () => this.foldRound(issueId));
          if (round.gone) return false;
          if (round.movedTo && round.folded.includes(signalId)) {
            // Merged meanwhile: the signal is folded into the issue that stays, as if it had gone there.
            return this.foldPendingSignals(round.movedTo, signalId, Math.max(0, deadline - Date.now()));
          }
          if (round.folded.includes(signalId)) return true;
          // Folded the oldest transaction's worth, not this one yet: it folds the next as well.
          folding = round.folded.length > 0;
          waits = 0;
          continue;
        } catch (error) {
          if (!(error instanceof TransactionConflictError || error instanceof ConditionFailedError)) throw error;
        }
      }
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, foldWait(++waits)));
    }
  }

  /** The sort key of the issue's oldest waiting signal, or undefined when none waits. */
  private async oldestPendingSignal(issueId: string): Promise<string | undefined> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": issueKey(issueId).pk, ":sk": PENDING_SIGNAL_PREFIX },
      ConsistentRead: true,
      Limit: 1,
      ProjectionExpression: "sk",
    });
    const sk = out.Items?.[0]?.sk;
    return sk === undefined ? undefined : String(sk);
  }

  /** One fold: reads the issue and its oldest waiting signals, and folds those it read into it. */
  private async foldRound(issueId: string): Promise<FoldRound> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": issueKey(issueId).pk, ":sk": ISSUE_ENTITY },
      ConsistentRead: true,
      Limit: FOLDED_AT_ONCE + 1,
    });
    const [head, ...rest] = out.Items ?? [];
    if (!head || head.sk !== ISSUE_ENTITY || head.deletedAt) return { gone: true, folded: [] };
    const pending = rest.filter((item) => String(item.sk).startsWith(PENDING_SIGNAL_PREFIX));
    if (pending.length === 0) return { gone: false, folded: [] };
    const folded = pending.map((item) => String((item.signal as RecentSignal).id));
    const current = fromItem(head);
    if (current.mergedInto) {
      // Merged into another issue after these signals were left beside it: they move beside that one.
      await this.db.transactWrite(moveWrites(current.mergedInto, pending));
      return { gone: false, folded, movedTo: current.mergedInto };
    }
    await this.db.transactWrite(foldWrites(current, pending, this.queue));
    return { gone: false, folded };
  }
}
