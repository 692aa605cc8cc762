/**
 * @module issues/scoring — the claim order of docs/api.md#score as pure functions: an issue's score
 * at an instant, its breakdown, and the queue sort key that orders issues exactly as the score
 * does at every instant (the age term grows alike for all, so it cancels out of comparisons).
 */
import type { IssueType, ScoreBreakdown } from "./schemas.js";

export const PRIORITY_WEIGHT: Readonly<Record<number, number>> = { 1: 100, 2: 75, 3: 50, 4: 25, 0: 10 };
export const TYPE_BONUS: Readonly<Record<IssueType, number>> = {
  signal: 50,
  hypothesis: 40,
  plan: 30,
  task: 20,
  monitor: 10,
};
export const GOAL_BONUS = 20;
/** The impact bonus per doubling of an issue's signals, and its most. */
export const IMPACT_STEP = 10;
export const IMPACT_MAX = 50;
const DAY_MS = 86_400_000;

/** What the score reads of an issue. */
export interface Scored {
  priority: number;
  type: IssueType;
  createdAt: string;
  number: number;
  signalCount: number;
}

export type { ScoreBreakdown };

/**
 * The impact bonus of an issue with `signalCount` signals: 10 per doubling, at most 50
 * (docs/api.md#score). It changes only when the count reaches a power of two up to 32.
 * @example impactBonus(1) // 0; impactBonus(8) // 30; impactBonus(500) // 50
 */
export function impactBonus(signalCount: number): number {
  if (signalCount < 2) return 0;
  return Math.min(IMPACT_MAX, IMPACT_STEP * Math.floor(Math.log2(signalCount)));
}

/**
 * The counts from which one more signal changes the impact bonus (1 → 2, 3 → 4, … 31 → 32): a
 * grouping that may start from one of them moves the issue's place in the queue.
 */
export const IMPACT_THRESHOLDS_BEFORE: readonly number[] = [1, 3, 7, 15, 31];

/** Whether the impact bonus differs between `before` and `after` signals. */
export function impactChanges(before: number, after: number): boolean {
  return impactBonus(before) !== impactBonus(after);
}

/** The score without its age term: what does not change with time. */
export function baseScore(issue: Pick<Scored, "priority" | "type" | "signalCount">, goalActive: boolean): number {
  return (
    (PRIORITY_WEIGHT[issue.priority] ?? 0) +
    TYPE_BONUS[issue.type] +
    (goalActive ? GOAL_BONUS : 0) +
    impactBonus(issue.signalCount)
  );
}

/**
 * The score at `now` and its parts; age is fractional days since creation.
 * @example scoreOf({ priority: 1, type: "signal", createdAt, number: 1, signalCount: 4 }, false, now).score // 170 + age
 */
export function scoreOf(issue: Scored, goalActive: boolean, now: Date): { score: number; breakdown: ScoreBreakdown } {
  const breakdown: ScoreBreakdown = {
    priority: PRIORITY_WEIGHT[issue.priority] ?? 0,
    type: TYPE_BONUS[issue.type],
    goal: goalActive ? GOAL_BONUS : 0,
    age: Math.max(0, (now.getTime() - Date.parse(issue.createdAt)) / DAY_MS),
    impact: impactBonus(issue.signalCount),
  };
  return {
    score: breakdown.priority + breakdown.type + breakdown.goal + breakdown.age + breakdown.impact,
    breakdown,
  };
}

/** Keeps the key positive for every base score (at most 220) and any instant after 1970. */
const KEY_OFFSET = 1_000 * DAY_MS;

/**
 * The queue sort key: ascending keys are descending scores, then older first, then lower number.
 * `createdAt − base days` is the instant an issue of base 0 would have to be created to score the
 * same; it sorts the same way at every instant.
 */
export function queueSortKey(issue: Scored, goalActive: boolean): string {
  const value = Date.parse(issue.createdAt) - baseScore(issue, goalActive) * DAY_MS + KEY_OFFSET;
  return `${String(value).padStart(16, "0")}#${String(Date.parse(issue.createdAt)).padStart(15, "0")}#${String(issue.number).padStart(12, "0")}`;
}
