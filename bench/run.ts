/**
 * @module bench/run — `npm run bench`: measures every budget of ARCHITECTURE.md ("Budgets") against
 * a reference built in the same run, prints a report and writes it to `bench/REPORT.md` with a chart of
 * the ratios (`bench/ratios.svg`; bench/report.ts). It always exits 0 when it could measure: figures over
 * budget are reported, not failed. The single-section runs below print only.
 *
 * Environment: BENCH_ISSUES (default 10000; also the todo issues queued, in a table of their own, for the
 * claim costed against a long queue), BENCH_SIGNALS (signals seeded before the signal reads
 * are costed, default 3000), BENCH_INIT_RUNS (default 21, at least 10), BENCH_THROUGHPUT_SECONDS (default 10),
 * BENCH_BURST (requests per burst, default 100), BENCH_BURST_ROUNDS (default 3), and the sustained load's
 * BENCH_LOAD_* (bench/load-main.ts; `npm run bench:load` runs that section alone).
 * `npm run bench -- --bursts` measures the bursts section alone, `npm run bench -- --bundles` the bundles,
 * `npm run bench -- --claims` the claim costs (with BENCH_ISSUES queued), `npm run bench -- --dashboard` the
 * dashboard costs (with 10 and BENCH_ISSUES issues).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Logger } from "@aws-lambda-powertools/logger";
import { CatalogService } from "../core/src/catalog/service.js";
import {
  ALL_FAMILIES,
  createApp,
  createDb,
  ensureTable,
  generateApiKey,
  loadConfig,
  waitForDatabase,
} from "../core/src/index.js";
import { IssueStore } from "../core/src/issues/store.js";
import { SignalService } from "../core/src/signals/service.js";
import { PAYLOAD_IN_TRANSACTION_BYTES } from "../core/src/signals/store.js";
import { promptEngine } from "../core/src/templates/engine.js";
import { freePort, type RunningDynamoDb, startDynamoDbLocal } from "../infra/local/dynamodb.js";
import { ROOT } from "../scripts/build.js";
import { BudgetReport } from "./budgets.js";
import { type BundleReport, growthOverReference, measureBundles } from "./bundles.js";
import { type BurstRow, burstCases, measureBurst } from "./bursts.js";
import { CLAIMS, claimBurst, ELIGIBLE } from "./claim-burst.js";
import { type ClaimCosts, FEW_QUEUED, measureClaimCosts } from "./claim-costs.js";
import {
  awsWriteUnits,
  breakdown,
  type CostCase,
  type CostRow,
  callsOnAws,
  costCases,
  costRatios,
  measureCost,
  measureCosts,
  meterAgrees,
  oversizedQueries,
  type RatioPair,
} from "./costs.js";
import { type DashboardCosts, FEW_ISSUES, measureDashboardCosts } from "./dashboard-costs.js";
import { BENCH_WEBHOOK_SECRETS } from "./deliveries.js";
import { traceDynamo } from "./dynamo-trace.js";
import { intEnv, loadSettings } from "./env.js";
import { heading, kb, ms, num, percent, quantile, table, times } from "./format.js";
import { issueListCases, issueListRatios, measureIssueItemCosts } from "./issue-domain-costs.js";
import { runLoad } from "./load.js";
import { loadBudgets, renderLoadReport } from "./load-report.js";
import { duplicateDeliveryTarget, groupedDeliveriesTarget } from "./receiver-load.js";
import { MarkdownReport } from "./report.js";
import { reviewBurst } from "./review-burst.js";
import { measureReviewCosts } from "./review-costs.js";
import { SEED_PARENTS, type SeedSummary, seedIssues, TITLE_WORD } from "./seed.js";
import { receiverCases, signalReadCases } from "./signal-costs.js";
import { type SignalSeedSummary, seedSignals } from "./signal-seed.js";
import {
  type BenchServer,
  measureThroughput,
  startBenchServer,
  type Target,
  type ThroughputRow,
  targetName,
} from "./throughput.js";

// The SDK's Node-version notice; older SDKs read the first name, the installed one reads the second.
process.env.AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING ??= "1";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const BUDGET_ISSUES = 10_000;
const TABLE_NAME = "kaizen_bench";
/** The key `GET /health` reads (core/src/service/health.ts); it never holds an item. */
const HEALTH_KEY = { pk: "$kaizen#health_1", sk: "$kaizen#health_1" };

/** The full run's Markdown report; section-only runs print and keep no report. */
let report: MarkdownReport | undefined;

const log = (line = "") => {
  console.log(line);
  report?.line(line);
};

/** The settings a run read from the environment, as the command that repeats it. */
function benchCommand(settings: Record<string, number>, args = "", script = "bench"): string {
  const env = Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
  return `${env} npm run ${script}${args ? ` -- ${args}` : ""}`;
}

/** Prints a section heading and starts that section of the report, under the command that measures it. */
function section(title: string, command: string): void {
  report?.section(title.replace(/^\d+\.\s*/, ""), command);
  log(heading(title));
}

/** A seeding progress line every so often: done, rate, time left. */
function progress(total: number): (done: number, elapsedMs: number) => void {
  return (done, elapsedMs) => {
    const rate = done / (elapsedMs / 1000);
    log(`  ${done}/${total} (${rate.toFixed(0)}/s, ${((total - done) / rate).toFixed(0)} s left)`);
  };
}

/** Other work on the machine skews timings; say how busy it was. */
function loadNote(): string {
  return `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`;
}

