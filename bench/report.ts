/**
 * @module bench/report — a bench run kept as Markdown: `bench/REPORT.md`, each section's printed
 * figures under the command that produced them, the budget table with how far each missed budget
 * is missed and why, and `bench/ratios.svg`, a chart of every ratio against its budget.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BudgetLine, BudgetReport } from "./budgets.js";

interface Section {
  title: string;
  command: string;
  lines: string[];
}

/** A cell of a Markdown table: pipes escaped, one line. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * `+2 (1.67× the budget)` for a figure over its budget, empty otherwise.
 * @example missedBy({ value: 5, limit: 3, … }) // "+2 (1.67× the budget)"
 */
export function missedBy(line: BudgetLine): string {
  if (line.verdict !== "OVER" || line.value === undefined || line.limit === undefined) return "";
  const excess = line.value - line.limit;
  const digits = Number.isInteger(excess) ? 0 : 2;
  const share = line.limit > 0 ? ` (${(line.value / line.limit).toFixed(2)}× the budget)` : "";
  return `+${excess.toFixed(digits)}${share}`;
}

/** The budget lines a chart can show: ratios held to a positive bound. */
export function chartedLines(lines: BudgetLine[]): BudgetLine[] {
  return lines.filter(
    (line) => line.ratio && line.value !== undefined && Number.isFinite(line.value) && (line.limit ?? 0) > 0,
  );
}

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * A horizontal bar per ratio, drawn as a share of its budget: the line at 100 % is the budget,
 * green bars are within it and red ones over it, with the figure and the budget written beside.
 * @example writeFileSync("bench/ratios.svg", ratioChart(budgets.lines));
 */
export function ratioChart(lines: BudgetLine[], title = "Kaizen bench: each ratio as a share of its budget"): string {
  const rows = chartedLines(lines);
  const label = 560;
  const plot = 420;
  const rowHeight = 20;
  const top = 48;
  const shares = rows.map((line) => (line.value ?? 0) / (line.limit ?? 1));
  const scaleMax = Math.max(1.25, ...shares.map((share) => Math.min(share, 3)));
  const x = (share: number) => label + (Math.min(share, scaleMax) / scaleMax) * plot;
  const height = top + rows.length * rowHeight + 28;
  const width = label + plot + 150;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="12" y="38" fill="#555">${rows.length} ratios; the dashed line is the budget (100 %); red bars are over it.</text>`,
  ];
  rows.forEach((line, i) => {
    const y = top + i * rowHeight;
    const share = shares[i] ?? 0;
    const name = line.what.length > 86 ? `${line.what.slice(0, 85)}…` : line.what;
    parts.push(
      `<text x="${label - 8}" y="${y + 14}" text-anchor="end">${escapeXml(name)}</text>`,
      `<rect x="${label}" y="${y + 3}" width="${(x(share) - label).toFixed(1)}" height="${rowHeight - 6}" fill="${share <= 1 ? "#3a9d5d" : "#d0453b"}"/>`,
      `<text x="${(x(share) + 6).toFixed(1)}" y="${y + 14}">${escapeXml(`${line.figure} (budget ${line.budget})`)}</text>`,
    );
  });
  const budgetX = x(1).toFixed(1);
  parts.push(
    `<line x1="${budgetX}" y1="${top - 4}" x2="${budgetX}" y2="${top + rows.length * rowHeight + 4}" stroke="#222" stroke-dasharray="4 3"/>`,
    `<text x="${budgetX}" y="${top + rows.length * rowHeight + 20}" text-anchor="middle">budget</text>`,
    "</svg>",
  );
  return `${parts.join("\n")}\n`;
}

/**
 * Collects what a run prints, by section, and renders it as Markdown.
 * @example const report = new MarkdownReport(["node v20"]); report.section("Bundles", "npm run bench -- --bundles");
 */
export class MarkdownReport {
  private readonly sections: Section[] = [];

  /** `context`: lines under the title (machine, settings, date). */
  constructor(private readonly context: string[]) {}

  /** Starts a section; what {@link line} records from now on goes under it. */
  section(title: string, command: string): void {
    this.sections.push({ title, command, lines: [] });
  }

  /** A printed line, kept verbatim in the current section (lines before the first section are context). */
  line(text: string): void {
    const current = this.sections.at(-1);
    if (current) current.lines.push(text);
  }

  render(budgets: BudgetReport, chartFile: string): string {
    const over = budgets.over;
    const out = [
      "# Kaizen bench report",
      "",
      "Written by `npm run bench` (bench/run.ts); every figure is measured in the same run as the reference it is",
      "compared with. Absolute times depend on the machine and how busy it was; the ratios are what the budgets of",
      "the architecture hold.",
      "",
      ...this.context.map((line) => `- ${line}`),
      "",
      "## Budgets",
      "",
      over.length === 0
        ? "Every measured figure is within its budget."
        : `${over.length} figure${over.length === 1 ? " is" : "s are"} over budget; the table says by how much, and the note says why.`,
      "",
      "| what | figure | budget | verdict | missed by | note |",
      "|---|---|---|---|---|---|",
      ...budgets.lines.map(
        (line) =>
          `| ${cell(line.what)} | ${cell(line.figure)} | ${cell(line.budget)} | ${line.verdict} | ${cell(missedBy(line))} | ${cell(line.note)} |`,
      ),
      "",
      `![Each ratio as a share of its budget](${chartFile})`,
      "",
    ];
    for (const section of this.sections) {
      const body = section.lines.join("\n").replace(/^\n+|\n+$/g, "");
      out.push(`## ${section.title}`, "", `Command: \`${section.command}\``, "", "```text", body, "```", "");
    }
    return out.join("\n");
  }

  /**
   * Writes `REPORT.md` and its chart into `dir`.
   * @example report.write(join(ROOT, "bench"), budgets) // bench/REPORT.md, bench/ratios.svg
   */
  write(dir: string, budgets: BudgetReport): { report: string; chart: string } {
    const chart = join(dir, "ratios.svg");
    const report = join(dir, "REPORT.md");
    writeFileSync(chart, ratioChart(budgets.lines));
    writeFileSync(report, this.render(budgets, "ratios.svg"));
    return { report, chart };
  }
}
