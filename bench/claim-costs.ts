/**
 * @module bench/claim-costs — what one `POST /api/dispatch/claim` costs with 10 issues queued and
 * with many (ARCHITECTURE.md, "Budgets": claim ≤ 3 calls; 10,000 queued vs 10, consumed capacity
 * ratio ≤ 1.5), costed like the other single requests (in-process `app.request`, every DynamoDB
 * call traced). The claims run against a table of their own that holds only queued issues, all of
 * one shape (task, todo, no project, parent or labels), so the two claims render the same kind of
 * prompt and the queue's length is the only difference; the rest of the bench is left undisturbed.
 *
 * Order: 11 issues queued; one warm-up claim (the app's first claim seeds the default templates
 * and fills the process's cache of version contents, which no later claim repeats: a cold Lambda's
 * first claim pays that once), leaving 10; the claim with 10 queued; then issues are added until
 * `queued` are waiting, and the claim with `queued` queued.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { ALL_FAMILIES, type Config, createApp, createDb, ensureTable } from "../core/src/index.js";
import { newIssue } from "../core/src/issues/service.js";
import { IssueStore } from "../core/src/issues/store.js";
import { type CostCase, type CostRow, measureCost, type ResponseCheck } from "./costs.js";
import { traceDynamo } from "./dynamo-trace.js";

/** The smaller queue of the budget. */
export const FEW_QUEUED = 10;
/** Issues created at once while seeding the queue (creates take their numbers atomically and retry conflicts). */
const SEED_CONCURRENCY = 4;
/** The queue listing a claim without filters reads (dispatch/queue-index.ts). */
const QUEUE_LISTING = "all";

export interface ClaimCosts {
  /** The claim with {@link FEW_QUEUED} queued, then the one with `queued` queued. */
  rows: CostRow[];
  few: CostRow;
  many: CostRow;
  queued: number;
  /** Issues seeded into the claims table, and how long that took. */
  seeded: number;
  seedMs: number;
}

/** A queued issue like every other one here: a task, todo, priority 1–4, a description of one length. */
function queuedIssue(i: number) {
  return newIssue({
    title: `Queued task ${i}: p95 latency regression on checkout step ${i % 17}`,
    description:
      "Synthetic queued issue for the claim costs. The checkout page stalls after the payment step; " +
      `the error tracker shows timeouts from the pricing service. Sequence ${String(i).padStart(6, "0")}.`,
    type: "task",
    status: "todo",
    priority: 1 + (i % 4),
  });
}

/** Creates issues `from`..`to` - 1, a few at a time, reporting progress every `every`. */
async function seedQueue(
  store: IssueStore,
  from: number,
  to: number,
  progress: (done: number, elapsedMs: number) => void,
  every = 1_000,
): Promise<number> {
  const started = performance.now();
  let next = from;
  let done = 0;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      await store.create(queuedIssue(i));
      done += 1;
      if (done % every === 0 || done === to - from) progress(done, performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return performance.now() - started;
}

/** A 201 claim of a task, now in progress, with the prompt the default task template rendered. */
const claimedTask: ResponseCheck = (status, body) => {
  if (status !== 201) return `answered ${status}, expected 201`;
  const data = body.data as
    | { dispatch?: { token?: string }; issue?: { status?: string; type?: string }; prompt?: unknown }
    | undefined;
  if (!data?.dispatch?.token) return "no dispatch token in the answer";
  if (data.issue?.status !== "in_progress") return `claimed issue is ${data.issue?.status}, expected in_progress`;
  if (!data.prompt) return "no prompt rendered for the claimed task";
  return undefined;
};

/** The claim as an agent sends it. */
function claimCase(key: string, queuedNow: number): CostCase {
  return {
    key,
    label: `POST claim (${queuedNow} queued)`,
    kind: "claim",
    method: "POST",
    path: "/api/dispatch/claim",
    body: { agent: "bench-agent" },
    check: claimedTask,
  };
}

/**
 * Costs a claim with {@link FEW_QUEUED} and with `queued` issues queued, in table `tableName`
 * (created here) at `endpoint`, served by an app of its own.
 */
export async function measureClaimCosts(options: {
  endpoint: string;
  tableName: string;
  config: Config;
  apiKey: string;
  queued: number;
  progress: (total: number) => (done: number, elapsedMs: number) => void;
  log: (line: string) => void;
}): Promise<ClaimCosts> {
  const { endpoint, tableName, apiKey, log } = options;
  const queued = Math.max(options.queued, FEW_QUEUED);
  const connection = { tableName, region: "us-east-1", endpoint };
  const seedDb = createDb(connection);
  const db = createDb(connection);
  try {
    await ensureTable(seedDb);
    const store = new IssueStore(seedDb);
    const trace = traceDynamo(db.client);
    const logger = new Logger({ serviceName: "kaizen-bench", logLevel: "SILENT" });
    const app = createApp(ALL_FAMILIES, { config: { ...options.config, tableName }, db, logger });
    const measure = (item: CostCase) => measureCost(app, db, trace, apiKey, item);
    const expectQueued = async (count: number) => {
      const got = await store.queue.count(QUEUE_LISTING);
      if (got !== count) throw new Error(`claim costs: ${got} issues queued, expected ${count}`);
    };

    let seedMs = await seedQueue(store, 0, FEW_QUEUED + 1, () => undefined);
    const warmUp = await measure(claimCase("claim.warm-up", FEW_QUEUED + 1));
    if (warmUp.problem) throw new Error(`claim costs: the warm-up claim ${warmUp.problem}`);
    await expectQueued(FEW_QUEUED);
    const few = await measure(claimCase("claim.few", FEW_QUEUED));

    const more = queued - (FEW_QUEUED - 1);
    log(`  queueing ${more} more issues (${queued} in all)…`);
    seedMs += await seedQueue(store, FEW_QUEUED + 1, FEW_QUEUED + 1 + more, options.progress(more));
    await expectQueued(queued);
    const many = await measure(claimCase("claim.many", queued));
    return { rows: [few, many], few, many, queued, seeded: FEW_QUEUED + 1 + more, seedMs };
  } finally {
    seedDb.client.destroy();
    db.client.destroy();
  }
}
