/**
 * @module bench/server — the local server of the throughput, burst and load sections, in its own
 * process: every family on @hono/node-server at 127.0.0.1, configured from the environment as
 * `npm start` is, with its DynamoDB calls and handler time totalled for the parent to ask over IPC.
 */
import { serve } from "@hono/node-server";
import { ALL_FAMILIES, createApp, createDb, loadConfig } from "../core/src/index.js";
import { type TraceTotals, traceDynamo } from "./dynamo-trace.js";

export interface ServerStats extends TraceTotals {
  requests: number;
  handlerMs: number;
}

const config = loadConfig({ env: process.env });
const db = createDb({
  tableName: config.tableName,
  region: config.region,
  endpoint: config.dynamodbEndpoint,
  emulateConflicts: config.emulateConflicts,
});
const trace = traceDynamo(db.client, { keepCalls: false });
const app = createApp(ALL_FAMILIES, { config, db });
const served = { requests: 0, handlerMs: 0 };

const server = serve(
  {
    fetch: async (request, env) => {
      const started = performance.now();
      try {
        return await app.fetch(request, env);
      } finally {
        served.requests += 1;
        served.handlerMs += performance.now() - started;
      }
    },
    port: config.port,
    hostname: "127.0.0.1",
  },
  () => process.send?.({ type: "ready" }),
);

process.on("message", (message) => {
  if (message === "stats") process.send?.({ type: "stats", stats: { ...served, ...trace.totals() } });
});
// The parent went away (or is done): stop with it.
process.on("disconnect", () => {
  server.close();
  db.client.destroy();
  process.exit(0);
});
