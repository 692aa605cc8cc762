/**
 * @module issues/signal-links — linking grouped signals to their issue (docs/api.md#what-a-signal-does):
 * in place with commutative writes, or beside the issue to be folded in (a storm, or a signal that
 * moves a queued issue's place), or as a move when it changes the issue's status or priority. Only
 * the signal side needs it: the claim path carries none of it. The writes are ./signal-grouping.ts's
 * and the folds ./signal-folds.ts's.
 */
import type { Db, TransactItem } from "../db/db.js";
import type { DispatchQueue } from "./dispatch-queue.js";
import type { NewIssue, RecentSignal, StoredIssue } from "./issue-item.js";
import type { IssueMove, IssueMoves } from "./issue-moves.js";
import type { IssueStore } from "./issue-store.js";
import { SignalFolds } from "./signal-folds.js";
import { groupingWrites, movesInQueue, pendingSignalWrite } from "./signal-grouping.js";

export class SignalLinks {
  private readonly folds: SignalFolds;

  constructor(
    db: Db,
    private readonly store: IssueStore,
    private readonly moves: IssueMoves,
    /** The queue a fold that changes a queued issue's impact moves it in. */
    queue: DispatchQueue,
  ) {
    this.folds = new SignalFolds(db, queue);
  }

  /** A live issue by id as a signal to be linked to it finds it (with `signalsWaiting`), or undefined. */
  findForSignal(id: string): Promise<StoredIssue | undefined> {
    return this.store.getForSignal(id);
  }

  /**
   * The writes that link a grouped signal to `current`, for the signal's own transaction. A plain
   * grouping is a commutative update of the issue item, and `whenHeld` the write that replaces it
   * while another transaction holds that item (a storm into one issue): the signal waits beside
   * the issue until a fold adds it ({@link SignalLinks.foldPendingSignals}). One that also moves the
   * issue (a close or reopen event, a risen priority, its project's automation) is written at the
   * version read, with what the move does to the issues it blocks. One that only moves a queued
   * issue's place (its impact bonus changes, docs/api.md#score) always waits beside it (`fold`): the
   * fold moves the place, and a storm's deliveries take turns at it instead of meeting on the item.
   */
  async linkSignal(
    current: StoredIssue,
    changes: Partial<NewIssue>,
    signal: RecentSignal,
    by: "signal" | "automation" = "signal",
    outcome?: IssueMove["outcome"],
  ): Promise<{ stored: StoredIssue; writes: TransactItem[]; whenHeld?: TransactItem[]; fold?: boolean }> {
    const moves = Object.keys(changes).some((field) => field !== "signalCount" && field !== "lastSignalAt");
    const waiting = [this.preparePendingSignal(current.issue.id, signal)];
    if (!moves && movesInQueue(current, 1)) {
      const issue = { ...current.issue, ...changes };
      return { stored: { ...current, issue }, writes: waiting, whenHeld: waiting, fold: true };
    }
    const inPlace = moves ? undefined : this.prepareGrouping(current, signal);
    if (inPlace) return { ...inPlace, whenHeld: waiting };
    const { stored, writes } = await this.moves.prepare(
      {
        current,
        changes,
        by,
        internals: { recentSignals: [signal, ...current.recentSignals] },
        ...(outcome ? { outcome } : {}),
      },
      new Date(signal.receivedAt),
    );
    if (!stored) throw new Error("A grouped signal never deletes its issue");
    return { stored, writes };
  }

  /**
   * The write that links one more signal to `current` without reading it again (commutative: see
   * ./signal-grouping.ts); undefined for an item whose recent signals are not a map, or whose place
   * in the queue the signal would move.
   */
  prepareGrouping(
    current: StoredIssue,
    signal: RecentSignal,
  ): { stored: StoredIssue; writes: TransactItem[] } | undefined {
    return groupingWrites(current, signal);
  }

  /**
   * The write that links one more signal to an issue without holding the issue item: it waits in
   * the issue's partition until {@link SignalLinks.foldPendingSignals} folds it in.
   */
  preparePendingSignal(issueId: string, signal: RecentSignal): TransactItem {
    return pendingSignalWrite(issueId, signal);
  }

  /**
   * Folds the signals waiting beside issue `issueId` until signal `signalId` is in: true once it
   * is, false when the issue is gone or `budgetMs` passed (./signal-folds.ts).
   */
  foldPendingSignals(issueId: string, signalId: string, budgetMs?: number): Promise<boolean> {
    return this.folds.foldPendingSignals(issueId, signalId, budgetMs);
  }
}
