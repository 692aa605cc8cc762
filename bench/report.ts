/**
 * @module bench/report — a full run kept as `bench/REPORT.md` (the budget table, then each section's
 * printed lines under the command that repeats it) and `bench/ratios.svg` (every ratio against its budget).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BudgetLine } from "./budgets.js";

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const xml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** `+0.30 (1.20× the budget)` for a ratio over its budget, what else broke it, or empty. */
function missedBy(line: BudgetLine): string {
  if (line.verdict !== "OVER") return "";
  const { value, limit } = line.ratio ?? { value: 0, limit: Number.POSITIVE_INFINITY };
  const missed = value > limit ? [`+${(value - limit).toFixed(2)} (${(value / limit).toFixed(2)}× the budget)`] : [];
  return [...missed, ...(line.overBecause ? [line.overBecause] : [])].join("; ");
}

/** A bar per ratio as a share of its budget: the dashed line is the budget, red bars are over it. */
function ratioChart(lines: BudgetLine[]): string {
  const rows = lines.filter((line) => line.ratio && line.ratio.limit > 0);
  const shares = rows.map((line) => (line.ratio ? line.ratio.value / line.ratio.limit : 0));
  const [label, plot, rowHeight, top] = [560, 420, 20, 48];
  const scaleMax = Math.max(1.25, ...shares.map((share) => Math.min(share, 3)));
  const x = (share: number) => label + (Math.min(share, scaleMax) / scaleMax) * plot;
  const bottom = top + rows.length * rowHeight;
  const [width, height] = [label + plot + 150, bottom + 28];
  const title = "Kaizen bench: each ratio as a share of its budget";
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${title}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${title}</text>`,
    `<text x="12" y="38" fill="#555">${rows.length} ratios; the dashed line is the budget (100 %); red bars are over it.</text>`,
  ];
  rows.forEach((line, i) => {
    const y = top + i * rowHeight;
    const share = shares[i] ?? 0;
    const name = line.what.length > 86 ? `${line.what.slice(0, 85)}…` : line.what;
    parts.push(
      `<text x="${label - 8}" y="${y + 14}" text-anchor="end">${xml(name)}</text>`,
      `<rect x="${label}" y="${y + 3}" width="${(x(share) - label).toFixed(1)}" height="${rowHeight - 6}" fill="${share <= 1 ? "#3a9d5d" : "#d0453b"}"/>`,
      `<text x="${(x(share) + 6).toFixed(1)}" y="${y + 14}">${xml(`${line.figure} (budget ${line.budget})`)}</text>`,
    );
  });
  const budgetX = x(1).toFixed(1);
  parts.push(
    `<line x1="${budgetX}" y1="${top - 4}" x2="${budgetX}" y2="${bottom + 4}" stroke="#222" stroke-dasharray="4 3"/>`,
    `<text x="${budgetX}" y="${bottom + 20}" text-anchor="middle">budget</text>`,
    "</svg>",
  );
  return `${parts.join("\n")}\n`;
}

/**
 * What a full run prints, by section, written as Markdown with the budget table first.
 * @example const report = new MarkdownReport(["node v20"]); report.section("Bundles", "npm run bench -- --bundles");
 */
export class MarkdownReport {
  private readonly sections: { title: string; command: string; lines: string[] }[] = [];

  /** `context`: lines under the title (machine, settings, command). */
  constructor(private readonly context: string[]) {}

  /** Starts a section; what {@link line} records from now on goes under it. */
  section(title: string, command: string): void {
    this.sections.push({ title, command, lines: [] });
  }

  /** A printed line, kept verbatim in the current section. */
  line(text: string): void {
    this.sections.at(-1)?.lines.push(text);
  }

  /** Writes `REPORT.md` and `ratios.svg` into `dir`; returns their paths. */
  write(dir: string, budgets: BudgetLine[]): string[] {
    const over = budgets.filter((line) => line.verdict === "OVER").length;
    const out = [
      "# Kaizen bench report",
      "",
      "Written by `npm run bench` (bench/run.ts); every ratio is measured in the same run as the reference it is",
      "compared with. Absolute times depend on the machine and how busy it was; the ratios are what the budgets of",
      "the architecture hold. The DynamoDB calls per request it fixes are asserted by tests/integration/request-costs.test.ts.",
      "",
      ...this.context.map((line) => `- ${line}`),
      "",
      "## Budgets",
      "",
      over === 0 ? "Every measured ratio is within its budget." : `${over} over budget; the note says why.`,
      "",
      "| what | figure | budget | verdict | missed by | note |",
      "|---|---|---|---|---|---|",
      ...budgets.map(
        (line) =>
          `| ${cell(line.what)} | ${cell(line.figure)} | ${line.budget} | ${line.verdict} | ${missedBy(line)} | ${cell(line.note)} |`,
      ),
      "",
      "![Each ratio as a share of its budget](ratios.svg)",
      "",
    ];
    for (const { title, command, lines } of this.sections) {
      const body = lines.join("\n").replace(/^\n+|\n+$/g, "");
      out.push(`## ${title}`, "", `Command: \`${command}\``, "", "```text", body, "```", "");
    }
    const paths = [join(dir, "REPORT.md"), join(dir, "ratios.svg")];
    writeFileSync(paths[0] as string, out.join("\n"));
    writeFileSync(paths[1] as string, ratioChart(budgets));
    return paths;
  }
}
