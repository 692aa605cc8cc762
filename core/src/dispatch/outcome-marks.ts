/**
 * @module dispatch/outcome-marks — what becomes of a completed dispatch's work after its completion
 * (docs/api.md#outcomes), as pure functions: review sending it back, its pull request merging, and
 * the watch of the merged fix ending verified or regressed. Each mark changes the dispatch's
 * `outcome` once and names the outcome counts it adds (to its template version, its experiment arm
 * and its agent's day); a mark that changes nothing counts nothing, so a redelivered event never
 * counts twice.
 */
import type { OutcomeCount, OutcomeMark } from "../issues/outcomes.js";
import { storedWork } from "../issues/stored-work.js";
import type { DispatchOutcome, ReportedOutcome } from "./schemas.js";

/** The outcome of a dispatch that just completed with what its agent reported. */
export function reportedOutcome(reported: ReportedOutcome): DispatchOutcome {
  return { ...reported, reviewRounds: 0, verification: null };
}

/**
 * The outcome after `mark`, and what it counts; null when the mark changes nothing:
 * - reworked: one more review round; counted the first time only (reworked means sent back at least once);
 * - merged: the watch starts; a dispatch is charged with its first merge only, so a later merge of
 *   the same work (a person merging again after a regression) leaves its outcome as it was;
 * - regressed, verified: the pending watch begun at `mergedAt` ends so; any other watch is left alone.
 * @example markOutcome(completed, { kind: "reworked" }) // { outcome: { …, reviewRounds: 1 }, counted: ["reworked"] }
 */
export function markOutcome(
  outcome: DispatchOutcome,
  mark: OutcomeMark,
): { outcome: DispatchOutcome; counted: OutcomeCount[] } | null {
  const watch = outcome.verification;
  switch (mark.kind) {
    case "reworked":
      return {
        outcome: { ...outcome, reviewRounds: outcome.reviewRounds + 1 },
        counted: outcome.reviewRounds === 0 ? ["reworked"] : [],
      };
    case "merged":
      if (watch) return null;
      return { outcome: { ...outcome, verification: mark.verification }, counted: ["merged"] };
    case "regressed":
      if (watch?.status !== "pending" || watch.mergedAt !== mark.mergedAt) return null;
      return {
        outcome: {
          ...outcome,
          verification: { ...watch, status: "regressed", regressedAt: mark.regressedAt, signalId: mark.signalId },
        },
        counted: ["regressed"],
      };
    case "verified":
      if (watch?.status !== "pending" || watch.mergedAt !== mark.mergedAt) return null;
      return { outcome: { ...outcome, verification: { ...watch, status: "verified" } }, counted: ["verified"] };
  }
}

/**
 * A stored outcome as the API shows it: outcomes kept before review and verification read as none
 * yet, and its commits, pull requests and verification as the are read (../issues/stored-work.ts).
 */
export function storedOutcome(value: unknown): DispatchOutcome | null {
  if (typeof value !== "object" || !value) return null;
  const outcome = value as Partial<DispatchOutcome> & ReportedOutcome;
  return {
    ...outcome,
    // Its watch's mergedAt is compared with the issue's, read the same way, to charge a regression or a verification.
    ...storedWork(outcome),
    reviewRounds: Number(outcome.reviewRounds ?? 0),
  };
}
