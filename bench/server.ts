/**
 * @module bench/server — the local server for the throughput runs, in its own process: every
 * family on @hono/node-server, bound to 127.0.0.1, with the DynamoDB client's calls and the
 * handler's time totalled so the parent can ask (over IPC) how much of each request was database.
 * Configuration comes from the environment, as for `npm start`.
 */
import { serve } from "@hono/node-server";
import { ALL_FAMILIES, createApp, createDb, loadConfig } from "../core/src/index.js";
import { type CommandTotals, traceDynamo } from "./dynamo-trace.js";

export interface ServerStats {
  requests: number;
  handlerMs: number;
  /** Every call, failed ones included (a cancelled transaction, a failed condition). */
  dynamoCalls: number;
  dynamoMs: number;
  byCommand: Record<string, CommandTotals>;
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
  if (message !== "stats") return;
  const dynamo = trace.totals();
  const stats: ServerStats = {
    ...served,
    dynamoCalls: dynamo.calls,
    dynamoMs: dynamo.ms,
    byCommand: dynamo.byCommand,
  };
  process.send?.({ type: "stats", stats });
});
// The parent went away (or is done): stop with it.
process.on("disconnect", () => {
  server.close();
  db.client.destroy();
  process.exit(0);
});
