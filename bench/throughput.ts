/**
 * @module bench/throughput — requests per second and latency of the local server under autocannon,
 * with the DynamoDB Local share of each request: timed inside the server, and by making the same
 * data-layer calls directly in a loop.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import autocannon from "autocannon";
import type { Db } from "../core/src/index.js";
import type { WebhookProvider } from "../core/src/routes.js";
import type { Delivery } from "./deliveries.js";
import type { ServerStats } from "./server.js";

export interface DirectLoop {
  concurrency: number;
  ops: number;
  opsPerSecond: number;
  /** Mean wall time of one sequence of calls. */
  meanMs: number;
  /** DynamoDB calls per sequence. */
  callsPerOp: number;
}

export interface ThroughputRow {
  label: string;
  /** `GET /api/issues?page=1&limit=20`, `POST /api/signals/codehost (unique deliveries)`. */
  name: string;
  path: string;
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** connections ÷ throughput (Little's law): the mean latency at full resolution. */
  meanMs: number;
  errors: number;
  non2xx: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** The status every response should have had, when the target says. */
  expectStatus: number | undefined;
  server: ServerStats;
  direct: DirectLoop[];
}

export interface Target {
  label: string;
  path: string;
  /** What sets this load apart from others on the same path, shown after it. */
  variant?: string;
  /**
   * For a webhook receiver: the delivery to send next, built afresh for every request (its own
   * delivery id and signature) in autocannon's `setupRequest`. GET with the API key when unset.
   */
  delivery?: () => Delivery;
  /** The status every response should have (201 new delivery, 200 duplicate). */
  expectStatus?: number;
  /** The data-layer calls this request makes, made directly (no HTTP, no Hono). */
  direct: () => Promise<unknown>;
}

/** `GET /health`, `POST /api/signals/codehost (one delivery id, duplicates)`. */
export function targetName(target: Target): string {
  return `${target.delivery ? "POST" : "GET"} ${target.path}${target.variant ? ` (${target.variant})` : ""}`;
}

/** A server child process and a way to read its counters. */
export interface BenchServer {
  url: string;
  stats(): Promise<ServerStats>;
  stop(): Promise<void>;
}

export async function startBenchServer(options: {
  root: string;
  port: number;
  endpoint: string;
  tableName: string;
  apiKey: string;
  webhookSecrets: Record<WebhookProvider, string>;
  /** Refuse conflicting transactions as DynamoDB on AWS does (DYNAMODB_EMULATE_CONFLICTS). */
  emulateConflicts?: boolean;
  /** The server's log level (POWERTOOLS_LOG_LEVEL, to this process's stderr); SILENT by default. */
  logLevel?: "SILENT" | "ERROR" | "WARN" | "INFO";
}): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--no-warnings", "--import", "tsx", join(options.root, "bench", "server.ts")],
    {
      cwd: options.root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        AWS_REGION: "us-east-1",
        TABLE_NAME: options.tableName,
        DYNAMODB_ENDPOINT: options.endpoint,
        SERVICE_API_KEY: options.apiKey,
        CODEHOST_WEBHOOK_SECRET: options.webhookSecrets.codehost,
        ERRORTRACKER_CLIENT_SECRET: options.webhookSecrets.errortracker,
        ANALYTICS_WEBHOOK_SECRET: options.webhookSecrets.analytics,
        PORT: String(options.port),
        DYNAMODB_EMULATE_CONFLICTS: options.emulateConflicts ? "on" : "off",
        POWERTOOLS_LOG_LEVEL: options.logLevel ?? "SILENT",
        AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: "1",
      },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("bench server did not start within 30 s")), 30_000);
    child.once("exit", (code) => reject(new Error(`bench server exited early (code ${code})`)));
    child.on("message", (message: { type?: string }) => {
      if (message.type !== "ready") return;
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${options.port}`,
    stats: () =>
      new Promise<ServerStats>((resolve) => {
        const onMessage = (message: { type?: string; stats?: ServerStats }) => {
          if (message.type !== "stats" || !message.stats) return;
          child.off("message", onMessage);
          resolve(message.stats);
        };
        child.on("message", onMessage);
        child.send("stats");
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.disconnect();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs `operation` from `concurrency` loops for `durationMs`; times each run. */
export async function directLoop(
  db: Db,
  operation: () => Promise<unknown>,
  concurrency: number,
  durationMs: number,
): Promise<DirectLoop> {
  const before = db.usage().calls;
  const started = performance.now();
  const deadline = started + durationMs;
  let ops = 0;
  let totalMs = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const opStarted = performance.now();
        await operation();
        totalMs += performance.now() - opStarted;
        ops += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  return {
    concurrency,
    ops,
    opsPerSecond: ops / (elapsed / 1000),
    meanMs: totalMs / ops,
    callsPerOp: (db.usage().calls - before) / ops,
  };
}

function diff(after: ServerStats, before: ServerStats): ServerStats {
  const byCommand = Object.fromEntries(
    Object.entries(after.byCommand).map(([command, counts]) => {
      const earlier = before.byCommand[command] ?? { calls: 0, failures: {} };
      const failures = Object.fromEntries(
        Object.entries(counts.failures).map(([how, n]) => [how, n - (earlier.failures[how] ?? 0)]),
      );
      return [command, { calls: counts.calls - earlier.calls, failures }];
    }),
  );
  return {
    requests: after.requests - before.requests,
    handlerMs: after.handlerMs - before.handlerMs,
    dynamoCalls: after.dynamoCalls - before.dynamoCalls,
    dynamoMs: after.dynamoMs - before.dynamoMs,
    byCommand,
  };
}

/** Warms up, loads `target` with autocannon, then times its direct calls at 1 and at `connections` loops. */
export async function measureThroughput(options: {
  server: BenchServer;
  db: Db;
  apiKey: string;
  target: Target;
  connections: number;
  durationS: number;
  directDurationMs: number;
}): Promise<ThroughputRow> {
  const { server, db, target, connections, durationS } = options;
  const load = (duration: number) =>
    autocannon({
      url: `${server.url}${target.path}`,
      connections,
      duration,
      headers: { Authorization: `Bearer ${options.apiKey}` },
      timeout: 10,
      ...(target.delivery
        ? { method: "POST" as const, requests: [{ setupRequest: nextDelivery(target.delivery) }] }
        : {}),
    });
  await load(2);
  const before = await server.stats();
  const result = await load(durationS);
  const stats = diff(await server.stats(), before);

  await directLoop(db, target.direct, connections, 1_000);
  const direct = [
    await directLoop(db, target.direct, 1, options.directDurationMs),
    await directLoop(db, target.direct, connections, options.directDurationMs),
  ];
  const requests = result.requests.total;
  return {
    label: target.label,
    name: targetName(target),
    path: target.path,
    connections,
    durationS: result.duration,
    requests,
    requestsPerSecond: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: requests > 0 ? (connections * result.duration * 1000) / requests : Number.NaN,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, stat.count ?? 0]),
    ),
    expectStatus: target.expectStatus,
    server: stats,
    direct,
  };
}

/** autocannon's `setupRequest`: the request with the next delivery's headers and body (and nothing else). */
function nextDelivery(delivery: () => Delivery): (request: autocannon.Request) => autocannon.Request {
  return (request) => {
    const next = delivery();
    return { ...request, method: "POST", path: next.path, headers: next.headers, body: next.body };
  };
}
