/** What the issue-move suites read back after each move: whole lists, the queue, and the counts against a recount. */
import type { Hono } from "hono";
import type { DashboardStats } from "../../core/src/dashboard/dashboard-service.js";
import type { AppEnv } from "../../core/src/http/app.js";
import {
  dashboardMismatches,
  listingCountMismatches,
  recountDashboard,
  scanTable,
  signalCountMismatches,
} from "../../testkit/recount.js";
import { AUTH, dataOf, type TestApp } from "./app.js";

/** The largest page a list endpoint gives (docs/api.md#pagination). */
const PAGE_LIMIT = 100;

/**
 * Every item of a paginated list, page after page, until a short page or `total` is reached.
 * @example const active = await everyPage<Dispatch>(t.app, "/api/dispatch?status=active");
 */
export async function everyPage<T>(app: Hono<AppEnv>, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const response = await app.request(`${path}${path.includes("?") ? "&" : "?"}limit=${PAGE_LIMIT}&page=${page}`, {
      headers: AUTH,
    });
    if (response.status !== 200) throw new Error(`GET ${path} page ${page} answered ${response.status}`);
    const body = (await response.json()) as { data: T[]; total: number };
    items.push(...body.data);
    if (body.data.length < PAGE_LIMIT || items.length >= body.total) return items;
  }
}

/** The issue ids of the whole dispatch queue preview (`GET /api/dispatch/queue`), in claim order. */
export async function queuedIssueIds(app: Hono<AppEnv>, query = ""): Promise<string[]> {
  const items = await everyPage<{ issue: { id: string } }>(app, `/api/dispatch/queue${query ? `?${query}` : ""}`);
  return items.map((item) => item.issue.id);
}

/**
 * Every maintained count that differs from a full recount of the table: the dashboard's figures,
 * each listing's count, each issue's `signalCount` (testkit/recount.ts). Empty when all agree.
 */
export async function countMismatches(t: TestApp): Promise<string[]> {
  // Read side by side: callers ask while nothing else writes to the table.
  const [stats, items] = await Promise.all([
    dataOf<DashboardStats>(t.app.request("/api/dashboard/stats", { headers: AUTH })),
    scanTable(t.db),
  ]);
  return [
    ...dashboardMismatches(stats, recountDashboard(items, new Date(stats.generatedAt))),
    ...listingCountMismatches(items),
    ...signalCountMismatches(items),
  ];
}

/** `what: dashboard N, recount M`, `what: count N, entries M`, `issue …: signalCount N, signals M`. */
const MISMATCH = /^(.*): (?:dashboard|count|signalCount) (-?\d+), (?:recount|entries|signals) (-?\d+)$/s;

/**
 * How far each maintained count is off its recount (shown minus counted), by figure: a suite that
 * shares one table across cases compares this before and after a move, so a count an earlier case
 * put wrong is blamed on that case alone. A line of another shape is kept whole, off by NaN.
 * @example expect(countDrift(await countMismatches(t))).toEqual(countDrift(before));
 */
export function countDrift(mismatches: string[]): Record<string, number> {
  return Object.fromEntries(
    mismatches.map((line) => {
      const match = MISMATCH.exec(line);
      return match ? [match[1] ?? line, Number(match[2]) - Number(match[3])] : [line, Number.NaN];
    }),
  );
}
