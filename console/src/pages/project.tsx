/**
 * @module console/pages/project — `/app/projects/:id`: one project's issue counts (each a link to
 * those issues), what its agents reported today, its settings (name, description, status, health,
 * goal, limits, automation, autonomy), its sources and its goals; a key that may not change the project
 * sees its settings and sources without their forms. Changes are sent with the project's
 * `If-Match`, so one made against a project that changed meanwhile is refused (412) and says so;
 * the page does not poll, so no refresh overwrites a form being filled in.
 */
import { useEffect, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import type { paths, Schema } from "../../../client/client.js";
import { ISSUE_STATUSES } from "../../../core/src/issues/issue-values.js";
import {
  type Goal,
  PRIORITIES,
  PROJECT_HEALTHS,
  PROJECT_STATUSES,
  type Project,
  useGoals,
  useProjects,
  words,
} from "../catalog.js";
import { Badge, Failure, Figure, fieldValue, Loading, Markdown } from "../components.js";
import { Goals } from "../goals.js";
import { type Resource, useAction, useResource } from "../resource.js";
import { allowed } from "../session.js";
import { ProjectSources } from "./project-sources.js";

type Detail = Schema<"ProjectDetail">;
type ProjectChanges = paths["/api/projects/{id}"]["patch"]["requestBody"]["content"]["application/json"];

/** A number field's value: null when empty. */
function numberOrNull(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}
const text = (value: number | null) => (value === null ? "" : String(value));

/** Whether two objects of settings say the same, whatever the order of their keys. */
function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => Object.is(a[key] ?? null, b[key] ?? null));
}