function bundleSection(bundles: BundleReport, budgets: BudgetReport, command: string): void {
  const { reference, functions } = bundles;
  const runs = reference.initSamples.length;
  section(`1. Bundle size and module init (fresh node, median of ${runs}, interleaved)`, command);
  const row = (name: string, bytes: number, init: number[], median: number) => [
    name,
    kb(bytes),
    times(bytes / reference.bytes),
    ms(median),
    times(median / reference.initMedianMs),
    `${ms(quantile(init, 0.25))} – ${ms(quantile(init, 0.75))}`,
  ];
  log(
    table(
      ["bundle", "size", "× ref", "init (median)", "× ref", "init p25 – p75"],
      [
        row("reference (Hono + DynamoDBClient)", reference.bytes, reference.initSamples, reference.initMedianMs),
        ...functions.map((f) => row(`function ${f.name}`, f.bytes, f.initSamples, f.initMedianMs)),
      ],
    ),
  );
  for (const f of functions) {
    const growth = growthOverReference(f, reference)
      .slice(0, 6)
      .map(([name, extra]) => `${name} ${extra >= 0 ? "+" : ""}${kb(extra)}`);
    log(`  ${f.name} vs reference: ${kb(f.bytes - reference.bytes)} more; largest: ${growth.join(", ")}`);
  }
  for (const f of functions) {
    budgets.atMost(`bundle size, ${f.name}`, f.bytes / reference.bytes, 2, times, `${kb(f.bytes)}`);
    budgets.atMost(`module init, ${f.name}`, f.initMedianMs / reference.initMedianMs, 1.5, times, ms(f.initMedianMs));
  }
}

function seedSection(seed: SeedSummary): void {
  const rate = seed.count / (seed.durationMs / 1000);
  log(
    `seeded ${seed.count} issues in ${(seed.durationMs / 1000).toFixed(1)} s (${rate.toFixed(0)} issues/s, ` +
      `${ms(seed.durationMs / seed.count)} per create)`,
  );
  const fmt = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([key, value]) => `${key} ${value}`)
      .join(", ");
  log(`  status: ${fmt(seed.byStatus)}`);
  log(`  labels: ${fmt(seed.byLabel)}`);
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const spread = (counts: Record<string, number>) => {
    const values = Object.values(counts);
    return values.length === 0 ? "" : ` (${Math.min(...values)}–${Math.max(...values)} each)`;
  };
  log(`  with a projectId: ${sum(seed.byProject)} across ${Object.keys(seed.byProject).length} projects`);
  log(
    `  children: ${sum(seed.byParent)} of ${Object.keys(seed.byParent).length} parents (the first ${SEED_PARENTS} ` +
      `issues)${spread(seed.byParent)}`,
  );
  log(
    `  with a fingerprint: ${sum(seed.byFingerprint)} over ${Object.keys(seed.byFingerprint).length} fingerprints` +
      spread(seed.byFingerprint),
  );
  log(`  with "${TITLE_WORD}" in the title: ${seed.withTitleWord}`);
}

function capacity(row: CostRow, value: number): string {
  return row.capacityReported ? num(value) : "n/r";
}

/** The cost table, then whatever in it needs a word: missing capacity, wrong answers, filters, transactions. */
function printCostRows(rows: CostRow[]): void {
  const reported = rows.some((row) => row.capacityReported);
  const unreported = rows.filter((row) => !row.capacityReported);
  log(
    table(
      [
        "request",
        "status",
        "calls",
        "read CU",
        "write CU",
        "items/total",
        "per call: capacity [items returned/evaluated]",
      ],
      rows.map((row) => [
        row.label,
        String(row.status),
        String(row.calls),
        capacity(row, row.readCapacity),
        capacity(row, row.writeCapacity),
        row.returned === undefined ? "" : `${row.returned}/${row.total ?? "?"}`,
        breakdown(row.traced),
      ]),
    ),
  );
  log("  CU = capacity units as DynamoDB Local reported them (ReturnConsumedCapacity: TOTAL); n/r = not reported.");
  if (!reported) {
    log("  !! DynamoDB Local reported no ConsumedCapacity at all: capacity figures are NOT measured.");
  } else if (unreported.length > 0) {
    log(`  !! No ConsumedCapacity on some calls of: ${unreported.map((row) => row.label).join("; ")}`);
  }
  for (const row of rows.filter((r) => r.problem)) log(`  !! ${row.label}: ${row.problem}`);
  for (const row of rows.filter((r) => !meterAgrees(r))) {
    log(
      `  !! Db.usage() booked ${row.label} as ${row.usage.calls} calls, ${num(row.usage.readCapacity)} read / ` +
        `${num(row.usage.writeCapacity)} write CU; its calls reported ${row.traced.length} calls, ` +
        `${num(row.readCapacity)} read / ${num(row.writeCapacity)} write CU (table above).`,
    );
  }
  for (const row of rows) {
    const failed = row.traced.filter((call) => call.error !== undefined);
    if (failed.length > 0) {
      log(
        `  note: ${row.label}: ${failed.map((call) => `${call.command} failed (${call.error})`).join(", ")}; ` +
          "a failed call reports no capacity, so none is counted for it here, but on AWS a write whose " +
          "condition fails is still billed (≥ 1 WCU).",
      );
    }
    const oversized = oversizedQueries(row);
    const paging =
      oversized.length === 0
        ? ""
        : ` DynamoDB Local answered ${oversized.length === 1 ? "a Query" : `${oversized.length} Queries`} reading ` +
          `${oversized.map((call) => num(call.capacity ?? Number.NaN)).join(" + ")} CU (> 1 MB) in one call, as it ` +
          "applies the 1 MB page limit after the filter; DynamoDB stops each page at 1 MB read before filtering, so " +
          `on AWS this request makes ${callsOnAws(row)} calls, not ${row.calls}.`;
    const filtered = row.traced.filter(
      (c) => c.scanned !== undefined && c.returned !== undefined && c.scanned > c.returned,
    );
    if (filtered.length > 0) {
      const scanned = filtered.reduce((sum, c) => sum + (c.scanned ?? 0), 0);
      const returned = filtered.reduce((sum, c) => sum + (c.returned ?? 0), 0);
      const cu = filtered.reduce((sum, c) => sum + (c.capacity ?? 0), 0);
      const queries = filtered.length === 1 ? "one Query" : `${filtered.length} Query pages`;
      log(
        `  note: ${row.label}: ${queries} evaluated ${scanned} listing entries and the filter dropped ` +
          `${scanned - returned} (${num(cu)} CU): a combined filter walks its whole driving listing, ` +
          `so its cost grows with that listing, not with the page.${paging}`,
      );
    } else if (paging) {
      log(`  note: ${row.label}:${paging}`);
    }
    for (const call of row.traced.filter((c) => c.command === "TransactWriteItems" && c.requested !== undefined)) {
      log(
        `  note: ${row.label}: DynamoDB Local reported ${num(call.capacity ?? Number.NaN)} CU for a ${call.requested}-item ` +
          `TransactWriteItems; DynamoDB bills transactional writes at 2 WCU per item-KB, so ≥ ${2 * (call.requested ?? 0)} WCU on AWS.`,
      );
    }
  }
}

