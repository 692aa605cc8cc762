/**
 * @module templates/experiment-counts — the counts kept beside each experiment, per arm
 * (docs/api.md#experiments): claims, finished dispatches and how they ended, reviews and the sums their score
 * intervals need, reported costs likewise. This module is their one writer: a claim, a dispatch's
 * end and a review ask it for the writes of their own transactions, so each is counted exactly
 * once, when it happens. Spread counts (db/spread.ts): a burst of claims in one arm does not take
 * turns. Kept apart from the stores so that whoever ends a dispatch does not carry them.
 */
import type { TransactItem } from "../db/db.js";
import type { OutcomeCount } from "../issues/outcomes.js";
import type { ReportedCost } from "../stats/usage-stats.js";
import { type ArmCount, armCountKey, type ExperimentArm } from "./keys.js";

/** The experiment and arm a prompt was rendered in (docs/api.md#experiments), as the prompt records it. */
export interface PromptArm {
  id: string;
  arm: ExperimentArm;
}

/** Which experiment, and which of its arms, a count is of. */
export interface ArmRef {
  templateId: string;
  experimentId: string;
  arm: ExperimentArm;
}

function addition(ref: ArmRef, count: ArmCount, delta = 1): TransactItem {
  return {
    SpreadAdd: { Key: armCountKey(ref.templateId, ref.experimentId, ref.arm, count), attribute: "count", delta },
  };
}

/** One more claim in the arm. */
export function armClaimAddition(ref: ArmRef): TransactItem {
  return addition(ref, "claims");
}

/** A dispatch of the arm ended: finished, and completed or failed as it ended; its reported cost, if any. */
export function armOutcomeAdditions(
  ref: ArmRef,
  status: "completed" | "failed" | "released" | "expired" | "stopped",
  usage: ReportedCost | null,
): TransactItem[] {
  const items = [addition(ref, "finished")];
  if (status === "completed" || status === "failed") items.push(addition(ref, status));
  const cost = usage?.costUsd;
  if (cost !== null && cost !== undefined) {
    items.push(addition(ref, "cost-reports"));
    if (cost > 0) items.push(addition(ref, "cost", cost), addition(ref, "cost-sq", cost * cost));
  }
  return items;
}

/** A review of a prompt of the arm: its ratings' sum (3 × its composite) and that sum squared. */
export function armReviewAdditions(
  ref: ArmRef,
  review: { clarity: number; completeness: number; relevance: number },
): TransactItem[] {
  const ratings = review.clarity + review.completeness + review.relevance;
  return [addition(ref, "reviews"), addition(ref, "ratings", ratings), addition(ref, "ratings-sq", ratings * ratings)];
}

/** What became of an arm's dispatch's work, once each (docs/api.md#outcomes). */
export function armOutcomeCountAdditions(ref: ArmRef, counted: OutcomeCount[]): TransactItem[] {
  return counted.map((count) => addition(ref, count));
}
