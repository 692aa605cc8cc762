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
const DAY_MS = 86_400_000;

/** What the score reads of an issue. */
export interface Scored {
  priority: number;
  type: IssueType;
  createdAt: string;
  number: number;
}

export type { ScoreBreakdown };

/** The score without its age term: what does not change with time. */
export function baseScore(issue: Pick<Scored, "priority" | "type">, goalActive: boolean): number {
  return (PRIORITY_WEIGHT[issue.priority] ?? 0) + TYPE_BONUS[issue.type] + (goalActive ? GOAL_BONUS : 0);
}

/**
 * The score at `now` and its parts; age is fractional days since creation.
 * @example scoreOf({ priority: 1, type: "signal", createdAt, number: 1 }, false, now).score // 150 + age
 */
export function scoreOf(issue: Scored, goalActive: boolean, now: Date): { score: number; breakdown: ScoreBreakdown } {
  const breakdown: ScoreBreakdown = {
    priority: PRIORITY_WEIGHT[issue.priority] ?? 0,
    type: TYPE_BONUS[issue.type],
    goal: goalActive ? GOAL_BONUS : 0,
    age: Math.max(0, (now.getTime() - Date.parse(issue.createdAt)) / DAY_MS),
  };
  return { score: breakdown.priority + breakdown.type + breakdown.goal + breakdown.age, breakdown };
}

/** Keeps the key positive for every base score (at most 170) and any instant after 1970. */
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
