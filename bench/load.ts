/**
 * @module bench/load — sustained mixed load without loss: for a bounded time, autocannon sends signed
 * deliveries of the three providers (with deliberate redeliveries), issue creates, edits and lists
 * while a pool of agents claims, heartbeats, reviews and completes (some vanishing mid-dispatch), all
 * against the local server with AWS's transaction conflicts emulated, over DynamoDB Local in memory.
 * Afterwards the audit (./load-audit.ts) reads the whole table. The report is plain data.
 */
import { cpus, loadavg } from "node:os";
import { createDb, ensureTable, generateApiKey, waitForDatabase } from "../core/src/index.js";
import { freePort, startDynamoDbLocal } from "../infra/local/dynamodb.js";
import { ROOT } from "../scripts/build.js";
import { type AuditResult, auditLoad } from "../tests/helpers/load-audit.js";
import { BENCH_WEBHOOK_SECRETS } from "./deliveries.js";
import { type AgentFigures, LEASE_SECONDS, runAgents } from "./load-agents.js";
import { LoadLedger, type RouteFigures, RouteTimings } from "./load-ledger.js";
import { REDELIVERY_SHARE, runTraffic, trafficRoutes } from "./load-traffic.js";
import type { ServerStats } from "./server.js";
import { type BenchServer, startBenchServer } from "./throughput.js";

const TABLE_NAME = "kaizen_load";
/** Todo tasks created before the load starts, so the first claims find work. */
const SEEDED_ISSUES = 40;

export interface LoadOptions {
  /** How long the load runs; the default command runs 150 s, so vanished agents' 60 s leases run out and are reclaimed. */
  seconds: number;
  /** Connections of each autocannon route (six routes); default 2. */
  connections?: number;
  /** Agents working at once; default 30. */
  agents?: number;
  /** Share of claims after which the agent vanishes; default 0.1. */
  vanishShare?: number;
  /** Emulate AWS's transaction conflicts in the server; default true. */
  emulateConflicts?: boolean;
  /** The command line that ran the load, for the report. */
  command?: string;
  log: (line: string) => void;
}

/** Everything a load measured and found, as plain data (for a Markdown report). */
export interface LoadReport {
  command: string;
  startedAt: string;
  machine: { node: string; cpus: number; cpu: string; loadAverage: number[] };
  /** `on`: the server refused conflicting transactions as DynamoDB on AWS does. */
  conflictEmulation: "on" | "off";
  seconds: number;
  /** From the first request to the last agent stopping. */
  elapsedSeconds: number;
  connectionsPerRoute: number;
  leaseSeconds: number;
  redeliveryShare: number;
  routes: RouteFigures[];
  total: { requests: number; requestsPerSecond: number; fiveXx: number; unexpected: number; errors: number };
  agents: AgentFigures;
  /** DynamoDB calls the server made, and transactions refused for conflicting (emulated). */
  server: { requests: number; dynamoCalls: number; transactionConflicts: number };
  audit: AuditResult;
}

