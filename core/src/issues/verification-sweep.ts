/**
 * @module issues/verification-sweep — the end of quiet watches (docs/api.md#verification): a merged fix
 * whose window passed with no regression, its issue still `done`, becomes `verified`, on the issue and on the dispatch whose
 * pull request merged (with its outcome counts), in one transaction per issue, and the change
 * stream sends `issue.verified`. Deployed, a schedule runs it every minute (functions/sweeps.ts);
 * locally, the local stack does (infra/local/sweeps.ts). Sweeps at once never verify an issue
 * twice: each move is conditioned on the issue as read.
 */
import type { Db } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError } from "../errors.js";
import type { IssueMoves } from "./issue-moves.js";
import type { IssueStore } from "./issue-store.js";
import type { VerificationWatch } from "./verification-watch.js";

/** Watches one sweep ends at most (the rest wait for the next). */
export const VERIFICATIONS_PER_SWEEP = 25;

export class VerificationSweep {
  constructor(
    private readonly db: Db,
    private readonly store: Pick<IssueStore, "get">,
    private readonly moves: IssueMoves,
    private readonly watch: VerificationWatch,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Ends up to {@link VERIFICATIONS_PER_SWEEP} watches whose window has passed; how many it found
   * due (a full batch: more may wait).
   */
  async sweep(): Promise<number> {
    const now = this.now();
    const due = await this.watch.dueBy(now.toISOString(), VERIFICATIONS_PER_SWEEP);
    for (const entry of due) {
      try {
        await retryRaces(async () => {
          const current = await this.store.get(entry.issueId);
          const watched = current?.issue.verification;
          if (!current || watched?.status !== "pending" || watched.until !== entry.until) {
            // Its issue is gone or moved on (a regression removes the entry in its own move).
            await this.watch.drop(entry);
            return;
          }
          if (current.issue.status !== "done") {
            // A person reopened it within the window: the fix is not verified (nor charged as regressed).
            await this.watch.drop(entry);
            return;
          }
          const { writes } = await this.moves.prepare(
            {
              current,
              by: "signal",
              changes: { verification: { ...watched, status: "verified" } },
              recordAs: "issue.verified",
              ...(watched.dispatchId
                ? {
                    outcome: { dispatchId: watched.dispatchId, mark: { kind: "verified", mergedAt: watched.mergedAt } },
                  }
                : {}),
            },
            now,
          );
          await this.db.transactWrite(writes);
        });
      } catch (error) {
        // Another sweep or a regression ended it meanwhile: nothing left to do.
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    return due.length;
  }
}
