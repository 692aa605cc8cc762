/**
 * @module testkit/recount — the one recount of what the maintained counts claim, from a full Scan of
 * the table: the dashboard's figures (`GET /api/dashboard/stats`, docs/api.md#service-health-dashboard-and-docs), every listing's
 * count (db/listing-index.ts) against the entries it holds, and each issue's `signalCount` against the
 * signals linked to it. Shared by the dashboard test and the load
 * bench's audit, so both compare against the same arithmetic.
 */
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { decodeTime } from "ulid";
import { GOAL_LISTINGS, LABEL_LISTINGS, PROJECT_LISTINGS } from "../core/src/catalog/keys.js";
import { COMMENT_LISTINGS } from "../core/src/comments/keys.js";
import type { DashboardStats } from "../core/src/dashboard/dashboard-service.js";
import type { Db } from "../core/src/db/db.js";
import type { ListingScheme } from "../core/src/db/listing-index.js";
import { spreadBaseSortKey } from "../core/src/db/spread.js";
import { DISPATCH_LISTINGS } from "../core/src/dispatch/keys.js";
import { DISPATCH_STATUSES } from "../core/src/dispatch/schemas.js";
import { QUEUE_LISTINGS } from "../core/src/issues/dispatch-queue.js";
import { ISSUE_LISTINGS, ISSUE_PRIORITY_LISTINGS, ISSUE_UPDATED_LISTINGS } from "../core/src/issues/keys.js";
import { ISSUE_STATUSES, ISSUE_TYPES } from "../core/src/issues/schemas.js";
import { PROMPT_LISTINGS, REVIEW_LISTINGS } from "../core/src/prompts/keys.js";
import { SIGNAL_LISTINGS } from "../core/src/signals/keys.js";
import { TEMPLATE_LISTINGS } from "../core/src/templates/keys.js";

export type TableItem = Record<string, unknown>;

const HOUR_MS = 3_600_000;
/** Parallel scan segments: DynamoDB Local answers them side by side. */
const SEGMENTS = 4;

/**
 * Every item of the table, read with strongly consistent parallel scans.
 * @example const items = await scanTable(db);
 */
