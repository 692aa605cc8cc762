/** @module bench/http — the local server in a process of its own (./server.ts), and the requests sent to it. */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../infra/local/dynamodb.js";
import { ROOT } from "../scripts/build.js";
import { BENCH_WEBHOOK_SECRETS } from "./deliveries.js";
import type { BenchModel } from "./env.js";
import type { ServerStats } from "./server.js";

export interface BenchServer {
  url: string;
  /** The server's counters: requests, handler time, DynamoDB calls and time, apps made. */
  stats(): Promise<ServerStats>;
  stop(): Promise<void>;
}

/**
 * Every family on @hono/node-server over table `tableName`, with AWS conflicts emulated or not:
 * answered by one app as `npm start` serves them (`model` "server", the default), or by a fleet of
 * one-request instances as Lambda runs them ("fleet").
 */
export async function startBenchServer(options: {
  endpoint: string;
  tableName: string;
  apiKey: string;
  emulateConflicts?: boolean;
  model?: BenchModel;
  logLevel?: "SILENT" | "ERROR";
  /** Deliver the outbound events of the table's changes beside the requests, as `npm start` does (the table needs a stream). */
  events?: boolean;
}): Promise<BenchServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--no-warnings", "--import", "tsx", join(ROOT, "bench", "server.ts")],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        AWS_REGION: "us-east-1",
        TABLE_NAME: options.tableName,
        DYNAMODB_ENDPOINT: options.endpoint,
        SERVICE_API_KEY: options.apiKey,
        CODEHOST_WEBHOOK_SECRET: BENCH_WEBHOOK_SECRETS.codehost,
        ERRORTRACKER_CLIENT_SECRET: BENCH_WEBHOOK_SECRETS.errortracker,
        ANALYTICS_WEBHOOK_SECRET: BENCH_WEBHOOK_SECRETS.analytics,
        PORT: String(port),
        DYNAMODB_EMULATE_CONFLICTS: options.emulateConflicts ? "on" : "off",
        BENCH_MODEL: options.model ?? "server",
        BENCH_EVENTS: options.events ? "on" : "off",
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
    url: `http://127.0.0.1:${port}`,
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

export interface Reply {
  /** Null when no answer came (a connection error, a timeout). */
  status: number | null;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read by the few fields each caller needs.
  body: any;
  ms: number;
}

/**
 * One request to the server at `url`; never throws: no answer within 30 s (API Gateway's longest
 * integration timeout, so a deployed caller would lose it too) is status null.
 */
export async function send(
  url: string,
  request: { method?: string; path: string; headers: Record<string, string>; body?: string },
): Promise<Reply> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}${request.path}`, {
      method: request.method ?? (request.body === undefined ? "GET" : "POST"),
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return { status: response.status, body, ms: performance.now() - started };
  } catch {
    return { status: null, body: undefined, ms: performance.now() - started };
  }
}

/**
 * JSON requests with the API key; `post` and `get` throw unless the answer is `status`, and return its body.
 * @example const issue = (await api(url, key).post("/api/issues", { title: "t", type: "task" })).data;
 */
export function api(url: string, apiKey: string) {
  const headers = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" };
  const expect = async (method: string, path: string, body: unknown, status: number) => {
    const reply = await send(url, {
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (reply.status !== status)
      throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
    return reply.body;
  };
  return {
    headers,
    get: (path: string) => expect("GET", path, undefined, 200),
    post: (path: string, body: unknown, status = 201) => expect("POST", path, body, status),
  };
}
