/**
 * @module bench/throughput — requests per second and latency of the local server under autocannon
 * (10 connections) over the issues table, with the share of each request spent in DynamoDB Local
 * calls, timed inside the server.
 */
import autocannon from "autocannon";
import { reported } from "./budgets.js";
import { codehostDelivery, type Delivery, issueEvent } from "./deliveries.js";
import { ms, num, percent, statusCounts, table } from "./format.js";
import { startBenchServer } from "./http.js";
import { issuesTable } from "./issues.js";
import type { Section } from "./section.js";
import type { ServerStats } from "./server.js";

const CONNECTIONS = 10;

interface Target {
  name: string;
  path: string;
  /** A webhook load: the delivery to send next, built afresh per request. GET with the API key when unset. */
  delivery?: () => Delivery;
  /** The status every answer should have. */
  expect: number;
}

function targets(): Target[] {
  let sent = 0;
  const duplicate = codehostDelivery("issues", issueEvent("edited", 1));
  return [
    { name: "GET /api/issues?page=1&limit=20", path: "/api/issues?page=1&limit=20", expect: 200 },
    { name: "GET /health", path: "/health", expect: 200 },
    {
      name: "POST /api/signals/codehost (new ids, issues.edited over 8 issues: grouped)",
      path: "/api/signals/codehost",
      delivery: () => codehostDelivery("issues", issueEvent("edited", 1 + (sent++ % 8))),
      expect: 201,
    },
    {
      name: "POST /api/signals/codehost (one delivery id: duplicates)",
      path: duplicate.path,
      delivery: () => duplicate,
      expect: 200,
    },
  ];
}

/** The counters of `after` less those of `before`. */
function since(after: ServerStats, before: ServerStats): ServerStats {
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
    calls: after.calls - before.calls,
    ms: after.ms - before.ms,
    byCommand,
    instances: after.instances - before.instances,
    eventsDelivered: after.eventsDelivered - before.eventsDelivered,
  };
}

/** `BatchGetItem 1.00 · TransactWriteItems 1.21 (failed: 0.21 TransactionCanceled: ConditionalCheckFailed)` per request. */
function commandMix(stats: ServerStats): string {
  const perRequest = (n: number) => num(n / stats.requests, 2);
  return Object.entries(stats.byCommand)
    .filter(([, counts]) => counts.calls > 0)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([command, counts]) => {
      const failed = Object.entries(counts.failures).filter(([, n]) => n > 0);
      const failures = failed.map(([how, n]) => `${perRequest(n)} ${how}`).join(", ");
      return `${command} ${perRequest(counts.calls)}${failed.length > 0 ? ` (failed: ${failures})` : ""}`;
    })
    .join(" · ");
}

export const throughputSection: Section = {
  name: "throughput",
  title: "Local server throughput (autocannon, 10 connections, 127.0.0.1, over the issues table)",
  async run(ctx) {
    const { app } = await issuesTable(ctx);
    const server = await startBenchServer({
      endpoint: await ctx.endpoint(),
      tableName: app.tableName,
      apiKey: ctx.apiKey,
    });
    const rows: { target: Target; result: autocannon.Result; stats: ServerStats }[] = [];
    try {
      for (const target of targets()) {
        const next = target.delivery;
        const load = (duration: number) =>
          autocannon({
            url: `${server.url}${target.path}`,
            connections: CONNECTIONS,
            duration,
            timeout: 10,
            headers: { Authorization: `Bearer ${ctx.apiKey}` },
            ...(next
              ? {
                  method: "POST" as const,
                  requests: [
                    {
                      setupRequest: (request: autocannon.Request) => {
                        const { path, headers, body } = next();
                        return { ...request, method: "POST" as const, path, headers: { ...headers }, body };
                      },
                    },
                  ],
                }
              : {}),
          });
        ctx.log(`  loading ${target.name}…`);
        await load(2);
        const before = await server.stats();
        const result = await load(ctx.settings.BENCH_THROUGHPUT_SECONDS);
        rows.push({ target, result, stats: since(await server.stats(), before) });
      }
    } finally {
      await server.stop();
    }
    const statuses = (result: autocannon.Result) =>
      Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, stat.count ?? 0]),
      );
    const figures = rows.map(({ target, result, stats }) => {
      const rps = result.requests.total / result.duration;
      // Little's law: the mean latency at full resolution (autocannon's p50/p99 are whole milliseconds).
      const mean = (CONNECTIONS * 1000) / rps;
      return { target, result, stats, rps, mean, share: stats.ms / stats.requests / mean };
    });
    ctx.log(
      table(
        [
          "endpoint",
          "req/s",
          "p50",
          "p99",
          "mean",
          "in handler",
          "DDB calls/req",
          "DDB ms/req",
          "DDB share",
          "statuses",
        ],
        figures.map(({ target, result, stats, rps, mean, share }) => [
          target.name,
          num(rps, 0),
          ms(result.latency.p50, 0),
          ms(result.latency.p99, 0),
          ms(mean),
          ms(stats.handlerMs / stats.requests, 2),
          num(stats.calls / stats.requests, 2),
          ms(stats.ms / stats.requests, 2),
          percent(share),
          statusCounts(statuses(result)),
        ]),
      ),
    );
    ctx.log("  mean = connections ÷ req/s; DDB: wall time inside DynamoDB client calls in the server, per request.");
    for (const { target, stats } of figures) if (stats.calls > 0) ctx.log(`  ${target.name}: ${commandMix(stats)}`);
    for (const { target, result } of figures) {
      const wrong = Object.keys(statuses(result)).filter((status) => Number(status) !== target.expect);
      if (wrong.length > 0)
        ctx.log(`  !! ${target.name}: expected every answer ${target.expect}, got ${statusCounts(statuses(result))}`);
      if (result.errors + result.timeouts > 0)
        ctx.log(`  !! ${target.name}: ${result.errors + result.timeouts} requests unanswered`);
    }
    return figures.map(({ target, result, stats, rps, share }) =>
      reported(
        `throughput, ${target.name}`,
        `${num(rps, 0)} req/s, p50 ${ms(result.latency.p50, 0)}, p99 ${ms(result.latency.p99, 0)}`,
        `DynamoDB Local share ${percent(share)}, ${num(stats.calls / stats.requests, 2)} calls/req`,
      ),
    );
  },
};
