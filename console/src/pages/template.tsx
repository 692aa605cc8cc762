/**
 * @module console/pages/template — `/app/prompts/:id`: one template, its versions with their score,
 * completion and verified rate trends, what became of each version's work and how people reviewed it,
 * its experiments, a preview of any version on any issue, and promotion of a version (for a key that
 * may change templates).
 */

import { useMemo, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import type { Schema } from "../../../client/client.js";
import { LineChart } from "../chart.js";
import { Badge, Failure, Loading, TableHead, When } from "../components.js";
import { Experiments } from "../experiments.js";
import { dollars, OutcomesLegend, percent, WORK_OUTCOME_COLUMNS, WorkOutcomeCells } from "../outcomes.js";
import { REFRESH_MS, useAction, useResource } from "../resource.js";
import { allowed } from "../session.js";

type Version = Schema<"Version">;

/** A rate (0..1) as a chart's percent; null stays a gap. */
function asPercent(rate: number | null): number | null {
  return rate === null ? null : rate * 100;
}

function Trends({ versions }: { versions: Version[] }) {
  const chart = useMemo(() => {
    const ordered = [...versions].sort((a, b) => a.version - b.version);
    return {
      x: ordered.map((version) => version.version),
      score: [{ label: "review score", values: ordered.map((version) => version.reviewScore) }],
      rates: [
        { label: "completion %", values: ordered.map((version) => asPercent(version.completionRate)) },
        { label: "verified %", values: ordered.map((version) => asPercent(version.verifiedRate)) },
      ],
      summary: ordered
        .map(
          (version) =>
            `v${version.version}: score ${version.reviewScore?.toFixed(2) ?? "none"}, completion ${percent(version.completionRate)}, verified ${percent(version.verifiedRate)}`,
        )
        .join("; "),
    };
  }, [versions]);
  if (versions.length < 2) return null;
  return (
    <div class="columns">
      <div>
        <h3>Review score by version</h3>
        <LineChart
          x={chart.x}
          series={chart.score}
          time={false}
          height={180}
          summary={`Review score by version: ${chart.summary}`}
        />
      </div>
      <div>
        <h3>Completion and verified rate by version</h3>
        <LineChart
          x={chart.x}
          series={chart.rates}
          time={false}
          height={180}
          summary={`Completion and verified rate by version: ${chart.summary}`}
        />
      </div>
    </div>
  );
}

const HUMAN_REVIEW_COLUMNS = ["Approved", "Changes requested", "Commented"];

/** Per version: what became of its dispatches' work, and people's code-host reviews of their pull requests. */
function Outcomes({ versions }: { versions: Version[] }) {
  return (
    <>
      <h3 id="outcomes-title">What became of the work</h3>
      <table aria-labelledby="outcomes-title">
        <TableHead
          columns={["Version", "Completed", ...WORK_OUTCOME_COLUMNS, ...HUMAN_REVIEW_COLUMNS]}
          numeric={["Completed", ...WORK_OUTCOME_COLUMNS, ...HUMAN_REVIEW_COLUMNS]}
        />
        <tbody>
          {versions.map((version) => (
            <tr key={version.id}>
              <th scope="row">v{version.version}</th>
              <td class="num">{version.outcomes.completed}</td>
              <WorkOutcomeCells counts={version.outcomes} verifiedRate={version.verifiedRate} />
              <td class="num">{version.humanReviews.approved}</td>
              <td class="num">{version.humanReviews.changesRequested}</td>
              <td class="num">{version.humanReviews.commented}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <OutcomesLegend completed>
        Approved, changes requested, commented: people's reviews of its pull requests on the code host, per verdict.
      </OutcomesLegend>
    </>
  );
}

function Preview({ versions }: { versions: Version[] }) {
  const [issueRef, setIssueRef] = useState("");
  const [versionId, setVersionId] = useState(versions[0]?.id ?? "");
  const preview = useAction();
  const [result, setResult] = useState<Schema<"TemplatePreview"> | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setResult(null);
    const answer = await preview.run((kaizen) =>
      kaizen.GET("/api/templates/preview/{issueId}", {
        params: { path: { issueId: issueRef.trim() }, query: versionId ? { versionId } : {} },
      }),
    );
    if (answer?.data) setResult(answer.data.data);
  };
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">Preview a version on an issue</h2>
      <form class="row" onSubmit={submit}>
        <label>
          Issue
          <input
            value={issueRef}
            placeholder="KZN-12"
            required
            onInput={(event) => setIssueRef((event.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Version
          <select value={versionId} onChange={(event) => setVersionId((event.target as HTMLSelectElement).value)}>
            {versions.map((version) => (
              <option key={version.id} value={version.id}>
                v{version.version} ({version.status})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={preview.busy}>
          Preview
        </button>
      </form>
      <Failure error={preview.error} />
      {result ? (
        result.text === null ? (
          <p>No text: the version did not render for this issue.</p>
        ) : (
          <pre class="prompt">{result.text}</pre>
        )
      ) : null}
    </section>
  );
}

export function TemplatePage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const template = useResource(
    async (kaizen) => (await kaizen.GET("/api/templates/{id}", { params: { path: { id } } })).data?.data,
    id,
    REFRESH_MS,
  );
  const versions = useResource(
    async (kaizen) =>
      (await kaizen.GET("/api/templates/{id}/versions", { params: { path: { id }, query: { limit: 100 } } })).data
        ?.data ?? [],
    id,
    REFRESH_MS,
  );
  const experiments = useResource(
    async (kaizen) =>
      (await kaizen.GET("/api/templates/{id}/experiments", { params: { path: { id }, query: { limit: 100 } } })).data
        ?.data ?? [],
    id,
    REFRESH_MS,
  );
  const promote = useAction();
  const doPromote = async (version: Version) => {
    const done = await promote.run((kaizen) =>
      kaizen.POST("/api/templates/{id}/versions/{versionId}/promote", {
        params: { path: { id, versionId: version.id } },
      }),
    );
    if (done) {
      template.reload();
      versions.reload();
      // A promotion ends a running experiment.
      experiments.reload();
    }
  };
  const current = template.data;
  const mayPromote = allowed("POST", "/api/templates/{id}/versions/{versionId}/promote");
  const running = experiments.data?.find((experiment) => experiment.status === "running");
  return (
    <article>
      <p class="muted">
        <a href="/app/prompts">Prompts</a> / {current?.slug ?? id}
      </p>
      <h1>{current ? current.name : `Template ${id}`}</h1>
      <Failure error={template.error} onReload={template.reload} />
      {!current ? (
        template.error ? null : (
          <Loading what="the template" />
        )
      ) : (
        <>
          {current.description ? <p>{current.description}</p> : null}
          <p>
            Used when: <code>{JSON.stringify(current.conditions)}</code> · specificity {current.specificity}
          </p>
          <h2>Versions</h2>
          <Failure error={versions.error} onReload={versions.reload} />
          <Failure error={promote.error} onReload={versions.reload} />
          {versions.data ? (
            <>
              <Trends versions={versions.data} />
              <table>
                <TableHead
                  columns={[
                    "Version",
                    "Status",
                    "Used",
                    "Reviews",
                    "Score",
                    "Completion",
                    "Mean cost",
                    "By",
                    "Created",
                    ...(mayPromote ? ["Actions"] : []),
                  ]}
                  numeric={["Used", "Reviews", "Score", "Completion", "Mean cost"]}
                  unseen={["Actions"]}
                />
                <tbody>
                  {versions.data.map((version) => (
                    <tr key={version.id}>
                      <td>
                        <details>
                          <summary>v{version.version}</summary>
                          {version.changelog ? <p>{version.changelog}</p> : null}
                          <pre class="prompt">{version.content}</pre>
                        </details>
                      </td>
                      <td>
                        <Badge kind={version.status}>{version.status}</Badge>
                        {running?.candidateVersionId === version.id ? (
                          <>
                            {" "}
                            <Badge kind="running">candidate, {running.trafficPercent} %</Badge>
                          </>
                        ) : null}
                      </td>
                      <td class="num">{version.usageCount}</td>
                      <td class="num">{version.reviewCount}</td>
                      <td class="num">{version.reviewScore?.toFixed(2) ?? "—"}</td>
                      <td class="num">{percent(version.completionRate)}</td>
                      <td class="num" title={`${version.cost.reports} reported; $${version.cost.costUsd} in all`}>
                        {dollars(version.cost.meanCostUsd)}
                      </td>
                      <td>
                        {version.authorName ?? "—"} ({version.authorType})
                      </td>
                      <td>
                        <When at={version.createdAt} />
                      </td>
                      {mayPromote ? (
                        <td>
                          {version.status === "active" ? null : (
                            <button type="button" disabled={promote.busy} onClick={() => void doPromote(version)}>
                              Promote v{version.version}
                            </button>
                          )}
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
              <Outcomes versions={versions.data} />
              <Experiments
                templateId={current.id}
                versions={versions.data}
                experiments={experiments}
                onEnded={() => {
                  template.reload();
                  versions.reload();
                }}
              />
              <Preview versions={versions.data} />
            </>
          ) : (
            <Loading what="the versions" />
          )}
        </>
      )}
    </article>
  );
}
