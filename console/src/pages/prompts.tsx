/**
 * @module console/pages/prompts — `/app/prompts`: every template with its active version's usage,
 * score, completion rate, what became of its work and its verified rate, and the experiment it runs.
 */
import { useLocation } from "preact-iso";
import { Badge, Failure, Loading, Pager, pageOf, SpansEveryProject, TableHead } from "../components.js";
import { dollars, OutcomesLegend, percent, WORK_OUTCOME_COLUMNS, WorkOutcomeCells } from "../outcomes.js";
import { REFRESH_MS, useResource } from "../resource.js";
import { allowed } from "../session.js";

const LIMIT = 25;
const NO_OUTCOMES = { merged: 0, reworked: 0, regressed: 0, verified: 0 };

export function PromptsPage() {
  if (!allowed("GET", "/api/dashboard/prompts")) {
    return (
      <section>
        <h1>Prompts</h1>
        <SpansEveryProject what="the templates' figures" />
      </section>
    );
  }
  return <PromptsFigures />;
}

function PromptsFigures() {
  const { query, route } = useLocation();
  const page = pageOf(query);
  const prompts = useResource(
    async (kaizen) => (await kaizen.GET("/api/dashboard/prompts", { params: { query: { page, limit: LIMIT } } })).data,
    String(page),
    REFRESH_MS,
  );
  return (
    <section>
      <h1>Prompts</h1>
      <p class="muted">
        Templates say when a prompt is used; their versions say what it says. Weak versions show here first.
      </p>
      <Failure error={prompts.error} onReload={prompts.reload} />
      {!prompts.data ? (
        <Loading what="the templates" />
      ) : prompts.data.data.length === 0 ? (
        <p>No template yet.</p>
      ) : (
        <>
          <table class="dense">
            <TableHead
              columns={[
                "Template",
                "Active version",
                "Used",
                "Reviews",
                "Score",
                "Completion",
                ...WORK_OUTCOME_COLUMNS,
                "Mean cost",
                "Experiment",
              ]}
              numeric={[
                "Active version",
                "Used",
                "Reviews",
                "Score",
                "Completion",
                ...WORK_OUTCOME_COLUMNS,
                "Mean cost",
              ]}
            />
            <tbody>
              {prompts.data.data.map(({ template, activeVersion, experiment }) => (
                <tr key={template.id}>
                  <td>
                    <a href={`/app/prompts/${template.id}`}>{template.name}</a>
                    <br />
                    <code class="muted small">{template.slug}</code>
                  </td>
                  <td class="num">{activeVersion ? `v${activeVersion.version}` : "none"}</td>
                  <td class="num">{activeVersion?.usageCount ?? 0}</td>
                  <td class="num">{activeVersion?.reviewCount ?? 0}</td>
                  <td class="num">{activeVersion?.reviewScore?.toFixed(2) ?? "—"}</td>
                  <td class="num">{percent(activeVersion?.completionRate ?? null)}</td>
                  <WorkOutcomeCells
                    counts={activeVersion?.outcomes ?? NO_OUTCOMES}
                    verifiedRate={activeVersion?.verifiedRate ?? null}
                  />
                  <td class="num">{dollars(activeVersion?.cost.meanCostUsd ?? null)}</td>
                  <td>
                    {experiment ? (
                      <Badge kind="running">
                        v{experiment.candidateVersionNumber} on {experiment.trafficPercent} %
                      </Badge>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <OutcomesLegend />
          <Pager
            page={page}
            limit={LIMIT}
            total={prompts.data.total}
            onPage={(next) => route(`/app/prompts?page=${next}`)}
          />
        </>
      )}
    </section>
  );
}
