/**
 * @module dashboard/service — the figures of `GET /api/dashboard/stats` (API.md 3.7), read from the
 * counts the writes keep (dashboard/counters.ts): two queries, however many issues there are.
 */
import type { Db, Item } from "../db/client.js";
import { sumSpreadCounts } from "../db/spread.js";
import { DISPATCH_STATUSES } from "../dispatch/schemas.js";
import { ISSUE_STATUSES, ISSUE_TYPES } from "../issues/schemas.js";
import { hourOf, medianOf, SIGNAL_STATS_PARTITION, STATS_PARTITION } from "./counters.js";

const HOUR_MS = 3_600_000;

export interface DashboardStats {
  issues: { total: number; byStatus: Record<string, number>; byType: Record<string, number> };
  signals: {
    last24h: { total: number; bySource: Record<string, number> };
    last7d: { total: number; bySource: Record<string, number> };
  };
  dispatches: Record<string, number>;
  queue: { depth: number };
  todoToDone: { medianSeconds: number | null; count: number };
  generatedAt: string;
}

export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async stats(): Promise<DashboardStats> {
    const now = this.now();
    const [counts, signalHours] = await Promise.all([
      this.partition(STATS_PARTITION),
      this.partition(SIGNAL_STATS_PARTITION, hourOf(now.getTime() - 7 * 24 * HOUR_MS + HOUR_MS)),
    ]);
    const totals = new Map(sumSpreadCounts(counts, "count").map(({ sk, total }) => [sk, total]));
    const of = (prefix: string, names: readonly string[]) =>
      Object.fromEntries(names.map((name) => [name, totals.get(`${prefix}#${name}`) ?? 0]));
    const byStatus = of("issue.status", ISSUE_STATUSES);
    const histogram: Record<string, number> = {};
    for (const [sk, total] of totals) {
      if (sk.startsWith("todo-to-done#")) histogram[sk.slice("todo-to-done#".length)] = total;
    }
    const dayStart = hourOf(now.getTime() - 24 * HOUR_MS + HOUR_MS);
    const last24h: Record<string, number> = {};
    const last7d: Record<string, number> = {};
    for (const { sk, total } of sumSpreadCounts(signalHours, "count")) {
      const [hour = "", source = ""] = splitOnce(sk);
      last7d[source] = (last7d[source] ?? 0) + total;
      if (hour >= dayStart) last24h[source] = (last24h[source] ?? 0) + total;
    }
    return {
      issues: {
        total: Object.values(byStatus).reduce((sum, count) => sum + count, 0),
        byStatus,
        byType: of("issue.type", ISSUE_TYPES),
      },
      signals: { last24h: summed(last24h), last7d: summed(last7d) },
      dispatches: of("dispatch.status", DISPATCH_STATUSES),
      queue: { depth: totals.get("queue.depth") ?? 0 },
      todoToDone: {
        medianSeconds: medianOf(histogram),
        count: Object.values(histogram).reduce((sum, count) => sum + count, 0),
      },
      generatedAt: now.toISOString(),
    };
  }

  /** Every item of a count partition (from `from` on), strongly consistent. */
  private async partition(pk: string, from?: string): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await this.db.query({
        KeyConditionExpression: from === undefined ? "pk = :pk" : "pk = :pk AND sk >= :from",
        ExpressionAttributeValues: { ":pk": pk, ...(from === undefined ? {} : { ":from": from }) },
        ConsistentRead: true,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      });
      items.push(...(out.Items ?? []));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

function splitOnce(sk: string): [string, string] {
  const at = sk.indexOf("#");
  return [sk.slice(0, at), sk.slice(at + 1)];
}

function summed(bySource: Record<string, number>) {
  return { total: Object.values(bySource).reduce((sum, count) => sum + count, 0), bySource };
}