/**
 * Holds a row's calls to its kind's budget (ARCHITECTURE.md), or reports them when it is exempt;
 * counted as DynamoDB would page its queries (see {@link callsOnAws}).
 */
function budgetCalls(row: CostRow, budgets: BudgetReport): void {
  const what = row.kind === "receiver" ? `calls per delivery, ${row.label}` : `calls, ${row.label}`;
  const calls = callsOnAws(row);
  const paged =
    calls === row.calls ? "" : `${row.calls} on DynamoDB Local, which does not page filtered queries at 1 MB`;
  const figure =
    `${calls} call${calls === 1 ? "" : "s"}, ` +
    `${capacity(row, row.readCapacity)} read / ${capacity(row, row.writeCapacity)} write CU`;
  const note = (reason: string) => [reason, paged].filter(Boolean).join("; ");
  if (row.exempt) budgets.reported(what, figure, note(row.exempt));
  else if (row.kind === "list" || row.kind === "receiver") budgets.atMost(what, calls, 3, String, paged);
  else if (row.kind === "claim") budgets.atMost(what, calls, 3, String, note(claimCallsNote(row)));
  else if (row.kind === "get") budgets.atMost(what, calls, 1, String, paged);
  else budgets.reported(what, figure, note("no call budget for writes"));
}

function costSection(rows: CostRow[], pairs: RatioPair[], issues: number, budgets: BudgetReport): void {
  printCostRows(rows);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const scale = issues === BUDGET_ISSUES ? "" : `at ${issues} issues, budget is set at ${BUDGET_ISSUES}`;
  const ratio = (farKey: string, firstKey: string) => {
    const far = byKey.get(farKey);
    const first = byKey.get(firstKey);
    if (!far || !first || !far.capacityReported || !first.capacityReported || first.readCapacity === 0) {
      return { value: Number.NaN, note: "capacity not reported" };
    }
    return {
      value: far.readCapacity / first.readCapacity,
      note: `${num(far.readCapacity)} vs ${num(first.readCapacity)} read CU${scale ? `; ${scale}` : ""}`,
    };
  };
  log("");
  for (const { what, farKey, firstKey, indexed } of pairs) {
    if (!byKey.has(farKey) || !byKey.has(firstKey)) continue;
    const { value, note } = ratio(farKey, firstKey);
    const walked = indexed ? "" : byKey.get(farKey)?.exempt;
    log(`  capacity ratio, ${what}: ${times(value)} (${note})${walked ? ` — ${walked}` : ""}`);
    if (indexed) budgets.atMost(`capacity ratio, ${what}`, value, 5, times, note);
    else budgets.reported(`capacity ratio, ${what}`, times(value), `${note}; ${walked ?? "walked"}`);
  }
  for (const row of rows) budgetCalls(row, budgets);
}

/** Single requests: detail, writes, relations, comments, catalog, Idempotency-Key. */
function itemSection(rows: CostRow[], budgets: BudgetReport): void {
  printCostRows(rows);
  for (const row of rows) budgetCalls(row, budgets);
}

/** AWS write units of the writes ARCHITECTURE.md names: deliveries (opened, grouped, recorded), create, PATCH, review, claim. */
function writeUnitSection(rows: CostRow[], budgets: BudgetReport): void {
  const named = rows.filter(
    (row) =>
      row.kind === "receiver" ||
      /^(POST issue|PATCH)/.test(row.label) ||
      row.key.startsWith("review.") ||
      row.key.startsWith("claim."),
  );
  log("\nAWS write units per request, at least: 2 per item of a transaction, 1 per single-item write");
  log(
    table(
      ["request", "write units", "writes"],
      named.map((row) => [
        row.label,
        String(awsWriteUnits(row)),
        row.traced
          .filter((call) => call.kind === "write" && call.error === undefined)
          .map((call) => (call.command === "TransactWriteItems" ? `transaction of ${call.requested}` : call.command))
          .join(" + "),
      ]),
    ),
  );
  if (named.some((row) => row.key.startsWith("review."))) {
    log(
      "  A review's transaction: its version's count and score (conditional on the count read), its prompt's " +
        "reviewCount, and for each of its two listings (prompt=<id>, template=<id>) an entry and a spread count.\n" +
        "  The review that opens its version's improvement task (once per version) adds that issue's writes and a " +
        "check that its label exists;\n  the first such task of a table also creates the label first, in a " +
        "transaction of its own (its row above, costed apart).",
    );
  }
  const claim = named.find((row) => row.key.startsWith("claim."));
  const claimTransaction = claim?.traced.find((call) => call.command === "TransactWriteItems");
  if (claimTransaction) {
    log(
      "  A claim's transaction: the issue (to in_progress) with its listing entries and counts following it, its " +
        "queue entries removed with their counts, the dispatch with its listings and its lease, the prompt with its " +
        `listings, and counts beside its version;\n  its items by entity on this run: ${itemsByEntity(claimTransaction)}.`,
    );
  }
  for (const row of named) budgets.reported(`AWS write units, ${row.label}`, `≥ ${awsWriteUnits(row)}`);
}

/**
 * What a claim's calls were on this run, each with the partition it read (from the trace, so the
 * note follows the claim as it changes), and why they exceed the budget.
 */
function claimCallsNote(row: CostRow): string {
  const reads = row.traced.filter((call) => call.kind === "read");
  const writes = row.traced.filter((call) => call.kind === "write");
  const named = (calls: CostRow["traced"]) =>
    calls.map((call) => `${call.command} ${call.partitions.join(", ") || "?"}`).join(" · ");
  const transactions = writes
    .filter((call) => call.command === "TransactWriteItems")
    .map((call) => `a transaction of ${call.requested ?? "?"} items`);
  return (
    `${reads.length} reads (${named(reads)}), then ${transactions.join(" + ") || named(writes)}; ` +
    "a claim needs the queue head, the issue and its transaction (3 calls); the lease-expiry check and the reads " +
    "the prompt is rendered from (template selection, the issue's context) go past that"
  );
}

