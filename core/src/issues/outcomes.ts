/**
 * @module issues/outcomes — the words for what becomes of an agent's work after its completion
 * (docs/api.md#outcomes): the marks an issue's moves put on the dispatch whose work they judge, and
 * the outcome counts those marks add. Issues say what happened; the dispatch domain keeps it
 * (dispatch/outcome-marks.ts).
 */
import type { Verification } from "./schemas.js";

/** The outcomes counted per template version, experiment arm and agent, besides completions. */
export const OUTCOME_COUNTS = ["merged", "reworked", "regressed", "verified"] as const;
export type OutcomeCount = (typeof OUTCOME_COUNTS)[number];

/** verified ÷ (verified + regressed) (docs/api.md#outcomes); null before either. */
export function verifiedRate(verified: number, regressed: number): number | null {
  return verified + regressed > 0 ? verified / (verified + regressed) : null;
}

/** What happened to a dispatch's work. */
export type OutcomeMark =
  /** A review sent it back (changes requested, a failed check, the pull request closed unmerged). */
  | { kind: "reworked" }
  /** Its pull request merged: the fix is watched as `verification` says (pending). */
  | { kind: "merged"; verification: Verification }
  /** The problem came back within the watch that began at `mergedAt`. */
  | { kind: "regressed"; mergedAt: string; regressedAt: string; signalId: string | null }
  /** The watch that began at `mergedAt` ended quiet. */
  | { kind: "verified"; mergedAt: string };