export async function scanTable(db: Db): Promise<TableItem[]> {
  const doc = DynamoDBDocumentClient.from(db.client);
  const segments = await Promise.all(
    Array.from({ length: SEGMENTS }, async (_, segment) => {
      const items: TableItem[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await doc.send(
          new ScanCommand({
            TableName: db.tableName,
            ExclusiveStartKey: start,
            ConsistentRead: true,
            Segment: segment,
            TotalSegments: SEGMENTS,
          }),
        );
        items.push(...(out.Items ?? []));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    }),
  );
  return segments.flat();
}

/** The dashboard figures a recount can check (all but `todoToDone`, whose durations no item keeps). */
export type DashboardRecount = Omit<DashboardStats, "todoToDone" | "generatedAt">;

function tally(values: string[], names: readonly string[]): Record<string, number> {
  return Object.fromEntries(names.map((name) => [name, values.filter((value) => value === name).length]));
}

/**
 * The dashboard's figures counted from scanned items at `now`: live issues by status and type,
 * the queue (todo, unblocked), dispatches by status, and signals per source received in the hours
 * the dashboard's windows cover (the last 24 and 7 × 24 hours, whole hours, as it reads them) and in
 * each of the last 24 hours.
 * @example expect(dashboardMismatches(stats, recountDashboard(await scanTable(db), new Date(stats.generatedAt)))).toEqual([]);
 */
export function recountDashboard(items: TableItem[], now: Date): DashboardRecount {
  const issues = items.filter((item) => item.entity === "issue" && !item.deletedAt);
  const byStatus = tally(
    issues.map((issue) => String(issue.status)),
    ISSUE_STATUSES,
  );
  const queued = issues.filter(
    (issue) => issue.status === "todo" && ((issue.blockedBy as string[] | undefined) ?? []).length === 0,
  );
  const dispatches = items.filter((item) => item.entity === "dispatch");
  const dayStart = Math.floor((now.getTime() - 24 * HOUR_MS + HOUR_MS) / HOUR_MS);
  const weekStart = Math.floor((now.getTime() - 7 * 24 * HOUR_MS + HOUR_MS) / HOUR_MS);
  const last24h: Record<string, number> = {};
  const last7d: Record<string, number> = {};
  const perHour = Array.from({ length: 24 }, (_, index) => ({
    hour: new Date((dayStart + index) * HOUR_MS).toISOString(),
    total: 0,
    bySource: {} as Record<string, number>,
  }));
  for (const signal of items.filter((item) => item.entity === "signal")) {
    // The signal's hour is the hour its id names (the listings count it there).
    const hour = Math.floor(decodeTime(String(signal.id).slice("sig_".length)) / HOUR_MS);
    const source = String(signal.source);
    if (hour >= weekStart) last7d[source] = (last7d[source] ?? 0) + 1;
    if (hour >= dayStart) last24h[source] = (last24h[source] ?? 0) + 1;
    const slot = perHour[hour - dayStart];
    if (slot) {
      slot.total += 1;
      slot.bySource[source] = (slot.bySource[source] ?? 0) + 1;
    }
  }
  return {
    issues: {
      total: issues.length,
      byStatus,
      byType: tally(
        issues.map((issue) => String(issue.type)),
        ISSUE_TYPES,
      ),
    },
    signals: { last24h: summed(last24h), last7d: summed(last7d), perHour },
    dispatches: tally(
      dispatches.map((dispatch) => String(dispatch.status)),
      DISPATCH_STATUSES,
    ),
    queue: { depth: queued.length },
  };
}

function summed(bySource: Record<string, number>) {
  return { total: Object.values(bySource).reduce((sum, count) => sum + count, 0), bySource };
}

/**
 * Each figure where the dashboard and the recount disagree, as `what: dashboard N, recount M`;
 * empty when they agree.
 */
export function dashboardMismatches(stats: DashboardStats, recount: DashboardRecount): string[] {
  const mismatches: string[] = [];
  const compare = (what: string, shown: Record<string, number>, counted: Record<string, number>) => {
    for (const name of new Set([...Object.keys(shown), ...Object.keys(counted)])) {
      const a = shown[name] ?? 0;
      const b = counted[name] ?? 0;
      if (a !== b) mismatches.push(`${what}.${name}: dashboard ${a}, recount ${b}`);
    }
  };
  compare("issues", { total: stats.issues.total }, { total: recount.issues.total });
  compare("issues.byStatus", stats.issues.byStatus, recount.issues.byStatus);
  compare("issues.byType", stats.issues.byType, recount.issues.byType);
  compare("queue", stats.queue, recount.queue);
  compare("dispatches", stats.dispatches, recount.dispatches);
  for (const window of ["last24h", "last7d"] as const) {
    compare(`signals.${window}`, { total: stats.signals[window].total }, { total: recount.signals[window].total });
    compare(`signals.${window}.bySource`, stats.signals[window].bySource, recount.signals[window].bySource);
  }
  const hours = (perHour: DashboardStats["signals"]["perHour"]) => perHour.map(({ hour }) => hour).join(", ");
  if (hours(stats.signals.perHour) !== hours(recount.signals.perHour)) {
    mismatches.push(
      `signals.perHour: dashboard hours ${hours(stats.signals.perHour)}, recount ${hours(recount.signals.perHour)}`,
    );
  }
  for (const [index, counted] of recount.signals.perHour.entries()) {
    const shown = stats.signals.perHour[index] ?? { total: 0, bySource: {} };
    compare(`signals.perHour.${counted.hour}`, { total: shown.total }, { total: counted.total });
    compare(`signals.perHour.${counted.hour}.bySource`, shown.bySource, counted.bySource);
  }
  return mismatches;
}

/** `$kaizen#<entity>list_1#<listing>` (entries) and `$kaizen#<entity>count_1#<listing>` (counts): db/listing-index.ts. */
const LISTING_PARTITION = /^\$kaizen#([a-z]+?)(list|count)_1#(.*)$/s;

/** The listing schemes of every listed entity, for the buckets their entries fall in. */
export const LISTING_SCHEMES: readonly ListingScheme[] = [
  ISSUE_LISTINGS,
  ISSUE_PRIORITY_LISTINGS,
  ISSUE_UPDATED_LISTINGS,
  QUEUE_LISTINGS,
  SIGNAL_LISTINGS,
  DISPATCH_LISTINGS,
  PROMPT_LISTINGS,
  REVIEW_LISTINGS,
  COMMENT_LISTINGS,
  TEMPLATE_LISTINGS,
  PROJECT_LISTINGS,
  GOAL_LISTINGS,
  LABEL_LISTINGS,
];

/**
 * Every listing bucket whose count (summed over its shards) differs from the entries it holds, as
 * `<entity> <listing> bucket <b>: count N, entries M`; an entity of no known scheme is compared as
 * a whole listing.
 */
export function listingCountMismatches(
  items: TableItem[],
  schemes: readonly ListingScheme[] = LISTING_SCHEMES,
): string[] {
  const bucketOf = Object.fromEntries(schemes.map((scheme) => [scheme.entity, scheme.bucketOf]));
  const counts = new Map<string, number>();
  const entries = new Map<string, number>();
  for (const item of items) {
    const match = LISTING_PARTITION.exec(String(item.pk));
    if (!match) continue;
    const [, entity = "", kind, listing = ""] = match;
    const sk = String(item.sk);
    const bucketed = bucketOf[entity];
    if (kind === "count") {
      const key = `${entity} ${listing}${bucketed ? ` bucket ${spreadBaseSortKey(sk)}` : ""}`;
      counts.set(key, (counts.get(key) ?? 0) + Number(item.count ?? 0));
    } else {
      const key = `${entity} ${listing}${bucketed ? ` bucket ${bucketed(sk)}` : ""}`;
      entries.set(key, (entries.get(key) ?? 0) + 1);
    }
  }
  const mismatches: string[] = [];
  for (const key of new Set([...counts.keys(), ...entries.keys()])) {
    const count = counts.get(key) ?? 0;
    const held = entries.get(key) ?? 0;
    if (count !== held) mismatches.push(`${key}: count ${count}, entries ${held}`);
  }
  return mismatches.sort();
}

/**
 * Every live issue whose `signalCount` differs from the signals that opened it or were grouped
 * into it, with those of the issues merged into it (docs/api.md#merging-duplicates), as
 * `issue <id>: signalCount N, signals M`. An issue merged into another keeps the count it had then:
 * at most its own signals (one left waiting beside it as it merged counts on the issue that stays).
 */
export function signalCountMismatches(items: TableItem[]): string[] {
  const linked = new Map<string, number>();
  for (const item of items) {
    if (item.entity !== "signal" || typeof item.issueId !== "string") continue;
    if (item.action !== "opened" && item.action !== "grouped") continue;
    linked.set(item.issueId, (linked.get(item.issueId) ?? 0) + 1);
  }
  const mismatches: string[] = [];
  for (const issue of items) {
    if (issue.entity !== "issue" || issue.deletedAt) continue;
    const count = Number(issue.signalCount ?? 0);
    const merged = Array.isArray(issue.mergedFrom) ? issue.mergedFrom.map(String) : [];
    const signals = [String(issue.id), ...merged].reduce((sum, id) => sum + (linked.get(id) ?? 0), 0);
    const exact = typeof issue.mergedInto !== "string";
    if (exact ? count !== signals : count > signals) {
      mismatches.push(`issue ${issue.id}: signalCount ${count}, signals ${signals}`);
    }
  }
  return mismatches;
}
