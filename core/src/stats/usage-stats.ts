/**
 * @module stats/usage-stats — what agents reported their work cost, summed per UTC day: in all, per agent
 * and per project. The one writer and reader of these counts: a dispatch's end asks for the writes of
 * its transaction ({@link usageAdditions}), the dashboard and the claims read them ({@link UsageStats}).
 *
 * Keys (spread counts, db/spread.ts, so a burst of completions does not take turns):
 * - pk=$kaizen#usage_1#<YYYY-MM-DD> (the UTC day of the dispatch's `finishedAt`),
 *   sk=`all#<count>` · `agent#<encoded agent>#<count>` · `project#<projectId>#<count>`,
 *   count one of `reported` (dispatches that reported usage), `cost-reported`, `tokens-in`,
 *   `tokens-out`, `cost`; attribute `count`.
 * - a day is one query of its partition; one project's day is one query of `project#<id>#`.
 */
import type { Db, Key, TransactItem } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import { sumSpreadCounts } from "../db/spread.js";
import type { UsageDay, UsageSums } from "./schemas.js";

const USAGE_ENTITY = keyPrefix("usage");

export type UsageCount = "reported" | "cost-reported" | "tokens-in" | "tokens-out" | "cost";

/** What the agent of a dispatch reported its work cost (dispatch/schemas `DispatchUsage`); null: not reported. */
export interface ReportedCost {
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/**
 * An agent's name as keys hold it: agents are free text, so `%`, `#` (the keys' separator) and `~`
 * (the mark of a spread count's shard, db/spread.ts) are written `%25`, `%23`, `%7E`; nothing else
 * changes. {@link decodeAgent} reverses it.
 * @example encodeAgent("team#1~x") // "team%231%7Ex"
 */
export function encodeAgent(agent: string): string {
  return agent.replace(/[%#~]/g, (mark) => `%${mark.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** The agent's name an {@link encodeAgent} key part holds. */
export function decodeAgent(encoded: string): string {
  return encoded.replace(/%(25|23|7E)/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The UTC day of an instant, as usage keys and the API name it. @example usageDay("2025-03-09T23:59:59.999Z") // "2025-03-09" */
export function usageDay(at: string | Date): string {
  return (typeof at === "string" ? new Date(at) : at).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/**
 * The last `days` UTC days up to `today`'s, newest first.
 * @example lastUsageDays(2, new Date("2026-11-28T10:00:00Z")) // ["2026-11-28", "2026-11-27"]
 */
export function lastUsageDays(days: number, today: Date): string[] {
  const start = Date.parse(`${usageDay(today)}T00:00:00.000Z`);
  return Array.from({ length: days }, (_, back) => usageDay(new Date(start - back * DAY_MS)));
}

function dayPartition(day: string): string {
  return `${USAGE_ENTITY}#${day}`;
}

type Scope = { kind: "all" } | { kind: "agent"; agent: string } | { kind: "project"; projectId: string };

function scopePrefix(scope: Scope): string {
  switch (scope.kind) {
    case "all":
      return "all#";
    case "agent":
      return `agent#${encodeAgent(scope.agent)}#`;
    case "project":
      return `project#${scope.projectId}#`;
  }
}

export function usageCountKey(day: string, scope: Scope, count: UsageCount): Key {
  return { pk: dayPartition(day), sk: `${scopePrefix(scope)}${count}` };
}

/**
 * The writes that add what a finished dispatch reported to its day's sums (the UTC day of
 * `finishedAt`): in all, for its agent and, when its issue was in a project at the claim, for that
 * project. A part not reported, or zero, writes nothing.
 */
export function usageAdditions(
  finishedAt: string,
  agent: string,
  projectId: string | null,
  usage: ReportedCost,
): TransactItem[] {
  const day = usageDay(finishedAt);
  const scopes: Scope[] = [{ kind: "all" }, { kind: "agent", agent }];
  if (projectId) scopes.push({ kind: "project", projectId });
  const counts: [UsageCount, number | null][] = [
    ["reported", 1],
    ["cost-reported", usage.costUsd === null ? null : 1],
    ["tokens-in", usage.inputTokens],
    ["tokens-out", usage.outputTokens],
    ["cost", usage.costUsd],
  ];
  return scopes.flatMap((scope) =>
    counts.flatMap(([count, delta]) =>
      delta ? [{ SpreadAdd: { Key: usageCountKey(day, scope, count), attribute: "count", delta } }] : [],
    ),
  );
}

const NO_USAGE: UsageSums = { reports: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

/** Adds one count's total to the sums it belongs to. */
function addCount(sums: UsageSums, count: string, total: number): void {
  if (count === "reported") sums.reports += total;
  else if (count === "tokens-in") sums.inputTokens += total;
  else if (count === "tokens-out") sums.outputTokens += total;
  else if (count === "cost") sums.costUsd += total;
}

/** Largest cost first, then most reports, then by name: what costs most is on top. */
function byCost<T extends UsageSums>(name: (row: T) => string) {
  return (a: T, b: T) =>
    b.costUsd - a.costUsd || b.reports - a.reports || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
}

/** Reads the usage sums. */
export class UsageStats {
  constructor(private readonly db: Db) {}

  /** The sums of the last `days` UTC days up to `today`'s, today first: one query per day, the days read side by side. */
  async lastDays(days: number, today: Date): Promise<{ days: UsageDay[] }> {
    return { days: await Promise.all(lastUsageDays(days, today).map((date) => this.day(date))) };
  }

  /** One day's sums, in all, per agent and per project (one query; zeros when nothing was reported). */
  async day(day: string): Promise<UsageDay> {
    const items = await this.db.queryPartition(dayPartition(day));
    const all = { ...NO_USAGE };
    const agents = new Map<string, UsageSums>();
    const projects = new Map<string, UsageSums>();
    for (const { sk, total } of sumSpreadCounts(items, "count")) {
      const split = sk.lastIndexOf("#");
      const count = sk.slice(split + 1);
      const [kind, ...rest] = sk.slice(0, split).split("#");
      const name = rest.join("#");
      const into =
        kind === "all"
          ? all
          : kind === "agent"
            ? sumsOf(agents, decodeAgent(name))
            : kind === "project"
              ? sumsOf(projects, name)
              : undefined;
      if (into) addCount(into, count, total);
    }
    return {
      date: day,
      ...all,
      agents: [...agents].map(([agent, sums]) => ({ agent, ...sums })).sort(byCost((row) => row.agent)),
      projects: [...projects].map(([projectId, sums]) => ({ projectId, ...sums })).sort(byCost((row) => row.projectId)),
    };
  }

  /** One project's sums of one day (one query of its few counts). */
  async projectDay(projectId: string, day: string): Promise<UsageSums> {
    const prefix = scopePrefix({ kind: "project", projectId });
    const items = await this.db.queryAll({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": dayPartition(day), ":prefix": prefix },
      ConsistentRead: true,
    });
    const sums = { ...NO_USAGE };
    for (const { sk, total } of sumSpreadCounts(items, "count")) addCount(sums, sk.slice(prefix.length), total);
    return sums;
  }
}

function sumsOf(map: Map<string, UsageSums>, name: string): UsageSums {
  let sums = map.get(name);
  if (!sums) {
    sums = { ...NO_USAGE };
    map.set(name, sums);
  }
  return sums;
}
