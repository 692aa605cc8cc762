/**
 * @module client/measures — an experiment's measures as people read them, each value with its 95 %
 * interval: `72 % (58–83 %)`, `4.10 (3.85–4.35)`, `$0.120 ($0.100–$0.140)`; a plain rate
 * (`67 %`); and what became of agents' work (docs/api.md#outcomes) and people's reviews of it, as
 * counts in a line. The CLI and the web console both print them, so both say the same.
 */
import type { Schema } from "./client.js";

/** One arm of an experiment, as the API shows it. */
export type ExperimentArm = Schema<"Experiment">["arms"]["control"];

/** A rate or mean with its 95 % interval (`low`/`high` null under two samples). */
export type Measure = NonNullable<ExperimentArm["completionRate"]>;

/** What a measure with no data at all shows. */
export const NO_DATA = "—";

/** A rate (0..1) in whole percents, without the unit. */
function percent(value: number): string {
  return String(Math.round(value * 100));
}

function withInterval(measure: Measure | null, format: (value: number) => string, unit = ""): string {
  if (!measure) return NO_DATA;
  const value = `${format(measure.value)}${unit}`;
  if (measure.low === null || measure.high === null) return value;
  return `${value} (${format(measure.low)}–${format(measure.high)}${unit})`;
}

/**
 * A rate (0..1) as whole percents with its interval.
 * @example rateText({ value: 0.72, low: 0.58, high: 0.83, samples: 40 }) // "72 % (58–83 %)"
 */
export function rateText(measure: Measure | null): string {
  return withInterval(measure, percent, " %");
}

/**
 * A rate (0..1) with no interval, as versions and agents carry their verified rate, in whole percents.
 * @example percentText(2 / 3) // "67 %"
 */
export function percentText(rate: number | null): string {
  return rate === null ? NO_DATA : `${percent(rate)} %`;
}

/**
 * A mean review score (1..5) with two decimals and its interval.
 * @example scoreText({ value: 4.1, low: 3.85, high: 4.35, samples: 12 }) // "4.10 (3.85–4.35)"
 */
export function scoreText(measure: Measure | null): string {
  return withInterval(measure, (value) => value.toFixed(2));
}

/**
 * A mean cost in US dollars with its interval: three decimals under a dollar, else two.
 * @example costText({ value: 0.12, low: 0.1, high: 0.14, samples: 9 }) // "$0.120 ($0.100–$0.140)"
 */
export function costText(measure: Measure | null): string {
  return withInterval(measure, (value) => `$${value.toFixed(measure && measure.value < 1 ? 3 : 2)}`);
}

/** What became of dispatches' work, as versions count it (arms and agents count the same, flat). */
export type OutcomeCounts = Schema<"Version">["outcomes"];

/** People's code-host reviews of agents' pull requests, by verdict. */
export type HumanReviewCounts = Schema<"Version">["humanReviews"];

/** `name n` pairs in the order given, comma-separated. */
function countsLine(pairs: [name: string, count: number][]): string {
  return pairs.map(([name, count]) => `${name} ${count}`).join(", ");
}

/**
 * What became of the work, in the order it happens: completed, then merged, reworked, regressed, verified.
 * @example outcomesText({ completed: 5, merged: 3, reworked: 1, regressed: 1, verified: 2 }) // "completed 5, merged 3, reworked 1, regressed 1, verified 2"
 */
export function outcomesText(outcomes: OutcomeCounts): string {
  return countsLine([
    ["completed", outcomes.completed],
    ["merged", outcomes.merged],
    ["reworked", outcomes.reworked],
    ["regressed", outcomes.regressed],
    ["verified", outcomes.verified],
  ]);
}

/**
 * People's reviews of the agents' pull requests by verdict.
 * @example humanReviewsText({ approved: 2, changesRequested: 1, commented: 0 }) // "approved 2, changes requested 1, commented 0"
 */
export function humanReviewsText(reviews: HumanReviewCounts): string {
  return countsLine([
    ["approved", reviews.approved],
    ["changes requested", reviews.changesRequested],
    ["commented", reviews.commented],
  ]);
}
