/**
 * @module templates/experiment-figures — what an experiment's counts say (docs/api.md#experiments), as pure
 * functions: each arm's rates and means with 95 % intervals, and the decision rule.
 *
 * - Completion rate: completed / finished dispatches, with the Wilson score interval (sound at
 *   small counts and at rates near 0 or 1, where the normal one is not).
 * - Verified rate: verified / (verified + regressed) merged fixes whose watch ended
 *   (docs/api.md#outcomes), with the Wilson interval likewise.
 * - Review score (the mean composite of the arm's reviews) and cost (the mean of the costs its
 *   agents reported): Student's t interval from the running sums (n, Σx, Σx²), mean ± t·s/√n with
 *   n − 1 degrees of freedom, clipped to the measure's range; no interval under 2 samples.
 */

/** z for a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;

/** t(0.975, df) for df = 1..30; past 30 the normal z is within 4 %. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** A rate or mean with its 95 % interval; `low`/`high` are null when the samples are too few for one. */
export interface Measure {
  value: number;
  low: number | null;
  high: number | null;
  samples: number;
}

/** What is counted per arm (experiment-counts.ts keeps them). */
export interface ArmCounts {
  claims: number;
  finished: number;
  completed: number;
  failed: number;
  /** What became of the completed work (docs/api.md#outcomes): each dispatch counted once per outcome. */
  merged: number;
  reworked: number;
  regressed: number;
  verified: number;
  reviews: number;
  /** Sum over reviews of clarity + completeness + relevance (3 × the composite: integers stay exact). */
  ratings: number;
  /** Sum over reviews of (clarity + completeness + relevance)². */
  ratingsSquared: number;
  costReports: number;
  cost: number;
  costSquared: number;
}

export const NO_COUNTS: ArmCounts = {
  claims: 0,
  finished: 0,
  completed: 0,
  failed: 0,
  merged: 0,
  reworked: 0,
  regressed: 0,
  verified: 0,
  reviews: 0,
  ratings: 0,
  ratingsSquared: 0,
  costReports: 0,
  cost: 0,
  costSquared: 0,
};

/** One arm's figures, as the API shows them. */
export interface ArmFigures {
  claims: number;
  finished: number;
  completions: number;
  failures: number;
  merged: number;
  reworked: number;
  regressed: number;
  verified: number;
  reviews: number;
  completionRate: Measure | null;
  reviewScore: Measure | null;
  verifiedRate: Measure | null;
  costUsd: Measure | null;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
const clip = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The Wilson score interval of `successes` out of `trials`; null without trials.
 * @example wilson(8, 10) // { value: 0.8, low: 0.490162, high: 0.943318, samples: 10 }
 */
export function wilson(successes: number, trials: number): Measure | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z_95 / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return {
    value: round(p),
    low: round(clip(centre - half, 0, 1)),
    high: round(clip(centre + half, 0, 1)),
    samples: trials,
  };
}

/**
 * The mean of `n` samples from their sum and sum of squares, with Student's t interval clipped to
 * [`min`, `max`]; null without samples, no interval under two.
 * @example meanInterval(3, 12, 50, 1, 5) // { value: 4, low: 1.515…, high: 5, samples: 3 }
 */
export function meanInterval(n: number, sum: number, sumSquares: number, min: number, max: number): Measure | null {
  if (n <= 0) return null;
  const mean = sum / n;
  if (n < 2) return { value: round(mean), low: null, high: null, samples: n };
  // Rounding in the sums can make a zero variance slightly negative.
  const variance = Math.max(0, (sumSquares - n * mean * mean) / (n - 1));
  const t = T_975[n - 2] ?? Z_95;
  const half = t * Math.sqrt(variance / n);
  return {
    value: round(mean),
    low: round(clip(mean - half, min, max)),
    high: round(clip(mean + half, min, max)),
    samples: n,
  };
}

/** An arm's figures from its counts. */
export function armFigures(counts: ArmCounts): ArmFigures {
  return {
    claims: counts.claims,
    finished: counts.finished,
    completions: counts.completed,
    failures: counts.failed,
    merged: counts.merged,
    reworked: counts.reworked,
    regressed: counts.regressed,
    verified: counts.verified,
    reviews: counts.reviews,
    completionRate: wilson(counts.completed, counts.finished),
    // Ratings are sums of three: the composite is a third of each.
    reviewScore: meanInterval(counts.reviews, counts.ratings / 3, counts.ratingsSquared / 9, 1, 5),
    verifiedRate: wilson(counts.verified, counts.verified + counts.regressed),
    costUsd: meanInterval(counts.costReports, counts.cost, counts.costSquared, 0, Number.POSITIVE_INFINITY),
  };
}

/** How the candidate compares with the control on one measure. */
export type Comparison = "better" | "worse" | "overlapping" | "too-few-data";

/**
 * Better or worse only when the intervals do not overlap; a measure without an interval in either
 * arm has too few data (docs/api.md#experiments: it counts as no worse).
 */
export function compare(candidate: Measure | null, control: Measure | null): Comparison {
  if (candidate?.low == null || candidate.high == null || control?.low == null || control.high == null) {
    return "too-few-data";
  }
  if (candidate.low > control.high) return "better";
  if (candidate.high < control.low) return "worse";
  return "overlapping";
}

/** What the rule says of an experiment's figures now. */
export type Verdict =
  | { decided: false; reason: string }
  | { decided: true; outcome: "winner" | "loser"; reason: string };

/**
 * The rule of docs/api.md#experiments: once both arms have `minSamples` finished dispatches, a candidate
 * better on completion rate, review score or verified rate (intervals apart) and worse on none
 * wins; one worse on any and better on none loses; anything else runs on.
 */
export function verdict(candidate: ArmFigures, control: ArmFigures, minSamples: number): Verdict {
  if (candidate.finished < minSamples || control.finished < minSamples) {
    return {
      decided: false,
      reason: `waiting for ${minSamples} finished dispatches in each arm (candidate ${candidate.finished}, control ${control.finished})`,
    };
  }
  const rate = compare(candidate.completionRate, control.completionRate);
  const score = compare(candidate.reviewScore, control.reviewScore);
  const verifiedRate = compare(candidate.verifiedRate, control.verifiedRate);
  const said = `completion rate ${describe(rate)}, review score ${describe(score)}, verified rate ${describe(verifiedRate)}`;
  const measures = [rate, score, verifiedRate];
  const better = measures.includes("better");
  const worse = measures.includes("worse");
  if (better && !worse) return { decided: true, outcome: "winner", reason: `candidate better: ${said}` };
  if (worse && !better) return { decided: true, outcome: "loser", reason: `candidate worse: ${said}` };
  return { decided: false, reason: `no difference yet: ${said}` };
}

function describe(comparison: Comparison): string {
  return comparison === "too-few-data" ? "too few data" : comparison;
}
