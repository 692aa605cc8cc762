/**
 * @module bench/bursts — the same requests sent one after another and all at once, against the local
 * server in both models (one app in one process, and a fleet of one-request instances as Lambda runs
 * them) with AWS's transaction conflicts off and emulated (docs/contributing.md#budgets: all at once ≤ 1.0 × one
 * after another with emulation off, ≤ 1.5 × with it on, no 5xx): creates, deliveries of many
 * fingerprints, of one, and of ids sent 4 times, reviews of one template version, claims, and
 * activities each on its own dispatch; activities to one dispatch take turns by design, so their
 * ratio is reported, with no 5xx allowed either. Every run sends what no other run sent, prepared
 * before it is timed; rounds alternate which side goes first.
 */
import { atMost, BUDGETS, type BudgetLine, overWhen, reported } from "./budgets.js";
import { type BurstCase, type BurstRequest, burstCases } from "./burst-cases.js";
import { conflictsIn } from "./dynamo-trace.js";
import { BENCH_MODELS, type BenchModel } from "./env.js";
import { ms, num, quantile, statusCounts, table, times } from "./format.js";
import { type BenchServer, type Reply, send, startBenchServer } from "./http.js";
import { type BenchContext, benchTable, type Section } from "./section.js";

interface Run {
  wallMs: number;
  answers: Reply[];
  /** DynamoDB calls the server made during the run (failed ones included), and transactions refused as conflicting. */
  calls: number;
  conflicts: number;
  /** Apps the server made during the run: instances the fleet launched because every one was busy. */
  launched: number;
}

async function timedRun(server: BenchServer, requests: BurstRequest[], together: boolean): Promise<Run> {
  const before = await server.stats();
  const started = performance.now();
  const answers: Reply[] = [];
  if (together) answers.push(...(await Promise.all(requests.map((request) => send(server.url, request)))));
  else for (const request of requests) answers.push(await send(server.url, request));
  const wallMs = performance.now() - started;
  const after = await server.stats();
  return {
    wallMs,
    answers,
    calls: after.calls - before.calls,
    conflicts: conflictsIn(after) - conflictsIn(before),
    launched: after.instances - before.instances,
  };
}

/** `answers` counted by status ("no answer" for those that got none). */
function statusesOf(answers: Reply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status ?? "no answer"] = (counts[status ?? "no answer"] ?? 0) + 1;
  return counts;
}

/** What is wrong with one run of `burst`: answers of a status it does not expect, and its own check. */
function problemsOf(burst: BurstCase, run: Run): string[] {
  const problems: string[] = [];
  const wrong = run.answers.filter((answer) => !burst.expect.includes(answer.status ?? 0));
  if (wrong.length > 0) {
    const first = wrong.find((answer) => answer.status !== null);
    const body = first ? `, first: ${String(JSON.stringify(first.body)).slice(0, 200)}` : "";
    problems.push(
      `${wrong.length} answers not ${burst.expect.join(" or ")} (${statusCounts(statusesOf(wrong))})${body}`,
    );
  }
  const problem = burst.verify?.(run.answers);
  if (problem) problems.push(problem);
  return problems;
}

interface BurstRow {
  /** The case's place in {@link burstCases}, to print the models and modes of one case together. */
  order: number;
  /** `100 × claim (≥ 200 eligible), fleet, emulation on` */
  label: string;
  burst: string;
  route: string;
  model: BenchModel;
  emulation: boolean;
  serial: Run[];
  concurrent: Run[];
  problems: string[];
  /** Apps the server held after the case's runs. */
  instances: number;
  /** Why the case's ratio is reported rather than budgeted ({@link BurstCase.unbounded}). */
  unbounded: string | undefined;
}

/**
 * Every burst case, `rounds` times each way, against a server of `model` (on a table of its own)
 * with conflict emulation on or off; `nextRun` numbers the runs.
 */
async function burstsOn(
  ctx: BenchContext,
  model: BenchModel,
  emulation: boolean,
  nextRun: () => number,
): Promise<BurstRow[]> {
  const { BENCH_BURST: size, BENCH_BURST_ROUNDS: rounds, BENCH_BURST_ONLY: only } = ctx.settings;
  // One table for every model and mode, made once: its change stream feeds the events delivered beside
  // the bursts, and DynamoDB Local slows the writes of a streamed table by every stream record it held
  // before that table's first one (core/src/db/stream-reader.ts), which a table per run would pile up.
  const { tableName, endpoint } = await ctx.shared("bursts-table", () => benchTable(ctx, "bursts", { stream: true }));
  const server = await startBenchServer({
    endpoint,
    tableName,
    apiKey: ctx.apiKey,
    emulateConflicts: emulation,
    model,
    events: true,
  });
  const rows: BurstRow[] = [];
  try {
    for (const [order, burst] of burstCases(server.url, ctx.apiKey, size).entries()) {
      if (!burst.name.includes(only)) continue;
      const count = burst.count ?? size;
      const label = `${count} × ${burst.name}, ${model}, emulation ${emulation ? "on" : "off"}`;
      ctx.log(`  ${label}…`);
      const row: BurstRow = {
        order,
        label,
        burst: `${count} × ${burst.name}`,
        route: burst.route,
        model,
        emulation,
        serial: [],
        concurrent: [],
        problems: [],
        instances: 0,
        unbounded: burst.unbounded,
      };
      for (let round = 0; round < rounds; round++) {
        for (const together of round % 2 === 0 ? [false, true] : [true, false]) {
          const result = await timedRun(server, await burst.requests(nextRun()), together);
          (together ? row.concurrent : row.serial).push(result);
          row.problems.push(...problemsOf(burst, result));
        }
      }
      row.instances = (await server.stats()).instances;
      rows.push(row);
    }
    const stats = await server.stats();
    if (model === "fleet") {
      ctx.log(`  fleet, emulation ${emulation ? "on" : "off"}: ${stats.instances} instances launched`);
    }
    // The outbound events of every case's writes were read from the stream and delivered meanwhile.
    ctx.log(
      `  ${model}, emulation ${emulation ? "on" : "off"}: ${stats.eventsDelivered} events delivered beside the bursts`,
    );
  } finally {
    await server.stop();
  }
  return rows;
}

