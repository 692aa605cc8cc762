/**
 * @module bench/load — sustained mixed load without loss (`npm run bench:load`): for BENCH_LOAD_SECONDS,
 * autocannon sends signed deliveries of the three providers (with redeliveries), issue creates, edits
 * and lists while agents claim, heartbeat, review and complete (some vanishing mid-dispatch), against
 * the stack with AWS's transaction conflicts emulated: by default a fleet of one-request instances as
 * Lambda runs them, where the claim p99 of 50 agents polling is held to its budget, or with
 * BENCH_LOAD_MODEL=server one app as `npm start` runs it. Then the audit (testkit/load-audit.ts)
 * reads the whole table; a 5xx or a violation fails the run.
 */
import { createDb } from "../core/src/index.js";
import { auditLoad } from "../testkit/load-audit.js";
import { BUDGETS, type BudgetLine, reported, withinMs } from "./budgets.js";
import { conflictsIn } from "./dynamo-trace.js";
import { ms, num, statusCounts, table } from "./format.js";
import { api, type BenchServer, send, startBenchServer } from "./http.js";
import { CLAIM_ROUTE, LEASE_SECONDS, runAgents } from "./load-agents.js";
import { LoadLedger, type RouteFigures, RouteTimings } from "./load-ledger.js";
import { REDELIVERY_SHARE, runTraffic, trafficRoutes } from "./load-traffic.js";
import { benchTable, type Section } from "./section.js";
import type { ServerStats } from "./server.js";

/** Todo tasks created before the load starts, so the first claims find work. */
const SEEDED_ISSUES = 40;
const QUEUE_ROUTE = "GET /api/dispatch/queue";
/** Agents polling the fleet at which its claim p99 is held to BUDGETS.fleetClaimP99Ms. */
const FLEET_AGENTS = 50;

