/**
 * @module infra/local/stack — the embedded local stack: DynamoDB Local (or DYNAMODB_ENDPOINT), the
 * table, the API key, and every family on one Node server.
 */

import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { getRequestListener, RequestError } from "@hono/node-server";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import {
  API_KEY_PATTERN,
  type Config,
  createApp,
  createDb,
  ensureTable,
  generateApiKey,
  InvalidConfigError,
  waitForDatabase,
} from "../../core/src/index.js";
import { OPEN_GUARD } from "../../core/src/outbound-guard.js";
import { defaultTemplates } from "../../core/src/services.js";
import { dynamoDataDir, type RunningDynamoDb, startDynamoDbLocal } from "./dynamodb.js";
import { type LocalEvents, startLocalEvents } from "./events.js";
import { type LocalSweeps, startLocalSweeps } from "./sweeps.js";

export interface LocalStackOptions {
  config: Config;
  /** Folder for the API key and the database files. */
  dataDir: string;
  /** Keep the database in memory (a throwaway run). */
  memory?: boolean;
  /**
   * DynamoDB Local already started for this stack (`npm start` starts it first, so it boots while
   * the service's code loads): used, waited for and stopped as the stack's own when the
   * configuration names no endpoint.
   */
  dynamo?: RunningDynamoDb;
  /** Host to listen on; every interface when omitted. */
  hostname?: string;
  /** How long a client may take to send its whole request before a 408; {@link REQUEST_TIMEOUT_MS} when omitted. */
  requestTimeoutMs?: number;
  /** The service's clock; the machine's when omitted (tests move it on). */
  clock?: () => Date;
  /**
   * `false`: no outbound events (no change stream on a table it creates, no stream reader, no
   * sweeper), for tests that do not look at them; on by default, as `npm start` runs.
   */
  events?: boolean;
}

/**
 * A client that has not sent its whole request (headers and body) in this time is answered 408
 * and disconnected, so a stalled or slow-drip upload cannot hold a connection open (Node's own
 * default is 5 minutes).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface LocalStack {
  url: string;
  apiKey: string;
  apiKeySource: "environment" | "stored" | "generated";
  endpoint: string;
  /** Default templates this start created (none once they were seeded). */
  seededTemplates: string[];
  /** The outbound events' stream reader and retry sweeper (./events.ts); undefined with `events: false`. */
  events: LocalEvents | undefined;
  /** The scheduled sweeps (./sweeps.ts): the end of merged fixes' quiet watches. */
  sweeps: LocalSweeps;
  stop(): Promise<void>;
}

/** Starts everything `npm start` runs and resolves once the server listens. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { config, dataDir } = options;
  mkdirSync(dataDir, { recursive: true });
  let dynamo: RunningDynamoDb | undefined;
  let events: LocalEvents | undefined;
  let endpoint = config.dynamodbEndpoint;
  if (!endpoint) {
    dynamo = options.dynamo ?? (await startDynamoDbLocal(options.memory ? {} : { dataDir: dynamoDataDir(dataDir) }));
    endpoint = dynamo.endpoint;
  }
  try {
    const db = createDb({
      tableName: config.tableName,
      region: config.region,
      endpoint,
      emulateConflicts: config.emulateConflicts,
    });
    await waitForDatabase(db);
    const withEvents = options.events ?? true;
    await ensureTable(db, { stream: withEvents });
    const { apiKey, source } = resolveApiKey(config, dataDir);
    const deps = {
      config: { ...config, serviceApiKey: apiKey },
      db,
      // The local server sends wherever its user points it: its receivers usually run on this machine.
      outboundGuard: OPEN_GUARD,
      ...(options.clock ? { clock: options.clock } : {}),
    };
    const seededTemplates = await defaultTemplates(deps).seed();
    const app = createApp(ALL_FAMILIES, deps);
    events = withEvents ? await startLocalEvents(deps) : undefined;
    const running = events;
    const server = await listen(
      app.fetch,
      config.port,
      options.hostname,
      options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    );
    const sweeps = startLocalSweeps(deps);
    return {
      url: `http://localhost:${config.port}`,
      apiKey,
      apiKeySource: source,
      endpoint,
      seededTemplates,
      events: running,
      sweeps,
      async stop() {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await sweeps.stop();
        await running?.stop();
        db.client.destroy();
        await dynamo?.stop();
      },
    };
  } catch (error) {
    await events?.stop();
    await dynamo?.stop();
    throw error;
  }
}

/** The configured key, else the one stored under the data folder, else a new one stored there. */
function resolveApiKey(config: Config, dataDir: string): { apiKey: string; source: LocalStack["apiKeySource"] } {
  if (config.serviceApiKey) return { apiKey: config.serviceApiKey, source: "environment" };
  const file = join(dataDir, "api-key");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (!API_KEY_PATTERN.test(stored)) {
      throw new InvalidConfigError(`${file} does not hold a valid API key; delete it to have a new one generated`);
    }
    return { apiKey: stored, source: "stored" };
  }
  const apiKey = generateApiKey();
  writeFileSync(file, `${apiKey}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { apiKey, source: "generated" };
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  hostname: string | undefined,
  requestTimeoutMs: number,
) {
  return new Promise<Server>((resolve, reject) => {
    const server = createServer(
      {
        // Without Host the request reaches the listener, whose error handler answers with the envelope.
        requireHostHeader: false,
        requestTimeout: requestTimeoutMs,
        headersTimeout: requestTimeoutMs,
        // How often Node looks for requests past their time; its default (30 s) would double a short timeout.
        connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
      },
      getRequestListener(fetch, { errorHandler: answerRequestError }),
    );
    server.on("clientError", answerClientError);
    server.on("connect", answerConnect);
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE" ? new Error(`Port ${port} is already in use; set PORT to another one`) : error,
      );
    });
    server.listen(port, hostname, () => resolve(server));
  });
}

/** What Node's HTTP parser refuses before the app sees the request, and the status it deserves. */
const PARSER_REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large"],
  HPE_URI_TOO_LONG: [414, "URI too long"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timeout"],
};

/**
 * Requests Node's HTTP parser refuses (headers or a query string over its 16 KB limit, malformed
 * request lines) or that take too long to arrive get the API's JSON envelope too, not Node's
 * bare status line, and a request id of their own as every answer does (theirs was not read).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const [status, message] = PARSER_REFUSALS[error.code ?? ""] ?? [400, "Malformed HTTP request"];
  answerOnSocket(socket, status, message);
}

/**
 * Requests the adapter cannot turn into a URL (no Host, an invalid one, a `*` or backslashed
 * target) are a 400 with the envelope, not its bare 400.
 */
function answerRequestError(error: unknown): Response {
  const [status, message] =
    error instanceof RequestError ? [400, "Malformed HTTP request"] : [500, "Internal server error"];
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { "Content-Type": JSON_TYPE, "X-Request-Id": randomUUID() },
  });
}

/** CONNECT asks for a tunnel, which no resource here allows (Node would drop the connection unanswered). */
function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, 405, "Method not allowed", "Allow: \r\n");
}

const JSON_TYPE = "application/json; charset=utf-8";

function answerOnSocket(socket: Duplex, status: number, message: string, extraHeaders = ""): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\nContent-Type: ${JSON_TYPE}\r\nX-Request-Id: ${randomUUID()}\r\n${extraHeaders}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