const median = (runs: Run[]) =>
  quantile(
    runs.map((r) => r.wallMs),
    0.5,
  );
const ratioOf = (row: BurstRow) => median(row.concurrent) / median(row.serial);
const perRequest = (runs: Run[], pick: (r: Run) => number) =>
  runs.reduce((sum, r) => sum + pick(r), 0) / runs.reduce((sum, r) => sum + r.answers.length, 0);
const sum = (runs: Run[], pick: (r: Run) => number) => runs.reduce((total, r) => total + pick(r), 0);

function burstTable(rows: BurstRow[]): string {
  return table(
    [
      "burst",
      "model",
      "AWS conflicts",
      "one after another",
      "all at once",
      "ratio",
      "at once p50 / p99",
      "calls / request (conflicts)",
      "instances (new)",
    ],
    rows.map((row) => {
      const latencies = row.concurrent.flatMap((r) => r.answers.map((answer) => answer.ms));
      const calls = num(
        perRequest(row.concurrent, (r) => r.calls),
        2,
      );
      const conflicts = num(
        perRequest(row.concurrent, (r) => r.conflicts),
        2,
      );
      const launched = sum([...row.serial, ...row.concurrent], (r) => r.launched);
      return [
        row.burst,
        row.model,
        row.emulation ? "emulated" : "off",
        ms(median(row.serial), 0),
        ms(median(row.concurrent), 0),
        times(ratioOf(row)),
        `${ms(quantile(latencies, 0.5), 0)} / ${ms(quantile(latencies, 0.99), 0)}`,
        `${calls} (${conflicts})`,
        `${row.instances} (+${launched})`,
      ];
    }),
  );
}

export const burstsSection: Section = {
  name: "bursts",
  title:
    "Bursts: the same requests one after another and all at once (one server, and a fleet of one-request instances)",
  async run(ctx) {
    const rows: BurstRow[] = [];
    let run = 0;
    for (const model of BENCH_MODELS) {
      for (const emulation of [false, true]) rows.push(...(await burstsOn(ctx, model, emulation, () => ++run)));
    }
    // The models and modes of one case together (the sort is stable).
    rows.sort((a, b) => a.order - b.order);
    ctx.log(burstTable(rows));
    ctx.log(
      [...new Map(rows.map((row) => [row.burst, row.route]))]
        .map(([burst, route]) => `  ${burst}: ${route}`)
        .join("\n"),
    );
    ctx.log(
      "  Walls are medians over the rounds; calls / request counts every DynamoDB call made while all were sent at once (by\n" +
        "  the server, or by every instance of the fleet), failed ones included; conflicts are transactions refused as AWS\n" +
        "  would (emulated). instances: apps the server held after the case (the fleet launches one whenever every one is\n" +
        "  busy and keeps them, as Lambda keeps warm instances), and how many the case's runs launched. In the fleet model\n" +
        "  nothing in-process is shared: what keeps bursts apart is in the data (claimers ranked by arrival, reviews\n" +
        "  numbered and folded behind their writes, a storm's signals folded by the delivery whose signal waits longest).",
    );
    const lines: BudgetLine[] = [];
    for (const row of rows) {
      for (const problem of [...new Set(row.problems)]) {
        ctx.log(`  !! ${row.label}: ${problem}`);
        ctx.fail(`burst ${row.label}: ${problem}`);
      }
      const answers = [...row.serial, ...row.concurrent].flatMap((r) => r.answers);
      const fiveXx = answers.filter((a) => (a.status ?? 0) >= 500);
      const unanswered = answers.filter((a) => a.status === null).length;
      const rounds = row.concurrent.map((r, i) => times(r.wallMs / (row.serial[i]?.wallMs ?? Number.NaN)));
      const failures = [
        ...(fiveXx.length > 0 ? [`${fiveXx.length} × 5xx`] : []),
        ...(unanswered > 0 ? [`${unanswered} unanswered`] : []),
      ];
      const note =
        `${fiveXx.length} × 5xx${fiveXx.length > 0 ? ` (${statusCounts(statusesOf(fiveXx))})` : ""}` +
        `${unanswered > 0 ? `, ${unanswered} unanswered within 30 s` : ""}; rounds ${rounds.join(", ")}`;
      const failure = failures.length > 0 ? `${failures.join(", ")} (none allowed)` : undefined;
      if (row.unbounded === undefined) {
        const budget = row.emulation ? BUDGETS.burstEmulated : BUDGETS.burstOff;
        lines.push(overWhen(atMost(`burst ${row.label}`, ratioOf(row), budget, note), failure));
      } else {
        // Reported lines are n/a, which overWhen leaves alone: a 5xx makes this one over all the same.
        const line = reported(`burst ${row.label}`, times(ratioOf(row)), `${note}; ${row.unbounded}`);
        lines.push(failure === undefined ? line : { ...line, verdict: "OVER", overBecause: failure });
      }
    }
    return lines;
  },
};
