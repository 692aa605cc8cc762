/** @module bench/section — what a section of the bench is, and what the runner hands it. */
import { createDb, ensureTable, waitForDatabase } from "../core/src/index.js";
import type { BudgetLine } from "./budgets.js";
import type { BenchSettings } from "./env.js";

/** One part of the bench: `npm run bench -- --section <name>` runs it alone. */
export interface Section {
  name: string;
  title: string;
  /** Measures, prints as it goes, and returns its figures for the budget table. */
  run(ctx: BenchContext): Promise<BudgetLine[]>;
}

export interface BenchContext {
  settings: BenchSettings;
  apiKey: string;
  /** Prints a line, and keeps it for the report of a full run. */
  log(line?: string): void;
  /** The run's DynamoDB Local (in memory), started on first use. */
  endpoint(): Promise<string>;
  /** What sections of one run share (the seeded issues), made by the first that asks. */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Marks the run failed (exit 1) without stopping it: a broken burst, a 5xx, a load audit violation. */
  fail(reason: string): void;
}

/**
 * Creates the bench's table `kaizen_bench_<name>` on the run's DynamoDB Local; returns its name and
 * endpoint. With `stream`, it has a change stream, for a server that delivers outbound events beside
 * its requests (bench/server.ts); without, it has none, as the tests' tables.
 */
export async function benchTable(
  ctx: BenchContext,
  name: string,
  options: { stream?: boolean } = {},
): Promise<{ tableName: string; endpoint: string }> {
  const endpoint = await ctx.endpoint();
  const tableName = `kaizen_bench_${name}`;
  const db = createDb({ tableName, region: "us-east-1", endpoint });
  try {
    await waitForDatabase(db);
    await ensureTable(db, { stream: options.stream ?? false });
  } finally {
    db.client.destroy();
  }
  return { tableName, endpoint };
}

/**
 * Runs `count` tasks `concurrency` at a time, printing progress every 1,000; returns the wall time.
 * @example const ms = await inBatches(ctx, 10_000, 8, (i) => app.post("/api/issues", body(i)));
 */
export async function inBatches(
  ctx: BenchContext,
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < count) {
      await task(next++);
      if (++done % 1_000 === 0 && done < count) {
        const rate = done / ((performance.now() - started) / 1000);
        ctx.log(`  ${done}/${count} (${rate.toFixed(0)}/s, ${((count - done) / rate).toFixed(0)} s left)`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - started;
}