/** `issue 1 · issuelist 6 · issuecount 2 …`: the items of a transaction by the entity of their partition. */
function itemsByEntity(call: CostRow["traced"][number]): string {
  const counts = new Map<string, number>();
  for (const partition of call.partitions) {
    const entity = partition.split("#")[0] ?? partition;
    counts.set(entity, (counts.get(entity) ?? 0) + 1);
  }
  return [...counts].map(([entity, count]) => `${entity} ${count}`).join(" · ");
}

/** The claims' cost rows, their capacity ratio (long queue / short) against ≤ 1.5 and their calls against ≤ 3. */
function claimSection(costs: ClaimCosts, budgets: BudgetReport): void {
  const { few, many, queued } = costs;
  const rate = costs.seeded / (costs.seedMs / 1000);
  log(
    `  seeded ${costs.seeded} todo tasks in ${(costs.seedMs / 1000).toFixed(1)} s (${rate.toFixed(0)} issues/s); ` +
      "the first claim, which also seeds the default templates and warms the process's caches, is left out",
  );
  printCostRows(costs.rows);
  const consumed = (row: CostRow) => row.readCapacity + row.writeCapacity;
  const measured = few.capacityReported && many.capacityReported && consumed(few) > 0 && few.readCapacity > 0;
  const ratio = measured ? consumed(many) / consumed(few) : Number.NaN;
  const readRatio = measured ? many.readCapacity / few.readCapacity : Number.NaN;
  const scale = queued === BUDGET_ISSUES ? "" : `; at ${queued} queued, budget is set at ${BUDGET_ISSUES}`;
  const note = measured
    ? `${num(consumed(many))} vs ${num(consumed(few))} CU (read ${num(many.readCapacity)} vs ` +
      `${num(few.readCapacity)}: ${times(readRatio)}; write ${num(many.writeCapacity)} vs ${num(few.writeCapacity)})${scale}`
    : "capacity not reported";
  const what = `capacity ratio, claim with ${queued} queued / ${FEW_QUEUED} queued`;
  log(`\n  ${what}: ${times(ratio)} (${note})`);
  budgets.atMost(what, ratio, 1.5, times, note);
  for (const row of costs.rows) log(`  note: ${row.label}: ${claimCallsNote(row)}.`);
  for (const row of costs.rows) budgetCalls(row, budgets);
}

/**
 * The dashboard's cost rows at both sizes; the stats' capacity ratio (many issues / few) against ≤ 1.5 and
 * its calls with many issues against its calls with few; activity and prompts pages reported.
 */
function dashboardSection(costs: DashboardCosts, budgets: BudgetReport): void {
  const { few, many } = costs;
  const rate = costs.seeded / (costs.seedMs / 1000);
  log(
    `  sent ${costs.seeded} requests (issues and signals) in ${(costs.seedMs / 1000).toFixed(1)} s ` +
      `(${rate.toFixed(0)}/s); the default templates seeded first, so the prompts page has rows`,
  );
  printCostRows([few.stats, many.stats, few.activity, many.activity, few.prompts, many.prompts]);
  const consumed = (row: CostRow) => row.readCapacity + row.writeCapacity;
  const scale = many.issues === BUDGET_ISSUES ? "" : `; at ${many.issues} issues, budget is set at ${BUDGET_ISSUES}`;
  const ratioOf = (a: CostRow, b: CostRow) => {
    const measured = a.capacityReported && b.capacityReported && consumed(b) > 0;
    return {
      value: measured ? consumed(a) / consumed(b) : Number.NaN,
      note: measured ? `${num(consumed(a))} vs ${num(consumed(b))} CU${scale}` : "capacity not reported",
    };
  };
  const items = (row: CostRow) =>
    row.traced
      .map((call) => `${call.partitions.join(", ") || "?"} ${call.returned ?? "?"} items`)
      .sort()
      .join(" · ");
  const stats = ratioOf(many.stats, few.stats);
  const what = `capacity ratio, dashboard stats with ${many.issues} issues / ${few.issues} issues`;
  log(
    `\n  ${what}: ${times(stats.value)} (${stats.note}; count items read: ${items(few.stats)} vs ${items(many.stats)})`,
  );
  log(
    "  The seed's creates are sent a few at a time without conflict emulation, so each count stays one item here; a " +
      "count a burst conflicted on spreads over up to 64 items (db/spread.ts), read by the same query: more items, " +
      "bounded by the number of counts, not of issues.",
  );
  budgets.atMost(what, stats.value, 1.5, times, stats.note);
  // Calls do not depend on the issues: the counts, the manual sources, and one query per signal source.
  budgets.atMost(
    `calls, ${many.stats.label} vs ${few.stats.label}`,
    callsOnAws(many.stats),
    callsOnAws(few.stats),
    String,
    `${callsOnAws(few.stats)} calls with ${few.issues} issues: the counts, the manual sources, one query per signal source`,
  );
  for (const [name, a, b] of [
    ["activity page 1", many.activity, few.activity],
    ["prompts page 1", many.prompts, few.prompts],
  ] as const) {
    const ratio = ratioOf(a, b);
    const figure = `${a.calls} / ${b.calls} calls, ${times(ratio.value)} capacity`;
    log(`  ${name}, ${many.issues} issues vs ${few.issues}: ${figure} (${ratio.note})`);
    budgets.reported(`dashboard ${name}, ${many.issues} vs ${few.issues} issues`, figure, ratio.note);
  }
}

/** A plain task issue made through the API, for a prompt of the default task-execution template. */
async function createTaskIssue(app: ReturnType<typeof createApp>, apiKey: string): Promise<string> {
  const response = await app.request("http://localhost/api/issues", {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title: "Benchmark task to review a prompt of", type: "task", priority: 3 }),
  });
  const id = ((await response.json()) as { data?: { id?: string } }).data?.id;
  if (response.status !== 201 || !id) throw new Error(`POST /api/issues answered ${response.status}`);
  return id;
}

