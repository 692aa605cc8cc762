/**
 * @module client/measures — an experiment's measures as people read them, each value with its 95 %
 * interval: `72 % (58–83 %)`, `4.10 (3.85–4.35)`, `$0.120 ($0.100–$0.140)`. The CLI and the web
 * console both print them, so both say the same.
 */
import type { Schema } from "./client.js";

/** One arm of an experiment, as the API shows it. */
export type ExperimentArm = Schema<"Experiment">["arms"]["control"];

/** A rate or mean with its 95 % interval (`low`/`high` null under two samples). */
export type Measure = NonNullable<ExperimentArm["completionRate"]>;

/** What a measure with no data at all shows. */
export const NO_DATA = "—";

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
  return withInterval(measure, (value) => String(Math.round(value * 100)), " %");
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