/**
 * Runs the sustained load and audits the table after it; never throws for what it finds (5xx,
 * violations): those are in the report.
 * @example const report = await runLoad({ seconds: 60, log: console.log });
 */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const { log } = options;
  const connections = options.connections ?? 2;
  const agents = options.agents ?? 30;
  const emulateConflicts = options.emulateConflicts ?? true;
  const apiKey = generateApiKey();
  const dynamo = await startDynamoDbLocal();
  let server: BenchServer | undefined;
  const db = createDb({ tableName: TABLE_NAME, region: "us-east-1", endpoint: dynamo.endpoint });
  try {
    await waitForDatabase(db);
    await ensureTable(db);
    server = await startBenchServer({
      root: ROOT,
      port: await freePort(),
      endpoint: dynamo.endpoint,
      tableName: TABLE_NAME,
      apiKey,
      webhookSecrets: BENCH_WEBHOOK_SECRETS,
      emulateConflicts,
      logLevel: "ERROR",
    });
    const ledger = new LoadLedger();
    const projectId = await seed(server.url, apiKey, ledger);
    log(
      `DynamoDB Local at ${dynamo.endpoint}, server at ${server.url} (conflict emulation ${emulateConflicts ? "on" : "off"}); ` +
        `seeded a project and ${SEEDED_ISSUES} todo tasks`,
    );

    const timings = new RouteTimings();
    const serverErrors: Record<string, number> = {};
    const routes = trafficRoutes({
      apiKey,
      ledger,
      projectId,
      connections,
      queueTarget: 2 * agents,
      onServerError: (route, status) => {
        const key = `${route} → ${status}`;
        serverErrors[key] = (serverErrors[key] ?? 0) + 1;
      },
    });
    log(
      `loading for ${options.seconds} s: ${routes.length} autocannon routes × ${connections} connections, ` +
        `${agents} agents (leases ${LEASE_SECONDS} s)…`,
    );
    const before = await server.stats();
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    const progress = setInterval(() => {
      const fiveXx = Object.values(serverErrors).reduce((sum, n) => sum + n, 0) + timings.fiveXx();
      log(
        `  ${Math.round((performance.now() - started) / 1000)} s: ${ledger.claims.length} claims, ` +
          `${ledger.issuesCreated.length} issues created, ${ledger.queueDepth} queued, 5xx ${fiveXx}; load ${loadavg()[0]?.toFixed(1)}`,
      );
    }, 15_000);
    const [traffic, , agentFigures] = await Promise.all([
      runTraffic(server.url, routes, options.seconds),
      watchQueue(server.url, apiKey, ledger, timings, deadline),
      runAgents({
        url: server.url,
        ledger,
        timings,
        agents,
        vanishShare: options.vanishShare ?? 0.1,
        failShare: 0.25,
        reviewShare: 0.8,
        deadline,
        apiKey,
      }),
    ]).finally(() => clearInterval(progress));
    const elapsedSeconds = (performance.now() - started) / 1000;
    const after = await quiet(server);
    const routesFigures = [
      ...traffic,
      ...timings.figures(elapsedSeconds, (route) => (route === QUEUE_ROUTE ? 1 : agents)),
    ];
    log(`load done after ${elapsedSeconds.toFixed(1)} s; auditing the table…`);
    const audit = await auditLoad(db, ledger.records());
    const requests = routesFigures.reduce((sum, route) => sum + route.requests, 0);
    const fiveXx = routesFigures.reduce(
      (sum, route) =>
        sum + Object.entries(route.statuses).reduce((n, [status, count]) => n + (Number(status) >= 500 ? count : 0), 0),
      0,
    );
    return {
      command: options.command ?? `BENCH_LOAD_SECONDS=${options.seconds} npm run bench:load`,
      startedAt: new Date(Date.now() - elapsedSeconds * 1000).toISOString(),
      machine: {
        node: process.version,
        cpus: cpus().length,
        cpu: cpus()[0]?.model ?? "cpu",
        loadAverage: loadavg().map((n) => Number(n.toFixed(2))),
      },
      conflictEmulation: emulateConflicts ? "on" : "off",
      seconds: options.seconds,
      elapsedSeconds,
      connectionsPerRoute: connections,
      leaseSeconds: LEASE_SECONDS,
      redeliveryShare: REDELIVERY_SHARE,
      routes: routesFigures,
      total: {
        requests,
        requestsPerSecond: requests / elapsedSeconds,
        fiveXx,
        unexpected: routesFigures.reduce((sum, route) => sum + route.unexpected, 0),
        errors: routesFigures.reduce((sum, route) => sum + route.errors, 0),
      },
      agents: agentFigures,
      server: {
        requests: after.requests - before.requests,
        dynamoCalls: after.dynamoCalls - before.dynamoCalls,
        transactionConflicts: conflicts(after) - conflicts(before),
      },
      audit,
    };
  } finally {
    db.client.destroy();
    await server?.stop();
    await dynamo.stop();
  }
}

/** A project and {@link SEEDED_ISSUES} todo tasks; returns the project's id. */
async function seed(url: string, apiKey: string, ledger: LoadLedger): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`seeding: POST ${path} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { data: { id: string; status: string } }).data;
  };
  const project = await post("/api/projects", { name: "Checkout" });
  for (let i = 1; i <= SEEDED_ISSUES; i++) {
    const issue = await post("/api/issues", {
      title: `Seeded task ${i}`,
      type: "task",
      status: "todo",
      priority: 1 + (i % 4),
      ...(i % 2 === 0 ? { projectId: project.id } : {}),
    });
    ledger.issueCreated(issue.id, issue.status);
  }
  return project.id;
}

const QUEUE_ROUTE = "GET /api/dispatch/queue";

/** Reads the queue's depth every second until the deadline, for the creates and edits to steer by. */
async function watchQueue(url: string, apiKey: string, ledger: LoadLedger, timings: RouteTimings, deadline: number) {
  while (performance.now() < deadline) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/api/dispatch/queue?limit=1`, {
        headers: { Authorization: `Bearer ${apiKey}` },
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      timings.record(QUEUE_ROUTE, response.status, performance.now() - started);
      if (response.status === 200) ledger.queueDepth = (JSON.parse(text) as { total: number }).total;
    } catch {
      timings.record(QUEUE_ROUTE, null, performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * Waits until the server has answered everything it was sent (requests cut off when autocannon
 * stopped still run to their end), so the audit reads a table nothing writes to any more.
 */
async function quiet(server: BenchServer): Promise<ServerStats> {
  let last = await server.stats();
  // Claims still waiting their turn in the server (their clients gave up) are written meanwhile.
  for (let i = 0; i < 240; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await server.stats();
    if (now.requests === last.requests && now.dynamoCalls === last.dynamoCalls) return now;
    last = now;
  }
  return last;
}

function conflicts(stats: ServerStats): number {
  let total = 0;
  for (const counts of Object.values(stats.byCommand)) {
    for (const [failure, count] of Object.entries(counts.failures)) {
      if (failure.includes("TransactionConflict")) total += count;
    }
  }
  return total;
}
