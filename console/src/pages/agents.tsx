/**
 * @module console/pages/agents — `/app/agents`: every agent of the last day, 7 or 30 days (docs/api.md#agents-dashboard),
 * most claims first: its claims, how its dispatches ended, what became of its work and its verified rate, and what it
 * reported its work cost. The days and the page are kept in the URL (`/app/agents?days=30&page=2`).
 */
import { useLocation } from "preact-iso";
import { Failure, fieldValue, Loading, Pager, pageOf, SpansEveryProject, TableHead } from "../components.js";
import { dollars, OutcomesLegend, WORK_OUTCOME_COLUMNS, WorkOutcomeCells } from "../outcomes.js";
import { REFRESH_MS, useResource } from "../resource.js";
import { allowed } from "../session.js";

const LIMIT = 25;
/** The periods offered, in UTC days up to and with today. */
const PERIODS: Record<number, string> = { 1: "Today", 7: "Last 7 days", 30: "Last 30 days" };
const DEFAULT_DAYS = 7;
/** How dispatches ended, each a column after the claims. */
const ENDINGS = {
  completed: "Completed",
  failed: "Failed",
  released: "Released",
  stopped: "Stopped",
  expired: "Expired",
};
const ENDING_KEYS = Object.keys(ENDINGS) as (keyof typeof ENDINGS)[];

/** The period the URL asks for (`?days=30`), the default when it names none offered. */
function daysOf(query: Record<string, string>): number {
  const days = Number(query.days);
  return days in PERIODS ? days : DEFAULT_DAYS;
}

/** The page's URL for a period and a page, defaults left out. */
function agentsUrl(days: number, page: number): string {
  const query = new URLSearchParams();
  if (days !== DEFAULT_DAYS) query.set("days", String(days));
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return `/app/agents${text ? `?${text}` : ""}`;
}

export function AgentsPage() {
  if (!allowed("GET", "/api/dashboard/agents")) {
    return (
      <section>
        <h1>Agents</h1>
        <SpansEveryProject what="the agents' figures" />
      </section>
    );
  }
  return <AgentsFigures />;
}

function AgentsFigures() {
  const { query, route } = useLocation();
  const days = daysOf(query);
  const page = pageOf(query);
  const agents = useResource(
    async (kaizen) =>
      (
        await kaizen.GET("/api/dashboard/agents", {
          params: { query: { days: String(days), page, limit: LIMIT } },
        })
      ).data,
    `${days} ${page}`,
    REFRESH_MS,
  );
  const numeric = ["Claims", ...Object.values(ENDINGS), ...WORK_OUTCOME_COLUMNS, "Cost", "Usage reports"];
  return (
    <section>
      <h1>Agents</h1>
      <p class="muted">
        What each agent did in the period, most claims first: each count falls on the UTC day it happened, so a fix
        merged one day and verified another counts on both.
      </p>
      <div class="row">
        <label>
          Period
          <select value={String(days)} onChange={(event) => route(agentsUrl(Number(fieldValue(event)), 1))}>
            {Object.entries(PERIODS).map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Failure error={agents.error} onReload={agents.reload} />
      {!agents.data ? (
        <Loading what="the agents" />
      ) : agents.data.data.length === 0 ? (
        <p>No agent claimed, finished or had work counted in this period.</p>
      ) : (
        <>
          <table class="dense">
            <TableHead columns={["Agent", ...numeric]} numeric={numeric} />
            <tbody>
              {agents.data.data.map((agent) => (
                <tr key={agent.agent}>
                  <td>
                    <code>{agent.agent}</code>
                  </td>
                  <td class="num">{agent.claims}</td>
                  {ENDING_KEYS.map((key) => (
                    <td key={key} class="num">
                      {agent[key]}
                    </td>
                  ))}
                  <WorkOutcomeCells counts={agent} verifiedRate={agent.verifiedRate} />
                  <td class="num">{dollars(agent.usageReports > 0 ? agent.costUsd : null)}</td>
                  <td class="num">{agent.usageReports}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <OutcomesLegend completed>
            Failed, released, stopped, expired: how its other dispatches ended. Cost: what its dispatches reported.
          </OutcomesLegend>
          <Pager page={page} limit={LIMIT} total={agents.data.total} onPage={(next) => route(agentsUrl(days, next))} />
        </>
      )}
    </section>
  );
}
