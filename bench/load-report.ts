/** @module bench/load-report — the sustained load's report (./load.ts) as text, and its figures against the budgets. */
import type { BudgetReport } from "./budgets.js";
import { heading, ms, num, table } from "./format.js";
import type { LoadReport } from "./load.js";

/**
 * The report as text: per route, the agents, the server, and the audit.
 * @example console.log(renderLoadReport(await runLoad({ seconds: 60, log: console.log })));
 */
export function renderLoadReport(report: LoadReport): string {
  const lines: string[] = [];
  lines.push(
    heading(
      `Sustained mixed load: ${report.seconds} s, conflict emulation ${report.conflictEmulation}, ` +
        `${report.agents.agents} agents, ${report.connectionsPerRoute} connections per autocannon route`,
    ),
  );
  lines.push(
    `command: ${report.command}; node ${report.machine.node}, ${report.machine.cpus} × ${report.machine.cpu}, ` +
      `load average ${report.machine.loadAverage.join(" ")} at the end; ${report.elapsedSeconds.toFixed(1)} s measured`,
  );
  lines.push("");
  lines.push(
    table(
      ["route", "driver", "conc.", "requests", "req/s", "p50", "p99", "statuses", "unexpected", "no answer"],
      report.routes.map((route) => [
        route.route,
        route.driver,
        String(route.concurrency),
        String(route.requests),
        num(route.requestsPerSecond),
        ms(route.p50Ms),
        ms(route.p99Ms),
        Object.entries(route.statuses)
          .map(([status, count]) => `${status}×${count}`)
          .join(" "),
        String(route.unexpected),
        String(route.errors),
      ]),
    ),
  );
  lines.push(
    `total: ${report.total.requests} requests, ${num(report.total.requestsPerSecond)} req/s, ` +
      `5xx ${report.total.fiveXx}, unexpected statuses ${report.total.unexpected}, no answer ${report.total.errors}; server: ${report.server.requests} requests, ` +
      `${report.server.dynamoCalls} DynamoDB calls, ${report.server.transactionConflicts} transactions refused as conflicting`,
  );
  if (report.total.fiveXx > 0) lines.push(`\n!!! ${report.total.fiveXx} ANSWERS WERE 5xx: the load must see none !!!`);
  if (report.total.unexpected > 0) {
    lines.push(`\n${report.total.unexpected} answers had a status the load does not expect (see "unexpected" above)`);
  }
  const { agents } = report;
  lines.push("");
  lines.push(
    table(
      ["agents", "started", "claims", "204 (none)", "vanished", "completed", "failed", "refused (409)", "reviews"],
      [
        [
          agents.agents,
          agents.started,
          agents.claims,
          agents.emptyClaims,
          agents.vanished,
          agents.completed,
          agents.failed,
          agents.refused,
          agents.reviews,
        ].map(String),
      ],
    ),
  );
  const { figures } = report.audit;
  lines.push(
    `\ntable after the load: ${figures.items} items, ${figures.signals} signals, ${figures.issues} issues; dispatches ` +
      `${Object.entries(figures.dispatches)
        .map(([status, count]) => `${status} ${count}`)
        .join(", ")}; ${figures.expired} leases expired, ${figures.reclaimed} of their issues claimed again; ` +
      `at most ${figures.maxAttempts} dispatches of one issue`,
  );
  lines.push(
    `acknowledged: ${figures.deliveriesAcknowledged} deliveries (+${figures.redeliveriesAcknowledged} redeliveries ` +
      `answered as duplicates)`,
  );
  if (report.audit.ok) {
    lines.push(
      "audit: OK — every acknowledged delivery stored once, every created issue stored, one active dispatch per " +
        "issue at a time, every claim stored as its agent left it, counts equal to a recount",
    );
  } else {
    lines.push(`\n!!! AUDIT FAILED: ${report.audit.violations.length} violations !!!`);
    for (const violation of report.audit.violations) lines.push(`  [${violation.kind}] ${violation.message}`);
  }
  return lines.join("\n");
}

/**
 * The load's figures for the budget table: no 5xx (ARCHITECTURE.md holds every burst to none, and a
 * sustained load to no less), a clean audit, and each route's rate and latency, reported.
 */
export function loadBudgets(report: LoadReport, budgets: BudgetReport): void {
  budgets.atMost("sustained load 5xx", report.total.fiveXx, 0, String, `${report.total.requests} requests`);
  budgets.atMost(
    "sustained load audit violations",
    report.audit.violations.length,
    0,
    String,
    report.audit.violations
      .slice(0, 3)
      .map((violation) => violation.message)
      .join("; "),
  );
  for (const route of report.routes) {
    budgets.reported(
      `sustained load, ${route.route}`,
      `${num(route.requestsPerSecond)} req/s, p50 ${ms(route.p50Ms, 0)}, p99 ${ms(route.p99Ms, 0)}`,
      `${route.requests} requests at ${route.concurrency} at once (${route.driver})`,
    );
  }
}
