/** @module prompts/scoring — how agents' reviews score a template version (docs/api.md#prompts-and-reviews), as pure functions. */

/** Weight of the newest review in a version's score: recent reviews count more, old ones fade. */
export const REVIEW_ALPHA = 0.3;

/** Below this score, after enough reviews, a version needs improving. */
const LOW_SCORE = 3.5;
/** Reviews before a low score counts: one or two unhappy agents are not yet a pattern. */
const MIN_REVIEWS_FOR_LOW_SCORE = 3;
/** Reviews after which a version is looked at again whatever its score. */
const REVIEWS_BEFORE_REVISIT = 15;

/**
 * One review's composite: the mean of its three ratings (each 1..5).
 * @example compositeScore({ clarity: 5, completeness: 4, relevance: 3 }) // 4
 */
export function compositeScore(review: { clarity: number; completeness: number; relevance: number }): number {
  return (review.clarity + review.completeness + review.relevance) / 3;
}

/**
 * A version's score after one more review: the first review sets it, later ones move it by
 * `REVIEW_ALPHA` towards their composite. Rounded to 9 decimals so that floating-point noise (a
 * 3.5 computed as 3.4999999999999996) cannot decide the 3.5 threshold of `needsImprovement`.
 * @example nextReviewScore(5, 1) // 3.8
 */
export function nextReviewScore(previous: number | null, composite: number): number {
  if (previous === null) return composite;
  const score = REVIEW_ALPHA * composite + (1 - REVIEW_ALPHA) * previous;
  return Math.round(score * 1e9) / 1e9;
}

/**
 * Whether a version has earned an "Improve prompt template" task: a score below 3.5 after at
 * least 3 reviews, or 15 reviews whatever the score.
 * @example needsImprovement({ reviewCount: 3, reviewScore: 3.2 }) // true
 */
export function needsImprovement(version: { reviewCount: number; reviewScore: number | null }): boolean {
  const { reviewCount, reviewScore } = version;
  if (reviewCount >= REVIEWS_BEFORE_REVISIT) return true;
  return reviewCount >= MIN_REVIEWS_FOR_LOW_SCORE && reviewScore !== null && reviewScore < LOW_SCORE;
}

/**
 * The score after a sequence of composites, oldest first; null before any review. Lets tests and
 * audits recompute a version's stored score from its reviews.
 * @example scoreAfter([5, 1, 3]) // 3.56
 */
export function scoreAfter(composites: readonly number[]): number | null {
  return composites.reduce<number | null>((score, composite) => nextReviewScore(score, composite), null);
}

/** How a version's reviews stand: how many its score has taken, and the score after them. */
export interface ReviewTally {
  reviewCount: number;
  reviewScore: number | null;
}

/**
 * The tally after `composites` are taken in order after `from`, and the first of them after which
 * the version needs improvement (its index and the tally there), if one does.
 * @example foldComposites({ reviewCount: 2, reviewScore: 2 }, [1, 5])
 * // { tally: { reviewCount: 4, reviewScore: 2.69 }, needing: { index: 0, tally: { reviewCount: 3, reviewScore: 1.7 } } }
 */
export function foldComposites(
  from: ReviewTally,
  composites: readonly number[],
): { tally: ReviewTally; needing: { index: number; tally: ReviewTally } | undefined } {
  let tally = from;
  let needing: { index: number; tally: ReviewTally } | undefined;
  for (const [index, composite] of composites.entries()) {
    tally = { reviewCount: tally.reviewCount + 1, reviewScore: nextReviewScore(tally.reviewScore, composite) };
    if (needing === undefined && needsImprovement(tally)) needing = { index, tally };
  }
  return { tally, needing };
}
