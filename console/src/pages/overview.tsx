/**
 * @module console/pages/overview — `/app`: the dashboard figures, signals per hour by source, the queue,
 * dispatch outcomes. They span every project, so a key limited to projects gets a note and its projects instead.
 */
import { useMemo } from "preact/hooks";
import type { Schema } from "../../../client/client.js";
import { ISSUE_STATUSES as STATUSES } from "../../../core/src/issues/issue-values.js";
import { useProjects } from "../catalog.js";
import { LineChart } from "../chart.js";
import { Failure, Figure, Loading, SpansEveryProject, TableHead } from "../components.js";
import { REFRESH_MS, useResource } from "../resource.js";
import { allowed } from "../session.js";

const OUTCOMES = ["active", "completed", "failed", "released", "expired", "stopped"] as const;

function duration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

function SignalsChart({ hours }: { hours: Schema<"DashboardStats">["signals"]["perHour"] }) {
  const chart = useMemo(() => {
    const sources = [...new Set(hours.flatMap((hour) => Object.keys(hour.bySource)))].sort();
    return {
      x: hours.map((hour) => Date.parse(hour.hour) / 1000),
      series: sources.map((source) => ({ label: source, values: hours.map((hour) => hour.bySource[source] ?? 0) })),
      sources,
      summary: `Signals per hour over the last 24 hours by source: ${sources
        .map((source) => `${source} ${hours.reduce((sum, hour) => sum + (hour.bySource[source] ?? 0), 0)}`)
        .join(", ")}.`,
    };
  }, [hours]);
  if (chart.sources.length === 0) return <p class="muted">No signals in the last 24 hours.</p>;
  return <LineChart x={chart.x} series={chart.series} summary={chart.summary} />;
}

/** What a key limited to projects sees in place of the figures: a note, and its projects. */
function ItsProjects() {
  const projects = useProjects();
  return (
    <section>
      <h1>Overview</h1>
      <SpansEveryProject what="the overview's figures" />
      <Failure error={projects.error} onReload={projects.reload} />
      {projects.data ? (
        <p>
          Its projects:{" "}
          {projects.data.map((project, index) => (
            <span key={project.id}>
              {index > 0 ? ", " : null}
              <a href={`/app/projects/${project.id}`}>{project.name}</a>
            </span>
          ))}
        </p>
      ) : null}
    </section>
  );
}

export function OverviewPage() {
  return allowed("GET", "/api/dashboard/stats") ? <Dashboard /> : <ItsProjects />;
}

function Dashboard() {
  const stats = useResource(
    async (kaizen) => (await kaizen.GET("/api/dashboard/stats")).data?.data,
    "stats",
    REFRESH_MS,
  );
  const data = stats.data;
  return (
    <section>
      <h1>Overview</h1>
      <Failure error={stats.error} />
      {!data ? (
        <Loading what="the dashboard" />
      ) : (
        <>
          <div class="figures">
            <Figure label="issues" value={data.issues.total} />
            <Figure label="in the queue" value={data.queue.depth} />
            <Figure label="signals, last 24 h" value={data.signals.last24h.total} />
            <Figure label="signals, last 7 days" value={data.signals.last7d.total} />
            <Figure
              label="median todo → done"
              value={duration(data.todoToDone.medianSeconds)}
              hint={`${data.todoToDone.count} finished`}
            />
          </div>
          <h2>Signals per hour, by source</h2>
          <SignalsChart hours={data.signals.perHour} />
          <div class="columns">
            <div>
              <h2>Issues by status</h2>
              <table>
                <TableHead columns={["Status", "Issues"]} numeric={["Issues"]} />
                <tbody>
                  {STATUSES.map((status) => (
                    <tr key={status}>
                      <td>
                        <a href={`/app/issues?status=${status}`}>{status.replace("_", " ")}</a>
                      </td>
                      <td class="num">{data.issues.byStatus[status] ?? 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div>
              <h2>Dispatch outcomes</h2>
              <table>
                <TableHead columns={["Dispatches", "Count"]} numeric={["Count"]} />
                <tbody>
                  {OUTCOMES.map((outcome) => (
                    <tr key={outcome}>
                      <td>{outcome}</td>
                      <td class="num">{data.dispatches[outcome] ?? 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div>
              <h2>Signals by source</h2>
              <table>
                <TableHead columns={["Source", "24 h", "7 days"]} numeric={["24 h", "7 days"]} />
                <tbody>
                  {Object.keys(data.signals.last7d.bySource)
                    .sort()
                    .map((source) => (
                      <tr key={source}>
                        <td>{source}</td>
                        <td class="num">{data.signals.last24h.bySource[source] ?? 0}</td>
                        <td class="num">{data.signals.last7d.bySource[source] ?? 0}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          </div>
          <p class="muted small">
            Updated <time dateTime={data.generatedAt}>{new Date(data.generatedAt).toLocaleTimeString()}</time>
            {", refreshing every "}
            {REFRESH_MS / 1000} s.
          </p>
        </>
      )}
    </section>
  );
}
