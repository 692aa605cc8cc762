/**
 * @module bench/server — the local server of the throughput, burst and load sections, in its own
 * process: every family on @hono/node-server at 127.0.0.1, configured from the environment as
 * `npm start` is, with its DynamoDB calls and handler time totalled for the parent to ask over IPC.
 * BENCH_MODEL says what answers the requests: `server` (the default) one app, as `npm start` runs
 * it; `fleet` a fleet of one-request instances as Lambda runs them (testkit/fleet.ts), each
 * with its own client, every client traced.
 *
 * Beside it with BENCH_EVENTS=on, as `npm start` runs them, the outbound events' stream reader and retry sweeper
 * (infra/local/events.ts), with one destination for every event type on a receiver in this process,
 * so each case's writes are also read from the stream and delivered while the requests go on. Their
 * DynamoDB calls are made by a client of their own, outside the requests' totals.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { EVENT_TYPES } from "../core/src/events/schemas.js";
import { API_FAMILIES, createApp, createDb, loadConfig } from "../core/src/index.js";
import { OPEN_GUARD } from "../core/src/outbound-guard.js";
import { destinationService } from "../core/src/services.js";
import { startLocalEvents } from "../infra/local/events.js";
import { appFleet } from "../testkit/fleet.js";
import { type DynamoTrace, summedTotals, type TraceTotals, traceDynamo } from "./dynamo-trace.js";
import { BENCH_MODELS, choiceEnv } from "./env.js";

export interface ServerStats extends TraceTotals {
  requests: number;
  handlerMs: number;
  /** Events the receiver beside the server got so far. */
  eventsDelivered: number;
  /** Apps made so far: 1 for the server model, the instances launched for the fleet. */
  instances: number;
}

/** What answers the requests, however many apps it holds. */
interface Answerer {
  /** `env`: the node server's bindings, handed to one app as `npm start` does (a fleet instance gets none, as on Lambda it gets the event's). */
  fetch(request: Request, env: object): Promise<Response>;
  instances(): number;
  destroy(): void;
}

const config = loadConfig({ env: process.env });
const traces: DynamoTrace[] = [];
const traced = (client: Parameters<typeof traceDynamo>[0]) => traces.push(traceDynamo(client, { keepCalls: false }));

function oneApp(): Answerer {
  const db = createDb({
    tableName: config.tableName,
    region: config.region,
    endpoint: config.dynamodbEndpoint,
    emulateConflicts: config.emulateConflicts,
  });
  traced(db.client);
  const app = createApp(API_FAMILIES, { config, db });
  return {
    fetch: async (request, env) => app.fetch(request, env),
    instances: () => 1,
    destroy: () => db.client.destroy(),
  };
}

function fleet(): Answerer {
  const instances = appFleet(config, {
    emulateConflicts: config.emulateConflicts,
    onLaunch: ({ db }) => traced(db.client),
  });
  return {
    fetch: (request) => instances.fetch(request),
    instances: () => instances.instances.length,
    destroy: () => instances.destroy(),
  };
}

const answerer = choiceEnv("BENCH_MODEL", BENCH_MODELS, "server") === "fleet" ? fleet() : oneApp();

/** Every event type delivered to a receiver here; answers how many arrived so far. */
async function deliverEvents(): Promise<() => number> {
  let delivered = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      delivered += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const db = createDb({ tableName: config.tableName, region: config.region, endpoint: config.dynamodbEndpoint });
  const destinations = destinationService({ db, outboundGuard: OPEN_GUARD });
  // A table a former run left its destinations in: theirs point at receivers that are gone.
  const { destinations: former } = await destinations.list({ offset: 0, limit: 100 });
  for (const { id } of former) await destinations.delete(id, undefined);
  const { port } = receiver.address() as AddressInfo;
  await destinations.create({ url: `http://127.0.0.1:${port}/`, events: [...EVENT_TYPES], description: "bench" });
  await startLocalEvents({ db, outboundGuard: OPEN_GUARD });
  return () => delivered;
}
const eventsDelivered = process.env.BENCH_EVENTS === "on" ? await deliverEvents() : () => 0;
const served = { requests: 0, handlerMs: 0 };

const server = serve(
  {
    fetch: async (request, env) => {
      const started = performance.now();
      try {
        return await answerer.fetch(request, env);
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
  const stats: ServerStats = {
    ...served,
    eventsDelivered: eventsDelivered(),
    ...summedTotals(traces.map((trace) => trace.totals())),
    instances: answerer.instances(),
  };
  process.send?.({ type: "stats", stats });
});
// The parent went away (or is done): stop with it.
process.on("disconnect", () => {
  server.close();
  answerer.destroy();
  process.exit(0);
});
