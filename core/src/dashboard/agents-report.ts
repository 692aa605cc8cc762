/**
 * @module dashboard/agents-report — `GET /api/dashboard/agents` (docs/api.md#agents-dashboard): each
 * agent's counts over the last days (stats/agent-stats.ts) beside the cost its dispatches reported
 * (stats/usage-stats.ts), most claims first, with the claims still active (counted by the day's
 * counts only once they end). Two queries per day, the days read side by side, and a page of the
 * active dispatches' listing per 100 or so at work now.
 */
import type { DispatchQueries } from "../dispatch/dispatch-queries.js";
import { verifiedRate } from "../issues/outcomes.js";
import { type AgentStats, noAgentCounts } from "../stats/agent-stats.js";
import { lastUsageDays, type UsageStats, usageDay } from "../stats/usage-stats.js";
import type { AgentPerformance } from "./schemas.js";

export class AgentsReport {
  constructor(
    private readonly counts: Pick<AgentStats, "overDays">,
    private readonly usage: Pick<UsageStats, "lastDays">,
    private readonly dispatches: Pick<DispatchQueries, "activeClaims">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A page of agents over the last `days` UTC days, most claims first, then by name. */
  async page(
    days: number,
    page: { offset: number; limit: number },
  ): Promise<{ items: AgentPerformance[]; total: number }> {
    const today = this.now();
    const dates = lastUsageDays(days, today);
    const [counted, usage, active] = await Promise.all([
      this.counts.overDays(dates),
      this.usage.lastDays(days, today),
      this.dispatches.activeClaims(),
    ]);
    const window = new Set(dates);
    for (const { agent, claimedAt } of active) {
      if (!window.has(usageDay(claimedAt))) continue;
      const counts = counted.get(agent) ?? noAgentCounts();
      counts.claims += 1;
      counted.set(agent, counts);
    }
    const cost = new Map<string, { costUsd: number; reports: number }>();
    for (const day of usage.days) {
      for (const { agent, costUsd, reports } of day.agents) {
        const sums = cost.get(agent) ?? { costUsd: 0, reports: 0 };
        cost.set(agent, { costUsd: sums.costUsd + costUsd, reports: sums.reports + reports });
      }
    }
    const agents = new Set([...counted.keys(), ...cost.keys()]);
    const rows = [...agents].map((agent): AgentPerformance => {
      const counts = counted.get(agent) ?? noAgentCounts();
      const spent = cost.get(agent) ?? { costUsd: 0, reports: 0 };
      return {
        agent,
        ...counts,
        verifiedRate: verifiedRate(counts.verified, counts.regressed),
        costUsd: Math.round(spent.costUsd * 1e6) / 1e6,
        usageReports: spent.reports,
      };
    });
    rows.sort((a, b) => b.claims - a.claims || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
    return { items: rows.slice(page.offset, page.offset + page.limit), total: rows.length };
  }
}