function receiverSection(rows: CostRow[], budgets: BudgetReport): void {
  printCostRows(rows);
  for (const row of rows) {
    const ahead = row.traced.findIndex((call) => call.command === "TransactWriteItems");
    const puts = row.traced.slice(0, Math.max(0, ahead)).filter((call) => call.command === "PutItem").length;
    if (puts > 0) {
      log(
        `  note: ${row.label}: ${puts} PutItem calls wrote the payload's chunks ahead of the transaction ` +
          `(gzipped payloads over ${num(PAYLOAD_IN_TRANSACTION_BYTES / 1e6)} MB do not fit in one, by design), ` +
          `so this delivery makes ${row.calls} calls; it is reported, not held to ≤ 3.`,
      );
    }
  }
  for (const row of rows) budgetCalls(row, budgets);
}

function signalSeedSection(seed: SignalSeedSummary): void {
  const rate = seed.count / (seed.durationMs / 1000);
  log(
    `seeded ${seed.count} recorded pushes in ${(seed.durationMs / 1000).toFixed(1)} s (${rate.toFixed(0)} signals/s, ` +
      `${ms(seed.durationMs / seed.count)} per ingest)`,
  );
}

function signalReadSection(rows: CostRow[], budgets: BudgetReport): void {
  printCostRows(rows);
  const first = rows.find((row) => row.key === "signals.p1");
  const far = rows.find((row) => row.key === "signals.far");
  if (first && far && first.capacityReported && far.capacityReported && first.readCapacity > 0) {
    const ratio = far.readCapacity / first.readCapacity;
    const buckets = far.traced[0]?.returned ?? Number.NaN;
    const note =
      `${num(far.readCapacity)} vs ${num(first.readCapacity)} read CU; signals are counted per hour and these ` +
      `${far.total} fill ${num(buckets)} hourly bucket(s), and a page walks at most half of its bucket, from the nearer end`;
    log(`\n  capacity ratio, signals ${far.label.replace(/^signals list, /, "")} / page 1: ${times(ratio)} (${note})`);
    budgets.reported(
      `capacity ratio, signals ${far.label.replace(/^signals list, /, "")} / page 1`,
      times(ratio),
      note,
    );
  }
  for (const row of rows) budgetCalls(row, budgets);
}

function throughputSection(rows: ThroughputRow[], budgets: BudgetReport): void {
  log(
    table(
      ["endpoint", "req/s", "p50", "p99", "mean", "requests", "errors", "non-2xx", "statuses"],
      rows.map((row) => [
        row.name,
        num(row.requestsPerSecond, 0),
        ms(row.p50Ms, 0),
        ms(row.p99Ms, 0),
        ms(row.meanMs),
        String(row.requests),
        String(row.errors),
        String(row.non2xx),
        statusCounts(row.statuses),
      ]),
    ),
  );
  log("  p50/p99: autocannon (1 ms resolution, 2xx only); mean = connections ÷ req/s (Little's law).");
  for (const row of rows.filter((r) => r.expectStatus !== undefined)) {
    const other = Object.entries(row.statuses).filter(([status]) => Number(status) !== row.expectStatus);
    if (other.length > 0) {
      log(`  !! ${row.name}: expected every response to be ${row.expectStatus}, got ${statusCounts(row.statuses)}`);
    }
  }
  log("");
  log("DynamoDB Local share of request latency");
  log(
    table(
      [
        "endpoint",
        "mean latency",
        "in handler",
        "DDB calls/req",
        "DDB ms/req (in server)",
        "share",
        "direct, 1 loop",
        "share",
        "direct, 10 loops",
        "share",
      ],
      rows.map((row) => {
        const s = row.server;
        const callsPerRequest = s.requests > 0 ? s.dynamoCalls / s.requests : Number.NaN;
        const inServer = s.requests > 0 ? s.dynamoMs / s.requests : Number.NaN;
        const cells = [
          row.name,
          ms(row.meanMs),
          ms(s.handlerMs / s.requests, 2),
          num(callsPerRequest, 3),
          ms(inServer, 2),
          percent(inServer / row.meanMs),
        ];
        for (const direct of row.direct) {
          // Scale the direct sequence to the calls a request actually made (GET /health caches its check).
          const perRequest = direct.meanMs * (callsPerRequest / direct.callsPerOp);
          cells.push(`${ms(perRequest, 2)} (${num(direct.opsPerSecond, 0)}/s)`, percent(perRequest / row.meanMs));
        }
        return cells;
      }),
    ),
  );
  log(
    "  in server: wall time inside DynamoDB client calls, per request, during the run; direct: the same data-layer\n" +
      "  calls made from the bench process in 1 or 10 concurrent loops (no HTTP, no Hono), per request's worth of calls.",
  );
  log("");
  log("DynamoDB calls per request in the server, by command (and of those, the ones that failed, by how)");
  for (const row of rows.filter((r) => r.server.dynamoCalls > 0)) log(`  ${row.name}: ${commandMix(row.server)}`);
  for (const row of rows) {
    const s = row.server;
    const failed = Object.values(s.byCommand).reduce(
      (sum, counts) => sum + Object.values(counts.failures).reduce((a, b) => a + b, 0),
      0,
    );
    budgets.reported(
      `throughput, ${row.name}`,
      `${num(row.requestsPerSecond, 0)} req/s, p50 ${ms(row.p50Ms, 0)}, p99 ${ms(row.p99Ms, 0)}`,
      `DDB Local share ${percent(s.dynamoMs / s.requests / row.meanMs)} (in server), ` +
        `${num(s.dynamoCalls / s.requests, 2)} DDB calls/req` +
        (failed > 0 ? ` (${num(failed / s.requests, 2)} failed: races lost and retried)` : ""),
    );
  }
}

/**
 * `BatchGetItem 1.21 · TransactWriteItems 1.21 (failed: 0.21 TransactionCanceled: ConditionalCheckFailed)`:
 * calls per request of each command, and of its failures by how they failed.
 */
