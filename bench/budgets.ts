/** @module bench/budgets — the bounds of docs/contributing.md#budgets, and each figure held to one or reported. */
import { table } from "./format.js";

/**
 * The budgets: ratios, each measured against its reference in the same run, and one latency held
 * to a time (the fleet's claim p99 under load). The DynamoDB calls per
 * request that the architecture fixes are asserted by tests/integration/request-costs.test.ts; the
 * bench reports them beside what they consume.
 */
export const BUDGETS = {
  /** A function's bundle, and its module init in a fresh process, over the reference's. */
  bundle: 1.8,
  init: 1.3,
  /** Consumed capacity of list page 500 over page 1 (10,000 issues). */
  farPage: 5,
  /** Consumed capacity of a claim with 10,000 queued over one with 10 (and of the dashboard stats at 10,000 issues over 10). */
  manyOverFew: 1.5,
  /** A burst all at once over the same requests one after another, AWS conflicts off and emulated. */
  burstOff: 1.0,
  burstEmulated: 1.5,
  /** Claim p99 with 50 agents polling a fleet of one-request instances (the local load, conflicts emulated), in ms. */
  fleetClaimP99Ms: 1_000,
  /** The web console's JavaScript, gzipped, in KB (an absolute size: a browser downloads it, no reference runs it). */
  consoleScriptGzipKb: 120,
} as const;

export type Verdict = "ok" | "OVER" | "n/a";

export interface BudgetLine {
  what: string;
  figure: string;
  budget: string;
  verdict: Verdict;
  note: string;
  /** A ratio held to a bound: the chart of the report draws these. */
  ratio?: { value: number; limit: number };
  /** Why the line is over although its figure is within the bound (answers that broke a rule of the budget). */
  overBecause?: string;
}

/**
 * `line`, over its budget whatever its figure when `failure` names what else broke the budget
 * (5xx answers in a burst that must have none).
 * @example overWhen(atMost("burst …", 0.8, 1), fiveXx > 0 ? "3 × 5xx" : undefined)
 */
export function overWhen(line: BudgetLine, failure: string | undefined): BudgetLine {
  return failure === undefined || line.verdict === "n/a" ? line : { ...line, verdict: "OVER", overBecause: failure };
}

/**
 * A ratio held to `limit`; not measured (n/a) when it is not finite.
 * @example atMost("bundle size, issues", 1.42, BUDGETS.bundle, "503.6 KB")
 */
export function atMost(what: string, value: number, limit: number, note = ""): BudgetLine {
  const measured = Number.isFinite(value);
  return {
    what,
    figure: measured ? `${value.toFixed(2)}×` : "not measured",
    budget: `≤ ${limit.toFixed(2)}×`,
    verdict: measured ? (value <= limit ? "ok" : "OVER") : "n/a",
    note,
    ...(measured ? { ratio: { value, limit } } : {}),
  };
}

/**
 * A time held to `limitMs`; not measured (n/a) when it is not finite.
 * @example withinMs("claim p99, 50 agents polling, fleet", 412, BUDGETS.fleetClaimP99Ms)
 */
export function withinMs(what: string, valueMs: number, limitMs: number, note = ""): BudgetLine {
  const measured = Number.isFinite(valueMs);
  return {
    what,
    figure: measured ? `${valueMs.toFixed(0)} ms` : "not measured",
    budget: `≤ ${limitMs} ms`,
    verdict: measured ? (valueMs <= limitMs ? "ok" : "OVER") : "n/a",
    note,
  };
}

/**
 * A size held to `limitKb` (1 KB = 1,024 bytes).
 * @example withinKb("console script, gzipped", 44_870, BUDGETS.consoleScriptGzipKb)
 */
export function withinKb(what: string, bytes: number, limitKb: number, note = ""): BudgetLine {
  const measured = Number.isFinite(bytes);
  return {
    what,
    figure: measured ? `${(bytes / 1024).toFixed(1)} KB` : "not measured",
    budget: `≤ ${limitKb} KB`,
    verdict: measured ? (bytes <= limitKb * 1024 ? "ok" : "OVER") : "n/a",
    note,
  };
}

/** A figure the architecture asks to see without a bound. */
export function reported(what: string, figure: string, note = ""): BudgetLine {
  return { what, figure, budget: "reported", verdict: "n/a", note };
}

export function renderBudgets(lines: BudgetLine[]): string {
  return table(
    ["what", "figure", "budget", "verdict", "note"],
    lines.map((line) => [line.what, line.figure, line.budget, line.verdict, line.note]),
  );
}
