/**
 * @module infra/local/stack — the embedded local stack: DynamoDB Local (or DYNAMODB_ENDPOINT), the
 * table, the API key, and every family on one Node server.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { type ServerType, serve } from "@hono/node-server";
import {
  ALL_FAMILIES,
  API_KEY_PATTERN,
  type Config,
  createApp,
  createDb,
  ensureTable,
  generateApiKey,
  InvalidConfigError,
  waitForDatabase,
} from "../../core/src/index.js";
import { promptEngine } from "../../core/src/templates/engine.js";
import { type RunningDynamoDb, startDynamoDbLocal } from "./dynamodb.js";

export interface LocalStackOptions {
  config: Config;
  /** Folder for the API key and the database files. */
  dataDir: string;
  /** Keep the database in memory (a throwaway run). */
  memory?: boolean;
  /** Host to listen on; every interface when omitted. */
  hostname?: string;
}

export interface LocalStack {
  url: string;
  apiKey: string;
  apiKeySource: "environment" | "stored" | "generated";
  endpoint: string;
  /** Default templates this start created (none once they were seeded). */
  seededTemplates: string[];
  stop(): Promise<void>;
}

/** Starts everything `npm start` runs and resolves once the server listens. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { config, dataDir } = options;
  mkdirSync(dataDir, { recursive: true });
  let dynamo: RunningDynamoDb | undefined;
  let endpoint = config.dynamodbEndpoint;
  if (!endpoint) {
    dynamo = await startDynamoDbLocal(options.memory ? {} : { dataDir: join(dataDir, "dynamodb") });
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
    await ensureTable(db);
    const { apiKey, source } = resolveApiKey(config, dataDir);
    const deps = { config: { ...config, serviceApiKey: apiKey }, db };
    const seededTemplates = await promptEngine(deps).templates.seedDefaults();
    const app = createApp(ALL_FAMILIES, deps);
    const server = await listen(app.fetch, config.port, options.hostname);
    return {
      url: `http://localhost:${config.port}`,
      apiKey,
      apiKeySource: source,
      endpoint,
      seededTemplates,
      async stop() {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        db.client.destroy();
        await dynamo?.stop();
      },
    };
  } catch (error) {
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

function listen(fetch: (request: Request) => Response | Promise<Response>, port: number, hostname?: string) {
  return new Promise<ServerType>((resolve, reject) => {
    const server = serve({ fetch, port, ...(hostname ? { hostname } : {}) }, () => resolve(server));
    server.on("clientError", answerClientError);
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE" ? new Error(`Port ${port} is already in use; set PORT to another one`) : error,
      );
    });
  });
}

/** What Node's HTTP parser refuses before the app sees the request, and the status it deserves. */
const PARSER_REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large"],
  HPE_URI_TOO_LONG: [414, "URI too long"],
};

/**
 * Requests Node's HTTP parser refuses (headers or a query string over its 16 KB limit, malformed
 * request lines) get the API's JSON envelope too, not Node's bare status line.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = PARSER_REFUSALS[error.code ?? ""] ?? [400, "Malformed HTTP request"];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