function commandMix(stats: ThroughputRow["server"]): string {
  const perRequest = (n: number) => num(n / stats.requests, 2);
  return Object.entries(stats.byCommand)
    .filter(([, counts]) => counts.calls > 0)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([command, counts]) => {
      const failures = Object.entries(counts.failures)
        .filter(([, n]) => n > 0)
        .map(([how, n]) => `${perRequest(n)} ${how}`);
      return `${command} ${perRequest(counts.calls)}${failures.length > 0 ? ` (failed: ${failures.join(", ")})` : ""}`;
    })
    .join(" · ");
}

/** `201×1234 200×5`, most frequent first. */
function statusCounts(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .sort((a, b) => b[1] - a[1])
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");
}

function burstSection(rows: BurstRow[], budgets: BudgetReport): void {
  log(
    table(
      [
        "burst",
        "AWS conflicts",
        "one after another",
        "all at once",
        "ratio",
        "budget",
        "at once p50 / p99",
        "calls / request (conflicts)",
        "5xx",
      ],
      rows.map((row) => {
        const runs = row.concurrent;
        const requests = runs.reduce((sum, r) => sum + r.answers.length, 0);
        const calls = runs.reduce((sum, r) => sum + r.dynamoCalls, 0) / requests;
        const conflicts = runs.reduce((sum, r) => sum + r.conflicts, 0) / requests;
        return [
          row.name,
          row.emulation ? "emulated" : "off",
          ms(row.serialWallMs, 0),
          ms(row.concurrentWallMs, 0),
          times(row.ratio),
          `≤ ${row.emulation ? "1.5" : "1.0"} ×`,
          `${ms(row.p50Ms, 0)} / ${ms(row.p99Ms, 0)}`,
          `${num(calls, 2)} (${num(conflicts, 2)})`,
          String(row.fiveXx),
        ];
      }),
    ),
  );
  log(
    "  Walls are medians over the rounds; a round sends one run each way, in alternating order, each with its own " +
      "titles, fingerprints and delivery ids. calls / request counts every DynamoDB call the server made during the " +
      "concurrent runs, failed ones included; conflicts are the calls cancelled by an (emulated) TransactionConflict.",
  );
  if (rows.some((row) => row.name.includes("/api/dispatch/claim"))) {
    log(
      `  The claims burst sends ${CLAIMS} claims (the dispatch issue's own target) against ≥ ${ELIGIBLE} eligible issues, topped ` +
        "up before each run; claims take turns in the server process, so all at once they overlap only their HTTP, " +
        "parsing and response work.",
    );
  }
  for (const row of rows) {
    const mode = row.emulation ? "conflicts emulated" : "conflicts off";
    for (const problem of row.problems) log(`  !! ${row.name} (${mode}): ${problem}`);
    if (row.unexpected > 0) log(`  !! ${row.name} (${mode}): ${row.unexpected} answers with an unexpected status`);
    budgets.atMost(`burst ratio, ${row.name}, ${mode}`, row.ratio, row.emulation ? 1.5 : 1.0, times, burstNote(row));
    budgets.atMost(`burst 5xx, ${row.name}, ${mode}`, row.fiveXx, 0, String);
  }
}

/**
 * What a burst's ratio rests on: each round's own ratio (how far the noise of a shared machine
 * moves it), and for claims, why all at once cannot beat one after another by much.
 */
function burstNote(row: BurstRow): string {
  const rounds = row.concurrent.map((run, i) => run.wallMs / (row.serial[i]?.wallMs ?? Number.NaN));
  const note = `rounds: ${rounds.map(times).join(", ")}`;
  return row.name.includes("/api/dispatch/claim")
    ? `${note}; claims take turns in the server process by design (one claim per issue without racing), so ` +
        "all at once saves only their HTTP, parsing and response work: about 1.0× is the floor, and noise moves it either way"
    : note;
}

/**
 * Every burst case against a fresh table and server per conflict mode (off, then emulated): the
 * creates and deliveries of {@link burstCases}, the reviews of one version ({@link reviewBurst}),
 * then {@link CLAIMS} claims against at least {@link ELIGIBLE} eligible issues ({@link claimBurst}).
 */
async function measureBursts(endpoint: string, apiKey: string): Promise<BurstRow[]> {
  const size = intEnv("BENCH_BURST", 100, 4);
  const rounds = intEnv("BENCH_BURST_ROUNDS", 3, 1);
  const rows: BurstRow[] = [];
  let runNumber = 0;
  for (const emulation of [false, true]) {
    const tableName = `${TABLE_NAME}_bursts_${emulation ? "aws" : "local"}`;
    const setup = createDb({ tableName, region: "us-east-1", endpoint });
    await waitForDatabase(setup);
    await ensureTable(setup);
    setup.client.destroy();
    const server = await startBenchServer({
      root: ROOT,
      port: await freePort(),
      endpoint,
      tableName,
      apiKey,
      webhookSecrets: BENCH_WEBHOOK_SECRETS,
      emulateConflicts: emulation,
    });
    const reviews = reviewBurst({ url: server.url, apiKey, size, tableName, endpoint });
    try {
      const claims = claimBurst({ url: server.url, apiKey });
      for (const burst of [...burstCases(apiKey, size), reviews.burst, claims]) {
        log(`  ${burst.name}, conflicts ${emulation ? "emulated" : "off"}… (${loadNote()})`);
        rows.push(await measureBurst(server, burst, { emulation, rounds, nextRun: () => ++runNumber }));
      }
    } finally {
      reviews.close();
      await server.stop();
    }
  }
  return rows;
}

/** One section alone, on a DynamoDB Local of its own, with its budgets. */
async function sectionOnly(
  title: string,
  run: (endpoint: string, apiKey: string, budgets: BudgetReport) => Promise<void>,
): Promise<void> {
  const budgets = new BudgetReport();
  const dynamo = await startDynamoDbLocal();
  try {
    log(heading(title));
    await run(dynamo.endpoint, generateApiKey(), budgets);
    log(budgets.render());
  } finally {
    await dynamo.stop();
  }
}

