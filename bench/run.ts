/**
 * @module bench/run — `npm run bench`: runs each section of the bench in turn, then prints the budget
 * table (docs/contributing.md#budgets); a run of every section also writes bench/REPORT.md and
 * bench/ratios.svg. `npm run bench -- --section <name>` (or `--<name>`) runs the sections named.
 * Figures over budget are reported, not failed; it exits 1 only when a section broke (a wrong burst,
 * a 5xx, a load audit violation) or could not run. Settings: bench/env.ts.
 */
import { cpus, loadavg } from "node:os";
import { join, relative } from "node:path";
import { generateApiKey } from "../core/src/index.js";
import { type RunningDynamoDb, startDynamoDbLocal } from "../infra/local/dynamodb.js";
import { ROOT } from "../scripts/build.js";
import { type BudgetLine, renderBudgets } from "./budgets.js";
import { bundlesSection } from "./bundles.js";
import { burstsSection } from "./bursts.js";
import { claimsSection } from "./claims.js";
import { benchSettings, settingsLine } from "./env.js";
import { heading } from "./format.js";
import { issuesSection } from "./issues.js";
import { loadSection } from "./load.js";
import { MarkdownReport } from "./report.js";
import type { BenchContext, Section } from "./section.js";
import { signalsSection } from "./signals.js";
import { throughputSection } from "./throughput.js";

// The SDK's Node-version notice; older SDKs read the first name, the installed one reads the second.
process.env.AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING ??= "1";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const SECTIONS: Section[] = [
  bundlesSection,
  issuesSection,
  signalsSection,
  claimsSection,
  throughputSection,
  burstsSection,
  loadSection,
];

/** The sections `args` name (`--section bursts`, `--bursts`), or all of them. */
function chosen(args: string[]): Section[] {
  const names = args.flatMap((arg, i) =>
    arg === "--section" ? [] : args[i - 1] === "--section" ? [arg] : arg.startsWith("--") ? [arg.slice(2)] : [],
  );
  const unknown = names.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) {
    throw new Error(`no section ${unknown.join(", ")}; sections: ${SECTIONS.map((s) => s.name).join(", ")}`);
  }
  return names.length === 0 ? SECTIONS : SECTIONS.filter((section) => names.includes(section.name));
}

async function main(): Promise<number> {
  const sections = chosen(process.argv.slice(2));
  const settings = benchSettings();
  const cpu = cpus();
  const machine = `node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${new Date().toISOString()}`;
  const load = () =>
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`;
  const report =
    sections === SECTIONS
      ? new MarkdownReport([
          `machine: ${machine}`,
          `${load()} at the start`,
          `command: \`${settingsLine(settings)} npm run bench\``,
        ])
      : undefined;
  let dynamo: Promise<RunningDynamoDb> | undefined;
  const shared = new Map<string, Promise<unknown>>();
  const failures: string[] = [];
  const ctx: BenchContext = {
    settings,
    apiKey: generateApiKey(),
    log: (line = "") => {
      console.log(line);
      report?.line(line);
    },
    endpoint: async () => {
      dynamo ??= startDynamoDbLocal();
      return (await dynamo).endpoint;
    },
    shared: <T>(key: string, make: () => Promise<T>) => {
      if (!shared.has(key)) shared.set(key, make());
      return shared.get(key) as Promise<T>;
    },
    fail: (reason) => failures.push(reason),
  };
  console.log(`Kaizen bench — ${machine}\n${settingsLine(settings)}`);
  const budgets: BudgetLine[] = [];
  try {
    for (const section of sections) {
      report?.section(section.title, `${settingsLine(settings)} npm run bench -- --section ${section.name}`);
      ctx.log(heading(`${section.name}: ${section.title}`));
      ctx.log(`(${load()})`);
      budgets.push(...(await section.run(ctx)));
    }
  } finally {
    await (await dynamo)?.stop();
  }
  console.log(`${heading("Budgets")}\n${renderBudgets(budgets)}`);
  const over = budgets.filter((line) => line.verdict === "OVER");
  console.log(
    over.length === 0
      ? "\nEvery measured ratio is within its budget."
      : `\nOVER BUDGET: ${over.map((line) => `${line.what} = ${line.figure}${line.overBecause ? `, ${line.overBecause}` : ""}`).join("; ")}`,
  );
  if (report)
    console.log(
      `\nwrote ${report
        .write(join(ROOT, "bench"), budgets)
        .map((path) => relative(ROOT, path))
        .join(" and ")}`,
    );
  for (const failure of failures) console.error(`!! ${failure}`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
