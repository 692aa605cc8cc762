/**
 * @module console/goals — goals listed, created and edited: the whole `/app/goals` page, and the
 * goals of one project on its page. An edit reads the goal first and is sent with its `If-Match`,
 * so a change made meanwhile is refused (412) instead of overwritten.
 */
import { useState } from "preact/hooks";
import type { paths } from "../../client/client.js";
import { GOAL_STATUSES, type Goal, type Project } from "./catalog.js";
import { Badge, Failure, fieldValue, Loading, TableHead } from "./components.js";
import { type Resource, useAction, useResource } from "./resource.js";
import { allowed } from "./session.js";

type GoalBody = paths["/api/goals"]["post"]["requestBody"]["content"]["application/json"];

/** A number field's value: null when empty. */
function numberOrNull(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

/** The goal's progress in words: "42 / 99.9 % uptime". */
export function progress(goal: Goal): string {
  const value = (n: number | null) => (n === null ? "—" : n.toLocaleString());
  return `${value(goal.currentValue)} / ${value(goal.targetValue)}${goal.unit ? ` ${goal.unit}` : ""}`;
}

/** The fields of a goal, for a new one (`goal` absent) or an edit; `projectId` fixes the project. */
function GoalForm({
  goal,
  projects,
  projectId,
  title: formTitle,
  busy,
  onSubmit,
  onCancel,
}: {
  goal?: Goal;
  projects: Project[];
  projectId?: string;
  title: string;
  busy: boolean;
  onSubmit: (body: GoalBody) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [title, setTitle] = useState(goal?.title ?? "");
  const [status, setStatus] = useState<Goal["status"]>(goal?.status ?? "active");
  const [metric, setMetric] = useState(goal?.metric ?? "");
  const [current, setCurrent] = useState(goal?.currentValue?.toString() ?? "");
  const [target, setTarget] = useState(goal?.targetValue?.toString() ?? "");
  const [unit, setUnit] = useState(goal?.unit ?? "");
  const [project, setProject] = useState(goal?.projectId ?? projectId ?? "");
  const formId = `goal-form-${goal?.id ?? "new"}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: GoalBody = {
      title: title.trim(),
      status,
      metric: metric.trim() || null,
      currentValue: numberOrNull(current),
      targetValue: numberOrNull(target),
      unit: unit.trim() || null,
      projectId: project || null,
    };
    if (await onSubmit(body)) {
      if (!goal) {
        setTitle("");
        setMetric("");
        setCurrent("");
        setTarget("");
        setUnit("");
      }
    }
  };
  return (
    <form class="row goal-form" aria-labelledby={formId} onSubmit={submit}>
      <h3 id={formId} class="form-title">
        {formTitle}
      </h3>
      <label>
        Title
        <input required maxLength={200} value={title} onInput={(event) => setTitle(fieldValue(event))} />
      </label>
      <label>
        Status
        <select value={status} onChange={(event) => setStatus(fieldValue(event) as Goal["status"])}>
          {GOAL_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <label>
        Metric
        <input maxLength={200} value={metric} onInput={(event) => setMetric(fieldValue(event))} />
      </label>
      <label>
        Current value
        <input type="number" step="any" value={current} onInput={(event) => setCurrent(fieldValue(event))} />
      </label>
      <label>
        Target value
        <input type="number" step="any" value={target} onInput={(event) => setTarget(fieldValue(event))} />
      </label>
      <label>
        Unit
        <input maxLength={50} value={unit} onInput={(event) => setUnit(fieldValue(event))} />
      </label>
      {projectId ? null : (
        <label>
          Project
          <select value={project} onChange={(event) => setProject(fieldValue(event))}>
            <option value="">none</option>
            {projects.map((one) => (
              <option key={one.id} value={one.id}>
                {one.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" disabled={busy || !title.trim()}>
        {goal ? "Save goal" : "Create goal"}
      </button>
      {onCancel ? (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </form>
  );
}

/** One goal's edit: the goal read afresh for its ETag, then the form. */
function EditGoal({
  id,
  projects,
  projectId,
  onDone,
}: {
  id: string;
  projects: Project[];
  projectId?: string;
  onDone: (saved: boolean) => void;
}) {
  const goal = useResource(async (kaizen) => {
    const { data, response } = await kaizen.GET("/api/goals/{id}", { params: { path: { id } } });
    return { goal: data?.data as Goal, etag: response.headers.get("ETag") };
  }, id);
  const save = useAction();
  if (goal.error) return <Failure error={goal.error} />;
  if (!goal.data) return <Loading what="the goal" />;
  const { etag } = goal.data;
  return (
    <>
      <GoalForm
        key={etag}
        goal={goal.data.goal}
        projects={projects}
        projectId={projectId}
        title={`Edit goal: ${goal.data.goal.title}`}
        busy={save.busy}
        onSubmit={async (body) => {
          const saved = await save.run((kaizen) =>
            kaizen.PATCH("/api/goals/{id}", {
              params: { path: { id } },
              body,
              headers: etag ? { "If-Match": etag } : {},
            }),
          );
          if (saved) onDone(true);
          return Boolean(saved);
        }}
        onCancel={() => onDone(false)}
      />
      <Failure
        error={save.error}
        stale="The goal changed since this form read it, so the change was not applied."
        onReload={() => {
          save.clear();
          goal.reload();
        }}
      />
    </>
  );
}

/** `goals` (those of `projectId` when given), each editable, and a form for a new one. */
export function Goals({
  goals,
  projectId,
  projects,
}: {
  goals: Resource<Goal[]>;
  projectId?: string;
  projects: Project[];
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const create = useAction();
  const mayEdit = allowed("PATCH", "/api/goals/{id}");
  const projectName = (id: string | null) => projects.find((project) => project.id === id)?.name;
  return (
    <>
      <Failure error={goals.error} onReload={goals.reload} />
      {!goals.data ? (
        <Loading what="the goals" />
      ) : goals.data.length === 0 ? (
        <p class="muted">No goal yet.</p>
      ) : (
        <table class="goals">
          <TableHead
            columns={[
              "Goal",
              "Status",
              "Metric",
              "Progress",
              ...(projectId ? [] : ["Project"]),
              ...(mayEdit ? ["Edit"] : []),
            ]}
            unseen={["Edit"]}
          />
          <tbody>
            {goals.data.map((goal) => (
              <tr key={goal.id}>
                <td>{goal.title}</td>
                <td>
                  <Badge kind={goal.status}>{goal.status}</Badge>
                </td>
                <td>{goal.metric ?? <span class="muted">—</span>}</td>
                <td>{progress(goal)}</td>
                {projectId ? null : (
                  <td>
                    {goal.projectId ? (
                      <a href={`/app/projects/${goal.projectId}`}>{projectName(goal.projectId) ?? goal.projectId}</a>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                )}
                {mayEdit ? (
                  <td>
                    <button type="button" aria-label={`Edit goal ${goal.title}`} onClick={() => setEditing(goal.id)}>
                      Edit
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && mayEdit ? (
        <EditGoal
          key={editing}
          id={editing}
          projects={projects}
          projectId={projectId}
          onDone={(saved) => {
            setEditing(null);
            if (saved) goals.reload();
          }}
        />
      ) : null}
      {allowed("POST", "/api/goals") ? (
        <>
          <GoalForm
            projects={projects}
            projectId={projectId}
            title="New goal"
            busy={create.busy}
            onSubmit={async (body) => {
              const created = await create.run((kaizen) => kaizen.POST("/api/goals", { body }));
              if (created) goals.reload();
              return Boolean(created);
            }}
          />
          <Failure error={create.error} />
        </>
      ) : null}
    </>
  );
}
