/**
 * @module console/pages/issue-triage — the triage form of `/app/issues/:id`: status (the moves the
 * state machine allows), priority, type, project and labels, sent with `If-Match` so a change made
 * against an issue that moved meanwhile is refused (412) and says so. A key limited to projects keeps
 * the issue in one of them, so it is offered no "none".
 */
import { useEffect, useState } from "preact/hooks";
import type { paths, Schema } from "../../../client/client.js";
import { ISSUE_STATUSES as STATUSES } from "../../../core/src/issues/issue-values.js";
import { transitionRefusal } from "../../../core/src/issues/transitions.js";
import { Failure } from "../components.js";
import { useAction, useResource } from "../resource.js";
import { session } from "../session.js";

export type Issue = Schema<"IssueDetail">;
type IssueChanges = paths["/api/issues/{id}"]["patch"]["requestBody"]["content"]["application/json"];

/** The triage form: the issue's status, priority, type, project and labels, saved in one PATCH. */
export function Triage({ issue, etag, onSaved }: { issue: Issue; etag: string | null; onSaved: () => void }) {
  const labels = useResource(
    async (kaizen) => (await kaizen.GET("/api/labels", { params: { query: { limit: 100 } } })).data?.data ?? [],
    "labels",
  );
  const projects = useResource(
    async (kaizen) => (await kaizen.GET("/api/projects", { params: { query: { limit: 100 } } })).data?.data ?? [],
    "projects",
  );
  // The form edits the issue as it was when editing began: while it holds unsaved changes, a refresh
  // does not overwrite them, and the save carries that version's ETag (a 412 if the issue moved since).
  const [base, setBase] = useState({ issue, etag });
  const [status, setStatus] = useState(issue.status);
  const [priority, setPriority] = useState(issue.priority);
  const [chosen, setChosen] = useState<string[]>(issue.labels);
  const [projectId, setProjectId] = useState(issue.projectId ?? "");
  const save = useAction();
  const narrowed = session.get().caller?.projectIds != null;

  const changes: IssueChanges = {};
  if (status !== base.issue.status) changes.status = status;
  if (priority !== base.issue.priority) changes.priority = priority;
  if ([...chosen].sort().join(",") !== [...base.issue.labels].sort().join(",")) changes.labels = chosen;
  if (projectId !== (base.issue.projectId ?? "")) changes.projectId = projectId || null;
  const dirty = Object.keys(changes).length > 0;
  const reset = (to: Issue, toEtag: string | null) => {
    setBase({ issue: to, etag: toEtag });
    setStatus(to.status);
    setPriority(to.priority);
    setChosen(to.labels);
    setProjectId(to.projectId ?? "");
  };
  // A new version of the issue resets a clean form.
  useEffect(() => {
    if (!dirty) reset(issue, etag);
  }, [issue, etag]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!dirty) return;
    const done = await save.run((kaizen) =>
      kaizen.PATCH("/api/issues/{id}", {
        params: { path: { id: base.issue.id } },
        body: changes,
        headers: base.etag ? { "If-Match": base.etag } : {},
      }),
    );
    if (done?.data) reset(done.data.data as Issue, done.response.headers.get("ETag"));
    if (done) onSaved();
  };
  const allLabels = [...new Set([...(labels.data ?? []).map((label) => label.name), ...base.issue.labels])].sort();
  return (
    <form class="triage" onSubmit={submit} aria-labelledby="triage-title">
      <h2 id="triage-title">Triage</h2>
      <div class="row">
        <label>
          Status
          <select
            value={status}
            onChange={(event) => setStatus((event.target as HTMLSelectElement).value as Issue["status"])}
          >
            {STATUSES.filter(
              (to) => to === base.issue.status || transitionRefusal(base.issue.status, to, "patch") === null,
            ).map((to) => (
              <option key={to} value={to}>
                {to.replace("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <label>
          Priority
          <select value={priority} onChange={(event) => setPriority(Number((event.target as HTMLSelectElement).value))}>
            {[0, 1, 2, 3, 4].map((value) => (
              <option key={value} value={value}>
                {value} {["none", "urgent", "high", "medium", "low"][value]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Project
          <select value={projectId} onChange={(event) => setProjectId((event.target as HTMLSelectElement).value)}>
            {narrowed ? null : <option value="">none</option>}
            {(projects.data ?? []).map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset>
        <legend>Labels</legend>
        {allLabels.length === 0 ? (
          <span class="muted">
            No labels yet: <a href="/app/labels">make one</a>.
          </span>
        ) : null}
        {allLabels.map((name) => (
          <label key={name} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(name)}
              onChange={(event) =>
                setChosen(
                  (event.target as HTMLInputElement).checked ? [...chosen, name] : chosen.filter((one) => one !== name),
                )
              }
            />
            {name}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={save.busy || !dirty}>
        {save.busy ? "Saving…" : "Save changes"}
      </button>
      <Failure
        error={save.error}
        onReload={() => {
          save.clear();
          reset(issue, etag);
          onSaved();
        }}
      />
    </form>
  );
}
