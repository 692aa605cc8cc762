/** @module bench/budgets — collects each figure with its budget (ARCHITECTURE.md, "Budgets") for the closing summary. */
import { table } from "./format.js";

export type Verdict = "ok" | "OVER" | "n/a";

export interface BudgetLine {
  what: string;
  figure: string;
  budget: string;
  verdict: Verdict;
  note: string;
  /** The measured value and its bound, for lines recorded by {@link BudgetReport.atMost}. */
  value?: number;
  limit?: number;
  /** Whether the figure is a ratio (formatted with ×), as the report's chart shows them. */
  ratio?: boolean;
}

export class BudgetReport {
  readonly lines: BudgetLine[] = [];

  /** Records `value` against an upper bound; a non-finite value is "n/a" (not measured). */
  atMost(what: string, value: number, limit: number, format: (n: number) => string, note = ""): void {
    const measured = Number.isFinite(value);
    this.lines.push({
      what,
      figure: measured ? format(value) : "not measured",
      budget: `≤ ${format(limit)}`,
      verdict: measured ? (value <= limit ? "ok" : "OVER") : "n/a",
      note,
      value,
      limit,
      ratio: format(1).endsWith("×"),
    });
  }

  /** A figure the architecture asks to see but sets no bound for. */
  reported(what: string, figure: string, note = ""): void {
    this.lines.push({ what, figure, budget: "reported", verdict: "n/a", note });
  }

  get over(): BudgetLine[] {
    return this.lines.filter((line) => line.verdict === "OVER");
  }

  render(): string {
    return table(
      ["what", "figure", "budget", "verdict", "note"],
      this.lines.map((line) => [line.what, line.figure, line.budget, line.verdict, line.note]),
    );
  }
}
