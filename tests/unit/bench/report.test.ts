/** The bench's Markdown report and chart: budgets with how far they are missed, sections under their commands. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BudgetReport } from "../../../bench/budgets.js";
import { times } from "../../../bench/format.js";
import { chartedLines, MarkdownReport, missedBy, ratioChart } from "../../../bench/report.js";

function sampleBudgets(): BudgetReport {
  const budgets = new BudgetReport();
  budgets.atMost("bundle size, issues", 1.42, 2, times, "512 KB");
  budgets.atMost("calls, claim", 5, 3, String, "the lease query, the queue head, <the issue> | the transaction");
  budgets.atMost("burst ratio, one fingerprint, conflicts emulated", 1.8, 1.5, times);
  budgets.atMost("burst 5xx, creates", 0, 0, String);
  budgets.atMost("capacity ratio, never measured", Number.NaN, 1.5, times, "capacity not reported");
  budgets.reported("throughput, GET /health", "9000 req/s");
  return budgets;
}

describe("missedBy", () => {
  it("says how far an over-budget figure is from its bound, and nothing for the rest", () => {
    const misses = sampleBudgets().lines.map(missedBy);
    expect(misses).toEqual(["", "+2 (1.67× the budget)", "+0.30 (1.20× the budget)", "", "", ""]);
  });
});

describe("ratioChart", () => {
  it("draws one bar per measured ratio, red over budget and green within, with the budget line", () => {
    const lines = sampleBudgets().lines;
    expect(chartedLines(lines).map((line) => line.what)).toEqual([
      "bundle size, issues",
      "burst ratio, one fingerprint, conflicts emulated",
    ]);
    const svg = ratioChart(lines);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("<title>Kaizen bench: each ratio as a share of its budget</title>");
    expect(svg.match(/fill="#3a9d5d"/g)).toHaveLength(1);
    expect(svg.match(/fill="#d0453b"/g)).toHaveLength(1);
    expect(svg).toContain("1.80× (budget ≤ 1.50×)");
    expect(svg).toContain('stroke-dasharray="4 3"');
  });

  it("escapes what it writes", () => {
    const budgets = new BudgetReport();
    budgets.atMost('ratio of <a> & "b"', 0.5, 1, times);
    const svg = ratioChart(budgets.lines);
    expect(svg).toContain("ratio of &lt;a&gt; &amp; &quot;b&quot;");
    expect(svg).not.toContain("<a>");
  });
});

describe("MarkdownReport", () => {
  it("renders the budgets with verdicts and misses, then each section's lines under its command", () => {
    const report = new MarkdownReport(["machine: 2 × test cpu"]);
    report.line("before any section: dropped");
    report.section("Bundles", "npm run bench -- --bundles");
    report.line("bundle  size");
    report.line("issues  512 KB");
    report.section("Bursts", "BENCH_BURST=100 npm run bench -- --bursts");
    report.line("creates  0.9×");
    const markdown = report.render(sampleBudgets(), "ratios.svg");
    expect(markdown).toContain("- machine: 2 × test cpu");
    expect(markdown).toContain("2 figures are over budget");
    expect(markdown).toContain(
      "| calls, claim | 5 | ≤ 3 | OVER | +2 (1.67× the budget) | the lease query, the queue head, <the issue> \\| the transaction |",
    );
    expect(markdown).toContain("| throughput, GET /health | 9000 req/s | reported | n/a |  |  |");
    expect(markdown).toContain("![Each ratio as a share of its budget](ratios.svg)");
    expect(markdown).toContain(
      "## Bundles\n\nCommand: `npm run bench -- --bundles`\n\n```text\nbundle  size\nissues  512 KB\n```",
    );
    expect(markdown).toContain("## Bursts\n\nCommand: `BENCH_BURST=100 npm run bench -- --bursts`");
    expect(markdown).not.toContain("dropped");
  });

  it("says so when every figure is within budget, and writes both files", () => {
    const budgets = new BudgetReport();
    budgets.atMost("bundle size, issues", 1.2, 2, times);
    const dir = mkdtempSync(join(tmpdir(), "kaizen-report-"));
    try {
      const report = new MarkdownReport([]);
      const written = report.write(dir, budgets);
      expect(readFileSync(written.report, "utf8")).toContain("Every measured figure is within its budget.");
      expect(readFileSync(written.chart, "utf8")).toContain("bundle size, issues");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