function burstsOnly(): Promise<void> {
  return sectionOnly(
    "Bursts: the same requests one after another and all at once (local server, DynamoDB Local)",
    async (endpoint, apiKey, budgets) => burstSection(await measureBursts(endpoint, apiKey), budgets),
  );
}

/** The claim costs alone, at BENCH_ISSUES queued, with their write units. */
function claimsOnly(): Promise<void> {
  const queued = intEnv("BENCH_ISSUES", BUDGET_ISSUES, 1);
  return sectionOnly(
    `Dispatch claims: one claim with ${FEW_QUEUED} and with ${queued} issues queued`,
    async (endpoint, apiKey, budgets) => {
      const costs = await claimCosts(endpoint, apiKey, queued);
      claimSection(costs, budgets);
      writeUnitSection(costs.rows, budgets);
    },
  );
}

/** The dashboard costs alone, at 10 and BENCH_ISSUES issues. */
function dashboardOnly(): Promise<void> {
  const issues = intEnv("BENCH_ISSUES", BUDGET_ISSUES, 1);
  return sectionOnly(
    `Dashboard: stats, activity and prompts with ${FEW_ISSUES} and with ${issues} issues`,
    async (endpoint, apiKey, budgets) => dashboardSection(await dashboardCosts(endpoint, apiKey, issues), budgets),
  );
}

/** A table of the bench's own for one section, once DynamoDB Local answers, and the service configuration for it. */
async function sideTable(name: string, endpoint: string, apiKey: string) {
  const tableName = `${TABLE_NAME}_${name}`;
  const probe = createDb({ tableName, region: "us-east-1", endpoint });
  await waitForDatabase(probe);
  probe.client.destroy();
  const config = {
    ...loadConfig({ env: { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint } }),
    serviceApiKey: apiKey,
  };
  return { tableName, config };
}

/** Costs the dashboard against a table of its own (./dashboard-costs.ts). */
async function dashboardCosts(endpoint: string, apiKey: string, issues: number): Promise<DashboardCosts> {
  const { tableName, config } = await sideTable("dashboard", endpoint, apiKey);
  log(`  table ${tableName}; ${FEW_ISSUES} issues and their signals, then the requests…`);
  return measureDashboardCosts({ endpoint, tableName, config, apiKey, issues, progress, log });
}

/** Costs the claims against a table of their own (./claim-costs.ts). */
async function claimCosts(endpoint: string, apiKey: string, queued: number): Promise<ClaimCosts> {
  const { tableName, config } = await sideTable("claims", endpoint, apiKey);
  log(`  table ${tableName}; queueing ${FEW_QUEUED + 1} issues, a warm-up claim, then the claim with ${FEW_QUEUED}…`);
  return measureClaimCosts({ endpoint, tableName, config, apiKey, queued, progress, log });
}