/** Reads the queue's depth every second until the deadline, for the creates and edits to steer by. */
async function watchQueue(url: string, apiKey: string, ledger: LoadLedger, timings: RouteTimings, deadline: number) {
  while (performance.now() < deadline) {
    const reply = await send(url, {
      path: "/api/dispatch/queue?limit=1",
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    timings.record(QUEUE_ROUTE, reply.status, reply.ms);
    if (reply.status === 200) ledger.queueDepth = reply.body.total;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * The claim p99 of a load on the fleet, counted from when every agent has joined (`joined`: the
 * claims sent since): held to its budget with {@link FLEET_AGENTS} agents polling, reported with any
 * other number. The claims of the whole run, the agents' start included, are in the note.
 */
function fleetClaimLine(
  all: RouteFigures | undefined,
  joined: RouteFigures | undefined,
  agents: number,
  { workSeconds, rampSeconds }: { workSeconds: number; rampSeconds: number },
): BudgetLine {
  const working = workSeconds > 0 ? `, working ${workSeconds} s a dispatch` : "";
  const joining = rampSeconds > 0 ? `, once all joined (over ${rampSeconds} s)` : ", all starting at once";
  const what = `claim p99, ${agents} agents polling${joining}${working}, fleet`;
  const unanswered = all?.errors ?? 0;
  const note =
    `${joined?.requests ?? 0} claims answered, p50 ${ms(joined?.p50Ms ?? Number.NaN, 0)}` +
    (rampSeconds > 0
      ? `; the whole run, start included: ${all?.requests ?? 0} claims, p99 ${ms(all?.p99Ms ?? Number.NaN, 0)}`
      : "") +
    (unanswered > 0 ? `; ${unanswered} unanswered within 30 s (not in the p99)` : "");
  const p99 = joined?.p99Ms ?? Number.NaN;
  return agents === FLEET_AGENTS
    ? withinMs(what, p99, BUDGETS.fleetClaimP99Ms, note)
    : reported(what, ms(p99, 0), `${note}; the budget holds at ${FLEET_AGENTS} agents`);
}

/** Waits until the server has answered all it was sent (cut-off requests still run), so the audit reads a quiet table. */
async function quiet(server: BenchServer): Promise<ServerStats> {
  let last = await server.stats();
  for (let i = 0; i < 240; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await server.stats();
    if (now.requests === last.requests && now.calls === last.calls) return now;
    last = now;
  }
  return last;
}

export const loadSection: Section = {
  name: "load",
  title: "Sustained mixed load, AWS conflicts emulated, and the audit of the table after it (one server, or a fleet)",
  async run(ctx) {
    const {
      BENCH_LOAD_SECONDS: seconds,
      BENCH_LOAD_CONNECTIONS: connections,
      BENCH_LOAD_AGENTS: agents,
    } = ctx.settings;
    const emulateConflicts = ctx.settings.BENCH_LOAD_EMULATE_CONFLICTS === "on";
    const model = ctx.settings.BENCH_LOAD_MODEL;
    const load = model === "fleet" ? "sustained load, fleet" : "sustained load";
    const { tableName, endpoint } = await benchTable(ctx, "load");
    const server = await startBenchServer({
      endpoint,
      tableName,
      apiKey: ctx.apiKey,
      emulateConflicts,
      model,
      logLevel: "ERROR",
    });
    const db = createDb({ tableName, region: "us-east-1", endpoint });
    try {
      const ledger = new LoadLedger();
      const client = api(server.url, ctx.apiKey);
      // A table in use: its default templates exist, as `npm start` creates them at its start (a new
      // table's first requests wait for them once; tests/integration/templates.test.ts covers that).
      await client.get("/api/templates");
      const projectId = (await client.post("/api/projects", { name: "Checkout" })).data.id as string;
      for (let i = 1; i <= SEEDED_ISSUES; i++) {
        const body = { title: `Seeded task ${i}`, type: "task", status: "todo", priority: 1 + (i % 4) };
        const issue = (await client.post("/api/issues", { ...body, ...(i % 2 === 0 ? { projectId } : {}) })).data;
        ledger.issueCreated(issue.id, issue.status);
      }
      // The agents claim with a dispatch key of their own, as a fleet would: each instance checks it
      // once, then keeps its grant.
      const fleetKey = (await client.post("/api/keys", { name: "bench fleet", scopes: ["dispatch"] })).data
        .key as string;
      const timings = new RouteTimings();
      const joinedTimings = new RouteTimings();
      let fiveXx = 0;
      const routes = trafficRoutes({
        apiKey: ctx.apiKey,
        ledger,
        projectId,
        connections,
        queueTarget: 2 * agents,
        onServerError: () => fiveXx++,
      });
      ctx.log(
        `${model === "fleet" ? "a fleet of one-request instances" : "one server"}; ` +
          `conflict emulation ${emulateConflicts ? "on" : "off"}; ${SEEDED_ISSUES} todo tasks seeded; loading for ${seconds} s: ` +
          `${routes.length} autocannon routes × ${connections} connections, ${agents} agents (leases ${LEASE_SECONDS} s, joining over ${ctx.settings.BENCH_LOAD_RAMP_SECONDS} s), ` +
          `${REDELIVERY_SHARE * 100}% of deliveries sent again…`,
      );
      const before = await server.stats();
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const progress = setInterval(() => {
        const elapsed = Math.round((performance.now() - started) / 1000);
        ctx.log(
          `  ${elapsed} s: ${ledger.claims.length} claims, ${ledger.queueDepth} queued, 5xx ${fiveXx + timings.fiveXx()}`,
        );
      }, 15_000);
      const [traffic, , agentFigures] = await Promise.all([
        runTraffic(server.url, routes, seconds, ctx.settings.BENCH_LOAD_RATE),
        watchQueue(server.url, ctx.apiKey, ledger, timings, deadline),
        runAgents({
          url: server.url,
          ledger,
          timings,
          agents,
          vanishShare: 0.1,
          failShare: 0.25,
          reviewShare: 0.8,
          workSeconds: ctx.settings.BENCH_LOAD_WORK_SECONDS,
          rampSeconds: ctx.settings.BENCH_LOAD_RAMP_SECONDS,
          joinedTimings,
          deadline,
          apiKey: fleetKey,
        }),
      ]).finally(() => clearInterval(progress));
      const elapsed = (performance.now() - started) / 1000;
      const after = await quiet(server);
      ctx.log(`load done after ${elapsed.toFixed(1)} s; auditing the table…`);
      const audit = await auditLoad(db, ledger.records());

      const routeFigures = [...traffic, ...timings.figures(elapsed, (route) => (route === QUEUE_ROUTE ? 1 : agents))];
      const count = (pick: (route: (typeof routeFigures)[number]) => number) =>
        routeFigures.reduce((sum, r) => sum + pick(r), 0);
      const requests = count((route) => route.requests);
      const serverErrors = count((route) =>
        Object.entries(route.statuses).reduce((n, [s, c]) => n + (Number(s) >= 500 ? c : 0), 0),
      );
      ctx.log(
        table(
          ["route", "driver", "conc.", "requests", "req/s", "p50", "p99", "statuses", "unexpected", "no answer"],
          routeFigures.map((route) => [
            route.route,
            route.driver,
            String(route.concurrency),
            String(route.requests),
            num(route.requestsPerSecond),
            ms(route.p50Ms),
            ms(route.p99Ms),
            statusCounts(route.statuses),
            String(route.unexpected),
            String(route.errors),
          ]),
        ),
      );
      ctx.log(
        `total: ${requests} requests, ${num(requests / elapsed)} req/s, 5xx ${serverErrors}, unexpected ${count((r) => r.unexpected)}, ` +
          `no answer ${count((r) => r.errors)}; server: ${after.calls - before.calls} DynamoDB calls, ` +
          `${conflictsIn(after) - conflictsIn(before)} transactions refused as conflicting` +
          (model === "fleet" ? `; ${after.instances} instances launched` : ""),
      );
      ctx.log(
        `agents: ${Object.entries(agentFigures)
          .map(([what, n]) => `${what} ${n}`)
          .join(", ")}`,
      );
      const { figures } = audit;
      ctx.log(
        `table after the load: ${figures.items} items, ${figures.signals} signals, ${figures.issues} issues; dispatches ` +
          `${Object.entries(figures.dispatches)
            .map(([status, n]) => `${status} ${n}`)
            .join(", ")}; ${figures.expired} leases ` +
          `expired, ${figures.reclaimed} of their issues claimed again; ${figures.deliveriesAcknowledged} deliveries ` +
          `acknowledged (+${figures.redeliveriesAcknowledged} redeliveries answered as duplicates)`,
      );
      if (audit.ok) {
        ctx.log(
          "audit: OK — every acknowledged delivery stored once, every created issue stored, one active dispatch per issue " +
            "at a time, every claim stored as its agent left it, counts equal to a recount",
        );
      } else {
        ctx.log(`!! AUDIT FAILED: ${audit.violations.length} violations`);
        for (const violation of audit.violations) ctx.log(`  [${violation.kind}] ${violation.message}`);
        ctx.fail(`the load audit found ${audit.violations.length} violations`);
      }
      if (serverErrors > 0) ctx.fail(`the load saw ${serverErrors} answers with a 5xx`);
      const unanswered = count((route) => route.errors);
      if (unanswered > 0) ctx.fail(`the load left ${unanswered} requests unanswered within 30 s`);
      return [
        reported(load, `${requests} requests, ${serverErrors} × 5xx`, `${audit.violations.length} audit violations`),
        ...routeFigures.map((route) =>
          reported(
            `${load}, ${route.route}`,
            `${num(route.requestsPerSecond)} req/s, p50 ${ms(route.p50Ms, 0)}, p99 ${ms(route.p99Ms, 0)}`,
            `${route.requests} requests, ${route.concurrency} at once (${route.driver})`,
          ),
        ),
        ...(model === "fleet"
          ? [
              fleetClaimLine(
                routeFigures.find((route) => route.route === CLAIM_ROUTE),
                joinedTimings.figures(elapsed, () => agents)[0],
                agents,
                {
                  workSeconds: ctx.settings.BENCH_LOAD_WORK_SECONDS,
                  rampSeconds: ctx.settings.BENCH_LOAD_RAMP_SECONDS,
                },
              ),
            ]
          : []),
      ];
    } finally {
      db.client.destroy();
      await server.stop();
    }
  },
};
