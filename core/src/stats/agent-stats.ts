/**
 * @module stats/agent-stats — what each agent's dispatches came to, counted per UTC day
 * (docs/api.md#agents-dashboard): claims, how dispatches ended, and what became of the work after
 * (merged, reworked, regressed, verified). The one writer and reader of these counts: a claim, a
 * dispatch's end and an outcome mark ask for the writes of their own transactions
 * ({@link agentCountAdditions}); the agents dashboard reads them ({@link AgentStats}). Each count
 * falls on the day its event happened: a fix merged on Monday and verified on Thursday counts as
 * merged on Monday and verified on Thursday.
 *
 * Keys (spread counts, db/spread.ts, so fifty agents claiming at once do not take turns):
 * - pk=$kaizen#agentday_1#<YYYY-MM-DD>, sk=`<encoded agent>#<count>` (stats/usage-stats `encodeAgent`),
 *   attribute `count`; a day is one query of its partition.
 */
import type { Db, TransactItem } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import { sumSpreadCounts } from "../db/spread.js";
import { decodeAgent, encodeAgent, usageDay } from "./usage-stats.js";

const AGENT_DAY = keyPrefix("agentday");

/** What is counted per agent and day. */
export const AGENT_COUNTS = [
  "claims",
  "completed",
  "failed",
  "released",
  "expired",
  "stopped",
  "merged",
  "reworked",
  "regressed",
  "verified",
] as const;
export type AgentCount = (typeof AGENT_COUNTS)[number];

/** One agent's counts over some days. */
export type AgentCounts = Record<AgentCount, number>;

function dayPartition(day: string): string {
  return `${AGENT_DAY}#${day}`;
}

/** The writes that add one to each of `counts` of `agent` on the UTC day of `at`. */
export function agentCountAdditions(at: string, agent: string, counts: readonly AgentCount[]): TransactItem[] {
  const pk = dayPartition(usageDay(at));
  return counts.map((count) => ({
    SpreadAdd: { Key: { pk, sk: `${encodeAgent(agent)}#${count}` }, attribute: "count", delta: 1 },
  }));
}

export function noAgentCounts(): AgentCounts {
  return Object.fromEntries(AGENT_COUNTS.map((count) => [count, 0])) as AgentCounts;
}

const KNOWN = new Set<string>(AGENT_COUNTS);

/** Reads the agents' counts. */
export class AgentStats {
  constructor(private readonly db: Db) {}

  /** Each agent's counts summed over the given UTC days (one query per day, the days read side by side). */
  async overDays(days: readonly string[]): Promise<Map<string, AgentCounts>> {
    const partitions = await Promise.all(days.map((day) => this.db.queryPartition(dayPartition(day))));
    const agents = new Map<string, AgentCounts>();
    for (const { sk, total } of sumSpreadCounts(partitions.flat(), "count")) {
      const split = sk.lastIndexOf("#");
      const count = sk.slice(split + 1);
      if (!KNOWN.has(count)) continue;
      const agent = decodeAgent(sk.slice(0, split));
      let counts = agents.get(agent);
      if (!counts) {
        counts = noAgentCounts();
        agents.set(agent, counts);
      }
      counts[count as AgentCount] += total;
    }
    return agents;
  }
}
