/**
 * @module console/experiments — the Experiments section of a template's page (docs/api.md#experiments): the
 * running experiment with both arms side by side (their rates, what became of their work), a stop, a form to
 * start one with a draft, and the past experiments with their decisions. The stop and the start are
 * offered to a key that may make them.
 */
import { useState } from "preact/hooks";
import type { Schema } from "../../client/client.js";
import { costText, type ExperimentArm, rateText, scoreText } from "../../client/measures.js";
import { AskFirst, Badge, Failure, Loading, TableHead, When } from "./components.js";
import { WORK_OUTCOME_KEYS, WORK_OUTCOMES } from "./outcomes.js";
import { type Resource, useAction } from "./resource.js";
import { allowed } from "./session.js";

type Experiment = Schema<"Experiment">;
type Version = Schema<"Version">;

/** What a 409 from a stop or a start means here. */
const CONFLICT =
  "The experiment or the template changed meanwhile (a decision, a promotion or someone else's stop or start).";

/** One measure of the arms table: its label, and its text for an arm. */
type Row = [string, (arm: ExperimentArm) => string];

/**
 * Both arms side by side, a row per measure, each rate and mean with its 95 % interval, and what became of
 * each arm's completed work.
 */
function ArmsTable({ arms }: { arms: Experiment["arms"] }) {
  const control = `Control (v${arms.control.versionNumber})`;
  const candidate = `Candidate (v${arms.candidate.versionNumber})`;
  const rows: Row[] = [
    ["Claims", (arm) => String(arm.claims)],
    ["Finished", (arm) => String(arm.finished)],
    ["Completed / failed", (arm) => `${arm.completions} / ${arm.failures}`],
    ["Completion rate", (arm) => rateText(arm.completionRate)],
    ...WORK_OUTCOME_KEYS.map((key): Row => [WORK_OUTCOMES[key], (arm) => String(arm[key])]),
    ["Verified rate", (arm) => rateText(arm.verifiedRate)],
    ["Reviews", (arm) => String(arm.reviews)],
    ["Review score", (arm) => scoreText(arm.reviewScore)],
    ["Mean cost", (arm) => costText(arm.costUsd)],
  ];
  return (
    <table class="arms">
      <TableHead columns={["Measure", control, candidate]} numeric={[control, candidate]} />
      <tbody>
        {rows.map(([label, text]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td class="num">{text(arms.control)}</td>
            <td class="num">{text(arms.candidate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Running({
  experiment,
  stopping,
  onStop,
}: {
  experiment: Experiment;
  stopping: boolean;
  onStop: (experiment: Experiment) => void;
}) {
  const { control, candidate } = experiment.arms;
  return (
    <div class="experiment">
      <h3>
        Running: v{candidate.versionNumber} against v{control.versionNumber}
      </h3>
      <dl>
        <dt>Status</dt>
        <dd>
          <Badge kind="running">running</Badge>
        </dd>
        <dt>Traffic</dt>
        <dd>
          {experiment.trafficPercent} % of claims to v{candidate.versionNumber}, the rest to v{control.versionNumber}
        </dd>
        <dt>Min samples</dt>
        <dd>
          {experiment.minSamples} finished dispatches in each arm (so far {control.finished} for v
          {control.versionNumber}, {candidate.finished} for v{candidate.versionNumber})
        </dd>
        <dt>Auto-promote</dt>
        <dd>{experiment.autoPromote ? "yes: a winner becomes the active version" : "no: a winner is only marked"}</dd>
        <dt>Started</dt>
        <dd>
          <When at={experiment.createdAt} />
        </dd>
      </dl>
      <ArmsTable arms={experiment.arms} />
      {allowed("DELETE", "/api/templates/{id}/experiments/{experimentId}") ? (
        <AskFirst
          button="Stop experiment"
          disabled={stopping}
          question="Stop this experiment?"
          yes="Yes, stop it"
          busy={stopping}
          onYes={() => onStop(experiment)}
        >
          <p>
            v{control.versionNumber} takes every claim again; v{candidate.versionNumber} stays a draft.
          </p>
        </AskFirst>
      ) : null}
    </div>
  );
}

function Start({ templateId, versions, onStarted }: { templateId: string; versions: Version[]; onStarted(): void }) {
  const drafts = versions.filter((version) => version.status === "draft");
  const [chosen, setChosen] = useState("");
  const [traffic, setTraffic] = useState("10");
  const [minSamples, setMinSamples] = useState("20");
  const [autoPromote, setAutoPromote] = useState(true);
  const start = useAction();
  // A draft promoted or a new one written since: fall back to the newest draft.
  const candidate = drafts.some((draft) => draft.id === chosen) ? chosen : (drafts[0]?.id ?? "");
  if (!allowed("POST", "/api/templates/{id}/experiments")) return <p>No experiment is running.</p>;
  if (drafts.length === 0) {
    return (
      <p>
        No experiment is running. To try a new wording, write a draft version (
        <code>POST /api/templates/{templateId}/versions</code>), then start an experiment with it here.
      </p>
    );
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    const started = await start.run((kaizen) =>
      kaizen.POST("/api/templates/{id}/experiments", {
        params: { path: { id: templateId } },
        body: {
          candidateVersionId: candidate,
          trafficPercent: Number(traffic),
          minSamples: Number(minSamples),
          autoPromote,
        },
      }),
    );
    if (started) onStarted();
  };
  return (
    <>
      <h3 id="start-experiment">Start an experiment</h3>
      <p class="muted">
        A draft takes a share of this template's claims, each issue staying in its arm; once both arms have the minimum
        of finished dispatches, a candidate better on completion rate, review score or verified rate (95 % intervals
        apart) and worse on none wins, one worse on any and better on none loses.
      </p>
      <form class="row" aria-labelledby="start-experiment" onSubmit={submit}>
        <label>
          Candidate
          <select value={candidate} onChange={(event) => setChosen((event.target as HTMLSelectElement).value)}>
            {drafts.map((draft) => (
              <option key={draft.id} value={draft.id}>
                v{draft.version} (draft)
              </option>
            ))}
          </select>
        </label>
        <label>
          Traffic (%)
          <input
            type="number"
            min={1}
            max={50}
            required
            value={traffic}
            onInput={(event) => setTraffic((event.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Min samples per arm
          <input
            type="number"
            min={1}
            max={10000}
            required
            value={minSamples}
            onInput={(event) => setMinSamples((event.target as HTMLInputElement).value)}
          />
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={autoPromote}
            onChange={(event) => setAutoPromote((event.target as HTMLInputElement).checked)}
          />
          Promote a winner automatically
        </label>
        <button type="submit" disabled={start.busy}>
          Start experiment
        </button>
      </form>
      <Failure error={start.error} conflict={CONFLICT} />
    </>
  );
}

function Past({ experiments }: { experiments: Experiment[] }) {
  if (experiments.length === 0) return null;
  return (
    <>
      <h3>Past experiments</h3>
      <table>
        <TableHead
          columns={["Candidate", "Control", "Traffic", "Started", "Outcome", "Reason", "Decided", "Figures"]}
          numeric={["Traffic"]}
        />
        <tbody>
          {experiments.map((experiment) => (
            <tr key={experiment.id}>
              <td>v{experiment.arms.candidate.versionNumber}</td>
              <td>v{experiment.arms.control.versionNumber}</td>
              <td class="num">{experiment.trafficPercent} %</td>
              <td>
                <When at={experiment.createdAt} />
              </td>
              <td>
                <Badge kind={experiment.status}>{experiment.status}</Badge>
              </td>
              <td>{experiment.decision?.reason ?? "—"}</td>
              <td>
                <When at={experiment.decision?.decidedAt ?? experiment.endedAt} />
              </td>
              <td>
                {experiment.decision ? (
                  <details>
                    <summary>At the decision</summary>
                    <ArmsTable arms={experiment.decision.arms} />
                  </details>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * The Experiments section: `experiments` is the template's list (the page reloads it after a
 * promotion, which ends a running one); `onEnded` reloads what an ended experiment changes.
 */
export function Experiments({
  templateId,
  versions,
  experiments,
  onEnded,
}: {
  templateId: string;
  versions: Version[];
  experiments: Resource<Experiment[]>;
  onEnded(): void;
}) {
  const stop = useAction();
  const doStop = async (experiment: Experiment) => {
    await stop.run((kaizen) =>
      kaizen.DELETE("/api/templates/{id}/experiments/{experimentId}", {
        params: { path: { id: templateId, experimentId: experiment.id } },
      }),
    );
    // Stopped, or ended meanwhile (the 409 stays shown): either way the list has changed.
    experiments.reload();
    onEnded();
  };
  const running = experiments.data?.find((experiment) => experiment.status === "running");
  return (
    <section aria-labelledby="experiments-title">
      <h2 id="experiments-title">Experiments</h2>
      <Failure error={experiments.error} onReload={experiments.reload} />
      <Failure error={stop.error} conflict={CONFLICT} />
      {!experiments.data ? (
        <Loading what="the experiments" />
      ) : (
        <>
          {running ? (
            <Running experiment={running} stopping={stop.busy} onStop={(experiment) => void doStop(experiment)} />
          ) : (
            <Start
              templateId={templateId}
              versions={versions}
              onStarted={() => {
                stop.clear();
                experiments.reload();
              }}
            />
          )}
          <Past experiments={experiments.data.filter((experiment) => experiment.status !== "running")} />
        </>
      )}
    </section>
  );
}