/** The settings form, opened on one version of the project (the page remounts it on the next). */
function Settings({
  project,
  etag,
  goals,
  onSaved,
}: {
  project: Detail;
  etag: string | null;
  goals: Resource<Goal[]>;
  onSaved: () => void;
}) {
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? "");
  const [status, setStatus] = useState(project.status);
  const [health, setHealth] = useState(project.health);
  const [goalId, setGoalId] = useState(project.goalId ?? "");
  const [maxActive, setMaxActive] = useState(text(project.limits.maxActivePerAgent));
  const [budget, setBudget] = useState(text(project.limits.dailyCostBudgetUsd));
  const [maxInReview, setMaxInReview] = useState(text(project.limits.maxInReview));
  const [perDispatch, setPerDispatch] = useState(text(project.limits.maxCostPerDispatchUsd));
  const [planApproval, setPlanApproval] = useState(project.autonomy.planApproval);
  const [verifyHours, setVerifyHours] = useState(text(project.verifyHours));
  const [atPriority, setAtPriority] = useState(text(project.automation.acceptAtPriority));
  const [atSignals, setAtSignals] = useState(text(project.automation.acceptAtSignals));
  const save = useAction();

  const changes: ProjectChanges = {};
  if (name.trim() !== project.name) changes.name = name.trim();
  if ((description.trim() || null) !== project.description) changes.description = description.trim() || null;
  if (status !== project.status) changes.status = status;
  if (health !== project.health) changes.health = health;
  if ((goalId || null) !== project.goalId) changes.goalId = goalId || null;
  const limits = {
    maxActivePerAgent: numberOrNull(maxActive),
    dailyCostBudgetUsd: numberOrNull(budget),
    maxInReview: numberOrNull(maxInReview),
    maxCostPerDispatchUsd: numberOrNull(perDispatch),
  };
  // The API replaces the whole limits object, so a change sends every limit.
  if (!sameSettings(limits, project.limits)) changes.limits = limits;
  const hours = numberOrNull(verifyHours);
  if (hours !== null && hours !== project.verifyHours) changes.verifyHours = hours;
  const automation = { acceptAtPriority: numberOrNull(atPriority), acceptAtSignals: numberOrNull(atSignals) };
  if (!sameSettings(automation, project.automation)) changes.automation = automation;
  if (planApproval !== project.autonomy.planApproval) changes.autonomy = { planApproval };
  const dirty = Object.keys(changes).length > 0;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!dirty) return;
    const saved = await save.run((kaizen) =>
      kaizen.PATCH("/api/projects/{id}", {
        params: { path: { id: project.id } },
        body: changes,
        headers: etag ? { "If-Match": etag } : {},
      }),
    );
    if (saved) onSaved();
  };
  const goalOptions = goals.data ?? [];
  return (
    <form class="triage" aria-labelledby="settings-title" onSubmit={submit}>
      <h2 id="settings-title">Settings</h2>
      <div class="row">
        <label>
          Name
          <input required maxLength={200} value={name} onInput={(event) => setName(fieldValue(event))} />
        </label>
        <label>
          Status
          <select value={status} onChange={(event) => setStatus(fieldValue(event) as Project["status"])}>
            {PROJECT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Health
          <select value={health} onChange={(event) => setHealth(fieldValue(event) as Project["health"])}>
            {PROJECT_HEALTHS.map((value) => (
              <option key={value} value={value}>
                {words(value)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Goal
          <select value={goalId} onChange={(event) => setGoalId(fieldValue(event))}>
            <option value="">none</option>
            {project.goalId && !goalOptions.some((goal) => goal.id === project.goalId) ? (
              <option value={project.goalId}>{project.goalId}</option>
            ) : null}
            {goalOptions.map((goal) => (
              <option key={goal.id} value={goal.id}>
                {goal.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label class="block">
        Description (Markdown)
        <textarea rows={3} value={description} onInput={(event) => setDescription(fieldValue(event))} />
      </label>
      <fieldset class="row">
        <legend>Limits (empty: no limit)</legend>
        <label>
          Max active dispatches per agent
          <input
            type="number"
            min={1}
            max={100}
            value={maxActive}
            onInput={(event) => setMaxActive(fieldValue(event))}
          />
        </label>
        <label>
          Daily cost budget (USD)
          <input
            type="number"
            min={0.01}
            step={0.01}
            value={budget}
            onInput={(event) => setBudget(fieldValue(event))}
          />
        </label>
        <label>
          Max cost per dispatch (USD)
          <input
            type="number"
            min={0.01}
            step={0.01}
            value={perDispatch}
            onInput={(event) => setPerDispatch(fieldValue(event))}
          />
        </label>
        <label>
          Max issues in review
          <input
            type="number"
            min={1}
            max={100}
            value={maxInReview}
            onInput={(event) => setMaxInReview(fieldValue(event))}
          />
        </label>
        <label>
          Watch merged fixes (hours)
          <input
            type="number"
            required
            min={1}
            max={720}
            value={verifyHours}
            onInput={(event) => setVerifyHours(fieldValue(event))}
          />
        </label>
      </fieldset>
      <fieldset class="row">
        <legend>Automation: triage issues move to todo by themselves</legend>
        <label>
          At priority
          <select value={atPriority} onChange={(event) => setAtPriority(fieldValue(event))}>
            <option value="">off</option>
            {[1, 2, 3, 4].map((value) => (
              <option key={value} value={value}>
                {value} {PRIORITIES[value]}
                {value > 1 ? " or more urgent" : ""}
              </option>
            ))}
          </select>
        </label>
        <label>
          At signals (2–1000, empty: off)
          <input
            type="number"
            min={2}
            max={1000}
            value={atSignals}
            onInput={(event) => setAtSignals(fieldValue(event))}
          />
        </label>
      </fieldset>
      <fieldset>
        <legend>Autonomy</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={planApproval}
            onChange={(event) => setPlanApproval((event.target as HTMLInputElement).checked)}
          />
          Agents post a plan and wait for a person's approval before they complete
        </label>
        <p class="muted small">Applies to the dispatches claimed after the change, as the cost per dispatch does.</p>
      </fieldset>
      <button type="submit" disabled={save.busy || !dirty || !name.trim()}>
        {save.busy ? "Saving…" : "Save project"}
      </button>
      <Failure
        error={save.error}
        conflict="The API refused the change."
        stale="The project changed since this page loaded it, so the change was not applied."
        onReload={() => {
          save.clear();
          onSaved();
        }}
      />
    </form>
  );
}

/** The settings as they are, for a key that may read the project but not change it. */
function SettingsSummary({ project, goals }: { project: Detail; goals: Goal[] }) {
  const none = (value: number | null, unit = "") => (value === null ? "no limit" : `${value}${unit}`);
  const usd = (value: number | null) => (value === null ? "no limit" : `$${value}`);
  const { limits, automation } = project;
  const accepts = [
    automation.acceptAtPriority === null ? null : `at priority ${automation.acceptAtPriority} or more urgent`,
    automation.acceptAtSignals === null ? null : `at ${automation.acceptAtSignals} signals`,
  ].filter(Boolean);
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <dl>
        <dt>Goal</dt>
        <dd>{project.goalId ? (goals.find((goal) => goal.id === project.goalId)?.title ?? project.goalId) : "none"}</dd>
        <dt>Max active dispatches per agent</dt>
        <dd>{none(limits.maxActivePerAgent)}</dd>
        <dt>Daily cost budget</dt>
        <dd>{usd(limits.dailyCostBudgetUsd)}</dd>
        <dt>Max cost per dispatch</dt>
        <dd>{usd(limits.maxCostPerDispatchUsd)}</dd>
        <dt>Max issues in review</dt>
        <dd>{none(limits.maxInReview)}</dd>
        <dt>Watch merged fixes</dt>
        <dd>{project.verifyHours} hours</dd>
        <dt>Triage issues move to todo by themselves</dt>
        <dd>{accepts.length > 0 ? accepts.join(", or ") : "off"}</dd>
        <dt>Agents wait for a person's approval of their plan</dt>
        <dd>{project.autonomy.planApproval ? "yes" : "no"}</dd>
      </dl>
    </section>
  );
}

function IssueCounts({ project }: { project: Detail }) {
  const issues = `/app/issues?projectId=${project.id}`;
  const total = Object.values(project.issueCounts).reduce((sum, count) => sum + count, 0);
  return (
    <section aria-labelledby="counts-title">
      <h2 id="counts-title">Issues</h2>
      <div class="figures">
        <Figure label="issues in all" value={<a href={issues}>{total}</a>} />
        {ISSUE_STATUSES.map((status) => (
          <Figure
            key={status}
            label={words(status)}
            value={<a href={`${issues}&status=${status}`}>{project.issueCounts[status] ?? 0}</a>}
          />
        ))}
        <Figure
          label="cost reported today"
          value={`$${project.usage.costUsd.toFixed(2)}`}
          hint={`${project.usage.reports} report${project.usage.reports === 1 ? "" : "s"} on ${project.usage.date}`}
        />
      </div>
      <p>
        <a href={issues}>This project's issues</a>
      </p>
    </section>
  );
}

export function ProjectPage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const project = useResource(async (kaizen) => {
    const { data, response } = await kaizen.GET("/api/projects/{id}", { params: { path: { id } } });
    return { project: data?.data as Detail, etag: response.headers.get("ETag") };
  }, id);
  const projects = useProjects();
  const goals = useGoals(id);
  const current = project.data?.project;
  useEffect(() => {
    if (current) document.title = `${current.name} · Kaizen console`;
  }, [current?.name]);
  if (!current) {
    return (
      <section>
        <h1>Project {id}</h1>
        <Failure error={project.error} onReload={project.reload} />
        {project.error ? null : <Loading what="the project" />}
      </section>
    );
  }
  const etag = project.data?.etag ?? null;
  const mayChange = allowed("PATCH", "/api/projects/{id}");
  return (
    <article>
      <p class="muted">
        <a href="/app/projects">Projects</a> / {current.name}
      </p>
      <h1>{current.name}</h1>
      <p>
        <Badge kind={current.status}>{current.status}</Badge>{" "}
        <Badge kind={current.health}>{words(current.health)}</Badge>
      </p>
      {current.description ? <Markdown text={current.description} /> : null}
      <IssueCounts project={current} />
      {mayChange ? (
        <Settings key={current.updatedAt} project={current} etag={etag} goals={goals} onSaved={project.reload} />
      ) : (
        <SettingsSummary project={current} goals={goals.data ?? []} />
      )}
      <ProjectSources
        projectId={current.id}
        sources={current.sources}
        etag={etag}
        editable={mayChange}
        onSaved={project.reload}
      />
      <section aria-labelledby="goals-title">
        <h2 id="goals-title">Goals</h2>
        <Goals goals={goals} projectId={current.id} projects={projects.data ?? []} />
      </section>
    </article>
  );
}