async function bundlesOnly(): Promise<void> {
  const budgets = new BudgetReport();
  const initRuns = intEnv("BENCH_INIT_RUNS", 21, 10);
  const tmp = mkdtempSync(join(tmpdir(), "kaizen-bench-"));
  try {
    log(`building the reference and the function bundles… (${loadNote()})`);
    bundleSection(await measureBundles(tmp, initRuns, log), budgets, "npm run bench -- --bundles");
    log(budgets.render());
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--bursts")) return burstsOnly();
  if (process.argv.includes("--bundles")) return bundlesOnly();
  if (process.argv.includes("--claims")) return claimsOnly();
  if (process.argv.includes("--dashboard")) return dashboardOnly();
  const issues = intEnv("BENCH_ISSUES", BUDGET_ISSUES, 1);
  const initRuns = intEnv("BENCH_INIT_RUNS", 21, 10);
  const loadSeconds = intEnv("BENCH_THROUGHPUT_SECONDS", 10, 1);
  const signals = intEnv("BENCH_SIGNALS", 3_000, 1);
  const budgets = new BudgetReport();
  const cpu = cpus();
  const machine = `node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${new Date().toISOString()}`;
  log(`Kaizen bench — ${machine}`);
  const settings = `issues: ${issues}, signals: ${signals}, init runs: ${initRuns}, load: ${loadSeconds} s per endpoint`;
  log(`${settings}; ${loadNote()}`);
  const run = {
    BENCH_ISSUES: issues,
    BENCH_SIGNALS: signals,
    BENCH_INIT_RUNS: initRuns,
    BENCH_THROUGHPUT_SECONDS: loadSeconds,
    BENCH_BURST: intEnv("BENCH_BURST", 100, 4),
    BENCH_BURST_ROUNDS: intEnv("BENCH_BURST_ROUNDS", 3, 1),
    BENCH_LOAD_SECONDS: loadSettings().seconds,
  };
  const full = benchCommand(run);
  report = new MarkdownReport([
    `machine: ${machine}`,
    `settings: ${settings}; ${loadNote()} at the start`,
    `command: \`${full}\``,
  ]);

  const tmp = mkdtempSync(join(tmpdir(), "kaizen-bench-"));
  let dynamo: RunningDynamoDb | undefined;
  let server: BenchServer | undefined;
  try {
    log(`\nbuilding the reference and the function bundles… (${loadNote()})`);
    bundleSection(
      await measureBundles(tmp, initRuns, log),
      budgets,
      `${benchCommand({ BENCH_INIT_RUNS: initRuns }, "--bundles")} (alone), or ${full}`,
    );

    section(
      `2. Data-layer costs at ${issues} issues (in-process app.request, DynamoDB Local in memory)`,
      `${full} (claims alone: ${benchCommand({ BENCH_ISSUES: issues }, "--claims")}; dashboard alone: ` +
        `${benchCommand({ BENCH_ISSUES: issues }, "--dashboard")})`,
    );
    dynamo = await startDynamoDbLocal();
    const connection = { tableName: TABLE_NAME, region: "us-east-1", endpoint: dynamo.endpoint };
    const seedDb = createDb(connection);
    await waitForDatabase(seedDb);
    await ensureTable(seedDb);
    log(`DynamoDB Local at ${dynamo.endpoint}, table ${TABLE_NAME}; seeding…`);
    const seed = await seedIssues(new IssueStore(seedDb), new CatalogService(seedDb), issues, progress(issues));
    seedSection(seed);

    const apiKey = generateApiKey();
    const config = {
      ...loadConfig({ env: { TABLE_NAME, DYNAMODB_ENDPOINT: dynamo.endpoint } }),
      serviceApiKey: apiKey,
      webhookSecrets: BENCH_WEBHOOK_SECRETS,
    };
    const db = createDb(connection);
    const trace = traceDynamo(db.client);
    const logger = new Logger({ serviceName: "kaizen-bench", logLevel: "SILENT" });
    const app = createApp(ALL_FAMILIES, { config, db, logger });
    log("\nIssue lists: page 1 against page 500 (or the last page where fewer exist); budget ≤ 3 calls and a capacity");
    log("ratio ≤ 5 where bucket counts serve the list, reported where it is walked");
    const listRows = await measureCosts(app, db, trace, apiKey, [...costCases(seed), ...issueListCases(seed)]);
    costSection(listRows, [...costRatios(seed), ...issueListRatios(seed)], issues, budgets);

    log(
      "\nSingle requests on issues, relations, comments and the catalog (budget: get by iss_ id of a root issue, 1 call)",
    );
    const measure = (item: CostCase) => measureCost(app, db, trace, apiKey, item);
    const itemRows = await measureIssueItemCosts(measure, seed);
    itemSection(itemRows, budgets);

    log(
      "\nPrompt reviews: three reviews of one prompt of the default task-execution version (the prompt recorded " +
        "in-process, as a claim will record it)",
    );
    const reviewRows = await measureReviewCosts({
      measure,
      createIssue: () => createTaskIssue(app, apiKey),
      engine: promptEngine({ config, db: seedDb }),
      db: seedDb,
    });
    itemSection(reviewRows, budgets);

    log(
      `\nDispatch claims: one claim with ${FEW_QUEUED} and with ${issues} todo issues queued (budget: ≤ 3 calls; ` +
        `capacity ratio ≤ 1.5)`,
    );
    const claims = await claimCosts(dynamo.endpoint, apiKey, issues);
    claimSection(claims, budgets);

    log(
      `\nDashboard: GET /api/dashboard/stats with ${FEW_ISSUES} and with ${issues} issues (budget: the same cost, ` +
        "capacity ratio ≤ 1.5; as many calls at both sizes), and one activity and one prompts page at both sizes (reported)",
    );
    dashboardSection(await dashboardCosts(dynamo.endpoint, apiKey, issues), budgets);

    log("\nWebhook receivers: one signed delivery each (DynamoDB calls per delivery; budget ≤ 3)");
    const receiverRows = await measureCosts(app, db, trace, apiKey, receiverCases());
    receiverSection(receiverRows, budgets);
    writeUnitSection([...receiverRows, ...itemRows, ...reviewRows, ...claims.rows], budgets);

    log(`\nseeding ${signals} signals (recorded pushes) through SignalService.ingest…`);
    const signalSeed = await seedSignals(new SignalService(seedDb), signals, progress(signals));
    signalSeedSection(signalSeed);
    log("");
    const readCases = signalReadCases(receiverRows, signalSeed.ids);
    signalReadSection(await measureCosts(app, db, trace, apiKey, readCases), budgets);

    section(
      `3. Local server throughput (autocannon, 10 connections, ${loadSeconds} s, 127.0.0.1, ${issues} issues)`,
      full,
    );
    server = await startBenchServer({
      root: ROOT,
      port: await freePort(),
      endpoint: dynamo.endpoint,
      tableName: TABLE_NAME,
      apiKey,
      webhookSecrets: BENCH_WEBHOOK_SECRETS,
    });
    const directDb = createDb(connection);
    const directStore = new IssueStore(directDb);
    const rows: ThroughputRow[] = [];
    const targets: Target[] = [
      {
        label: "list",
        path: "/api/issues?page=1&limit=20",
        direct: () => directStore.list({ sort: "-createdAt", offset: 0, limit: 20 }),
      },
      { label: "health", path: "/health", direct: () => directDb.get(HEALTH_KEY) },
      groupedDeliveriesTarget(directDb),
      duplicateDeliveryTarget(directDb),
    ];
    for (const target of targets) {
      log(`  loading ${targetName(target)}… (${loadNote()})`);
      rows.push(
        await measureThroughput({
          server,
          db: directDb,
          apiKey,
          target,
          connections: 10,
          durationS: loadSeconds,
          directDurationMs: Math.max(2_000, (loadSeconds * 1000) / 2),
        }),
      );
    }
    throughputSection(rows, budgets);
    await server.stop();
    server = undefined;

    section(
      "4. Bursts: the same requests one after another and all at once (local server)",
      `${benchCommand({ BENCH_BURST: run.BENCH_BURST, BENCH_BURST_ROUNDS: run.BENCH_BURST_ROUNDS }, "--bursts")} (alone), or ${full}`,
    );
    burstSection(await measureBursts(dynamo.endpoint, apiKey), budgets);

    const load = loadSettings();
    section(
      `6. Sustained mixed load (${load.seconds} s; ./load.ts) and its audit`,
      `${benchCommand(
        {
          BENCH_LOAD_SECONDS: load.seconds,
          BENCH_LOAD_CONNECTIONS: load.connections,
          BENCH_LOAD_AGENTS: load.agents,
        },
        "",
        "bench:load",
      )} (alone), or ${full}`,
    );
    const loadReport = await runLoad({ ...load, command: full, log });
    log(renderLoadReport(loadReport));
    loadBudgets(loadReport, budgets);

    // The report opens with its own budget table: printed only.
    console.log(heading("5. Budgets"));
    console.log(budgets.render());
    const over = budgets.over;
    console.log(
      over.length === 0
        ? "\nAll measured figures are within budget."
        : `\nOVER BUDGET (${over.length}): ${over.map((line) => `${line.what} = ${line.figure}`).join("; ")}`,
    );
    const written = report.write(join(ROOT, "bench"), budgets);
    console.log(`\nwrote ${relative(ROOT, written.report)} and ${relative(ROOT, written.chart)}`);
  } finally {
    await server?.stop();
    await dynamo?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
