/**
 * @module client/cli/commands/overview — `kaizen queue`, `kaizen stats` and `kaizen health`: what
 * claims would take next, the dashboard's figures (today's usage and each agent's claims and
 * outcomes over the last days among them), and whether the service and its table answer.
 */
import type { Argv } from "yargs";
import { ISSUE_TYPES } from "../../../core/src/issues/issue-values.js";
import { KaizenApiError, type Schema } from "../../client.js";
import { percentText } from "../../measures.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, resolveProjectId, withPaging } from "../options.js";
import { emit, formatFields, formatTable, pageFooter, paint, section, statusStyle } from "../output.js";
import { issueColumns } from "./issues.js";

/** `a 3, b 1` from a count record, largest first; `-` when empty. */
function counts(record: Record<string, number>): string {
  const entries = Object.entries(record).filter(([, n]) => n > 0);
  return entries.length > 0
    ? entries
        .sort(([, a], [, b]) => b - a)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ")
    : "-";
}

/** Seconds as people read a duration: `45 s`, `12 min`, `3.5 h`, `2.1 d`. */
function duration(seconds: number | null): string {
  if (seconds === null) return "-";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

/**
 * The dashboard's figures as `stats` prints them.
 * @example formatStats(stats, false)
 */
export function formatStats(stats: Schema<"DashboardStats">, colour: boolean): string {
  return [
    formatFields(
      [
        ["issues", `${stats.issues.total}: ${counts(stats.issues.byStatus)}`],
        ["by type", counts(stats.issues.byType)],
        ["queue", `${stats.queue.depth} waiting`],
        ["dispatches", counts(stats.dispatches)],
        ["signals 24 h", `${stats.signals.last24h.total}: ${counts(stats.signals.last24h.bySource)}`],
        ["signals 7 d", `${stats.signals.last7d.total}: ${counts(stats.signals.last7d.bySource)}`],
        ["todo → done", `median ${duration(stats.todoToDone.medianSeconds)} over ${stats.todoToDone.count} issues`],
      ],
      colour,
    ),
    paint(colour, "dim", `as of ${stats.generatedAt}`),
  ].join("\n");
}

/** Dollars as the CLI shows a reported cost: four decimals (agents' runs often cost cents). */
function dollars(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/** One day of the usage report. */
type UsageDay = Schema<"UsageReport">["days"][number];

/**
 * What agents reported their work cost on one day (the usage report's entry), as `stats` prints it
 * under the dashboard's figures: the day's sums, then one row per agent, the costliest first.
 * @example formatUsage(report.days[0], false)
 */
export function formatUsage(day: UsageDay, colour: boolean): string {
  const sums = formatFields(
    [
      ["reports", `${day.reports} dispatch${day.reports === 1 ? "" : "es"} reported usage`],
      ["tokens", `in ${day.inputTokens}, out ${day.outputTokens}`],
      ["cost", dollars(day.costUsd)],
    ],
    colour,
  );
  const agents =
    day.agents.length === 0
      ? ""
      : `\n${formatTable(
          [
            { header: "AGENT", value: (row: UsageDay["agents"][number]) => row.agent, max: 40 },
            { header: "REPORTS", value: (row) => String(row.reports), align: "right" },
            { header: "IN", value: (row) => String(row.inputTokens), align: "right" },
            { header: "OUT", value: (row) => String(row.outputTokens), align: "right" },
            { header: "COST", value: (row) => dollars(row.costUsd), align: "right" },
          ],
          day.agents,
          colour,
        )}`;
  return section(`Usage today (${day.date}, UTC)`, `${sums}${agents}`, colour);
}

/** One agent's row of the agents' dashboard. */
type AgentRow = Schema<"AgentPerformance">;

/** Most days the agents' dashboard reads (docs/api.md#agents-dashboard). */
const MAX_AGENT_DAYS = 30;
/** Agents `stats` reads: the API's largest page. */
const AGENTS_SHOWN = 100;

/** `today` or `the last 7 days`, with UTC: the days the agents' table covers. */
function daysText(days: number): string {
  return days === 1 ? "today (UTC)" : `the last ${days} days (UTC, today included)`;
}

/**
 * Each agent's claims, how its dispatches ended and what became of its work over the last `days`
 * (the agents' dashboard, most claims first), as `stats` prints it under today's usage; a last line
 * says how many agents there are when the page holds fewer.
 * @example formatAgents({ data: rows, total: 2 }, 7, false)
 */
export function formatAgents(agents: { data: AgentRow[]; total: number }, days: number, colour: boolean): string {
  const title = `Agents, ${daysText(days)}`;
  if (agents.data.length === 0) return section(title, "No agent claimed or finished anything.", colour);
  const count = (key: keyof AgentRow) => (row: AgentRow) => String(row[key]);
  const table = formatTable<AgentRow>(
    [
      { header: "AGENT", value: (row) => row.agent, max: 40 },
      { header: "CLAIMS", value: count("claims"), align: "right" },
      { header: "COMPLETED", value: count("completed"), align: "right" },
      { header: "FAILED", value: count("failed"), align: "right" },
      { header: "EXPIRED", value: count("expired"), align: "right" },
      { header: "MERGED", value: count("merged"), align: "right" },
      { header: "REWORKED", value: count("reworked"), align: "right" },
      { header: "REGRESSED", value: count("regressed"), align: "right" },
      { header: "VERIFIED", value: count("verified"), align: "right" },
      { header: "VERIFIED RATE", value: (row) => percentText(row.verifiedRate), align: "right" },
      { header: "COST", value: (row) => dollars(row.costUsd), align: "right" },
    ],
    agents.data,
    colour,
  );
  const more =
    agents.total > agents.data.length
      ? `\nThe ${agents.data.length} agents with the most claims, of ${agents.total}`
      : "";
  return section(title, `${table}${more}`, colour);
}

/** Registers `queue`, `stats` and `health`. */
export function registerOverview(yargs: Argv, define: Define): Argv {
  return yargs
    .command(
      ...define(
        ...COMMANDS.queue,
        (y) =>
          withPaging(y)
            .option("project", {
              type: "string",
              describe: "Only this project's issues (prj_… or name; default: KAIZEN_PROJECT)",
            })
            .option("types", { type: "string", array: true, choices: ISSUE_TYPES, describe: "Only these issue types" }),
        async (args, { client, output, connection }) => {
          const kaizen = client("key");
          const project = args.project ?? connection.projectId;
          const { data } = await kaizen.GET("/api/dispatch/queue", {
            params: {
              query: {
                page: args.page,
                limit: args.limit,
                projectId: project ? await resolveProjectId(kaizen, project) : undefined,
                types: args.types?.join(","),
              },
            },
          });
          const page = data ?? { data: [], total: 0 };
          const first = ((args.page ?? 1) - 1) * (args.limit ?? 20);
          emit(output, page.data, (items) => {
            const rows = items.map((item, i) => ({ ...item, position: first + i + 1 }));
            const table = formatTable(
              [
                { header: "#", value: (row: (typeof rows)[number]) => String(row.position), align: "right" },
                { header: "SCORE", value: (row) => row.score.toFixed(1), align: "right" },
                ...issueColumns((row: (typeof rows)[number]) => row.issue).filter((c) => c.header !== "STATUS"),
                {
                  header: "PRIORITY+TYPE+GOAL+AGE+IMPACT",
                  value: (row) =>
                    `${row.breakdown.priority}+${row.breakdown.type}+${row.breakdown.goal}+${row.breakdown.age.toFixed(1)}+${row.breakdown.impact}`,
                },
                // Why claims pass over an issue now (docs/api.md#queue-preview), when the page has one.
                ...(rows.some((row) => row.heldBy)
                  ? [{ header: "HELD BY", value: (row: (typeof rows)[number]) => row.heldBy ?? "" }]
                  : []),
              ],
              rows,
              output.colour,
            );
            const footer = pageFooter(
              items.length,
              page.total,
              args.page ?? 1,
              args.limit ?? 20,
              "issues in the queue",
            );
            return items.length > 0 ? `${table}\n${footer}` : footer;
          });
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.stats,
        (y) =>
          y.option("days", {
            type: "number",
            default: 7,
            describe: `Days the agents' table covers, today (UTC) included (1..${MAX_AGENT_DAYS})`,
            coerce: integerIn("days", 1, MAX_AGENT_DAYS),
          }),
        async (args, { client, output }) => {
          const kaizen = client("key");
          const [stats, usage, agents] = await Promise.all([
            kaizen.GET("/api/dashboard/stats"),
            kaizen.GET("/api/dashboard/usage", { params: { query: { days: "1" } } }),
            kaizen.GET("/api/dashboard/agents", {
              params: { query: { days: String(args.days), limit: AGENTS_SHOWN } },
            }),
          ]);
          const today = usage.data?.data.days[0];
          const agentPage = agents.data ?? { data: [], total: 0 };
          const data = stats.data?.data;
          emit(output, data && { ...data, ...(today ? { usage: today } : {}), agents: agentPage.data }, (shown) =>
            shown
              ? [
                  formatStats(shown, output.colour),
                  ...(today ? [formatUsage(today, output.colour)] : []),
                  formatAgents(agentPage, args.days, output.colour),
                ].join("\n")
              : "",
          );
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.health,
        (y) => y,
        async (_args, { connection, output }) => {
          // Plain fetch: a degraded service answers 503 with the health document itself, not the error envelope.
          const url = `${connection.url.replace(/\/+$/, "")}/health`;
          let response: Response;
          try {
            response = await fetch(url);
          } catch (error) {
            const code = (error as { cause?: { code?: string } }).cause?.code;
            throw new KaizenApiError({
              status: 0,
              error: `cannot reach ${new URL(url).origin}${code ? ` (${code})` : ""}`,
              method: "GET",
              url,
              cause: error,
            });
          }
          const health = (await response.json().catch(() => null)) as Schema<"Health"> | null;
          if (!health?.status) {
            throw new KaizenApiError({
              status: response.status,
              error: "not a Kaizen health answer",
              method: "GET",
              url,
            });
          }
          emit(output, health, (h) =>
            [
              `${paint(output.colour, statusStyle(h.status), h.status)}  ${connection.url} (version ${h.version})`,
              section(
                "Checks",
                formatFields(
                  Object.entries(h.checks).map(([name, state]) => [name, state, statusStyle(state)]),
                  output.colour,
                ),
                output.colour,
              ).trimStart(),
            ].join("\n"),
          );
          if (response.ok) return 0;
          output.err(`kaizen: ${response.status} the service is ${health.status}: ${JSON.stringify(health.checks)}`);
          return 1;
        },
      ),
    );
}
