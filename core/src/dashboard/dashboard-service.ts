/**
 * @module dashboard/dashboard-service — the figures of `GET /api/dashboard/stats` (docs/api.md#service-health-dashboard-and-docs), read from the
 * counts the writes keep (stats/counts.ts, and the signal listings' hourly counts per source):
 * a query for the counts, one for the manual sources, one per source, however many issues; and
 * the activity feed and the prompts' performance, a page at a time.
 */
import type { Db } from "../db/db.js";
import type { DispatchQueries } from "../dispatch/dispatch-queries.js";
import { DISPATCH_STATUSES } from "../dispatch/schemas.js";
import { summaryItem } from "../issues/issue-item.js";
import type { IssueReads } from "../issues/issue-reads.js";
import { ISSUE_STATUSES, ISSUE_TYPES } from "../issues/schemas.js";
import { SIGNAL_LISTINGS, timeFloor } from "../signals/keys.js";
import { PROVIDER_SOURCES } from "../signals/schemas.js";
import type { SignalQueries } from "../signals/signal-queries.js";
import { medianOf, readCounts } from "../stats/counts.js";
import type { TemplateReads } from "../templates/template-reads.js";
import type { ActivityChain, DashboardStats, PromptPerformance, SignalHour, UsageReport } from "./schemas.js";

const HOUR_MS = 3_600_000;

export type { ActivityChain, DashboardStats, PromptPerformance, UsageReport };

export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly signals: SignalQueries,
    private readonly issues: IssueReads,
    private readonly dispatches: Pick<DispatchQueries, "getMany">,
    private readonly templates: TemplateReads,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The latest signals, newest first, each with the issue it opened, grouped into or closed, that
   * issue's latest dispatch and its outcome: a signal page (three reads), then one read of the
   * issues and one of the dispatches.
   */
  async activity(page: { offset: number; limit: number }): Promise<{ chains: ActivityChain[]; total: number }> {
    const { signals, total } = await this.signals.list({ filters: {}, order: "desc", ...page });
    const issueIds = [...new Set(signals.flatMap((signal) => (signal.issueId ? [signal.issueId] : [])))];
    const issues = new Map((await this.issues.getMany(issueIds)).map((stored) => [stored.issue.id, stored]));
    const dispatchIds = [
      ...new Set([...issues.values()].flatMap((stored) => (stored.lastDispatchId ? [stored.lastDispatchId] : []))),
    ];
    const dispatches = new Map(
      (await this.dispatches.getMany(dispatchIds)).map((stored) => [stored.dispatch.id, stored.dispatch]),
    );
    const chains = signals.map((signal): ActivityChain => {
      const stored = signal.issueId ? issues.get(signal.issueId) : undefined;
      const dispatch = stored?.lastDispatchId ? dispatches.get(stored.lastDispatchId) : undefined;
      return {
        signal: {
          id: signal.id,
          source: signal.source,
          type: signal.type,
          severity: signal.severity,
          title: signal.title,
          action: signal.action,
          receivedAt: signal.receivedAt,
        },
        issue: stored ? summaryItem(stored.issue) : null,
        dispatch: dispatch
          ? {
              id: dispatch.id,
              agent: dispatch.agent,
              status: dispatch.status,
              attempt: dispatch.attempt,
              claimedAt: dispatch.claimedAt,
              finishedAt: dispatch.finishedAt,
            }
          : null,
        outcome: dispatch?.outcome ?? null,
      };
    });
    return { chains, total };
  }

  /**
   * Live templates, newest first, each with its active version's usage, review score and completion
   * rate, and the experiment it runs (its listing entry carries it: no read more).
   */
  async prompts(page: { offset: number; limit: number }): Promise<{ items: PromptPerformance[]; total: number }> {
    const { templates, total } = await this.templates.list({}, page);
    const items = await Promise.all(
      templates.map(async ({ template, activeVersionNumber, experiment }): Promise<PromptPerformance> => {
        const active =
          activeVersionNumber === null ? undefined : await this.templates.getVersion(template.id, activeVersionNumber);
        const version = active?.version;
        return {
          template: {
            id: template.id,
            slug: template.slug,
            name: template.name,
            specificity: template.specificity,
            conditions: template.conditions,
          },
          activeVersion: version
            ? {
                id: version.id,
                version: version.version,
                usageCount: version.usageCount,
                reviewCount: version.reviewCount,
                reviewScore: version.reviewScore,
                completionRate: version.completionRate,
                outcomes: version.outcomes,
                verifiedRate: version.verifiedRate,
                cost: version.cost,
                createdAt: version.createdAt,
              }
            : null,
          experiment,
        };
      }),
    );
    return { items, total };
  }

  async stats(): Promise<DashboardStats> {
    const now = this.now();
    const weekStart = now.getTime() - 7 * 24 * HOUR_MS + HOUR_MS;
    const [totals, manual] = await Promise.all([readCounts(this.db), this.signals.manualSources()]);
    const sources = [...new Set([...PROVIDER_SOURCES, ...manual])];
    const signalHours = await this.signals.hourlyBySource(sources, weekStart);
    const of = (prefix: string, names: readonly string[]) =>
      Object.fromEntries(names.map((name) => [name, totals.get(`${prefix}#${name}`) ?? 0]));
    const byStatus = of("issue.status", ISSUE_STATUSES);
    const histogram: Record<string, number> = {};
    for (const [sk, total] of totals) {
      if (sk.startsWith("todo-to-done#")) histogram[sk.slice("todo-to-done#".length)] = total;
    }
    // The last 24 hours are the current one and the 23 whole ones before it, oldest first, each
    // under the name of its bucket in the signal listings' hourly counts.
    const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    const bucketOf = (start: number) => SIGNAL_LISTINGS.bucketOf(timeFloor(start));
    const hourOf = new Map<string, SignalHour>();
    for (let start = currentHour - 23 * HOUR_MS; start <= currentHour; start += HOUR_MS) {
      hourOf.set(bucketOf(start), { hour: new Date(start).toISOString(), total: 0, bySource: {} });
    }
    const currentBucket = bucketOf(currentHour);
    const last24h: Record<string, number> = {};
    const last7d: Record<string, number> = {};
    for (const { source, hour, count } of signalHours) {
      if (count === 0) continue;
      last7d[source] = (last7d[source] ?? 0) + count;
      // A signal stamped after this instant (another instance's clock running ahead) was received now.
      const slot = hourOf.get(hour) ?? (hour > currentBucket ? hourOf.get(currentBucket) : undefined);
      if (slot === undefined) continue;
      slot.total += count;
      slot.bySource[source] = (slot.bySource[source] ?? 0) + count;
      last24h[source] = (last24h[source] ?? 0) + count;
    }
    return {
      issues: {
        total: Object.values(byStatus).reduce((sum, count) => sum + count, 0),
        byStatus,
        byType: of("issue.type", ISSUE_TYPES),
      },
      signals: { last24h: summed(last24h), last7d: summed(last7d), perHour: [...hourOf.values()] },
      dispatches: of("dispatch.status", DISPATCH_STATUSES),
      queue: { depth: totals.get("queue.depth") ?? 0 },
      todoToDone: {
        medianSeconds: medianOf(histogram),
        count: Object.values(histogram).reduce((sum, count) => sum + count, 0),
      },
      generatedAt: now.toISOString(),
    };
  }
}

function summed(bySource: Record<string, number>) {
  return { total: Object.values(bySource).reduce((sum, count) => sum + count, 0), bySource };
}
