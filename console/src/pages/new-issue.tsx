/**
 * @module console/pages/new-issue — the new-issue form of `/app/issues`: title, type, priority,
 * project, labels and a Markdown description; once the API has made it, its page opens. A key limited
 * to projects makes issues only in them, so it is offered no "none".
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { paths } from "../../../client/client.js";
import { ISSUE_TYPES, PRIORITIES, useLabels, useProjects } from "../catalog.js";
import { Failure, fieldValue } from "../components.js";
import { useAction } from "../resource.js";
import { session } from "../session.js";

type NewIssue = paths["/api/issues"]["post"]["requestBody"]["content"]["application/json"];

export function NewIssueForm({ onCancel }: { onCancel: () => void }) {
  const { route } = useLocation();
  const labels = useLabels();
  const projects = useProjects();
  const [title, setTitle] = useState("");
  const [type, setType] = useState<NewIssue["type"]>("task");
  const [priority, setPriority] = useState(0);
  const [projectId, setProjectId] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [description, setDescription] = useState("");
  const create = useAction();
  const narrowed = session.get().caller?.projectIds != null;
  const project = projectId || (narrowed ? (projects.data?.[0]?.id ?? "") : "");
  const titleField = useRef<HTMLInputElement>(null);
  useEffect(() => titleField.current?.focus(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!title.trim()) return;
    const body: NewIssue = { title: title.trim(), type, priority, labels: chosen };
    if (project) body.projectId = project;
    if (description.trim()) body.description = description.trim();
    const created = await create.run((kaizen) => kaizen.POST("/api/issues", { body }));
    if (created?.data) route(`/app/issues/${created.data.data.identifier}`);
  };
  return (
    <form class="triage" aria-labelledby="new-issue-title" onSubmit={submit}>
      <h2 id="new-issue-title">New issue</h2>
      <div class="row">
        <label class="wide">
          Title
          <input
            ref={titleField}
            required
            maxLength={500}
            value={title}
            onInput={(event) => setTitle(fieldValue(event))}
          />
        </label>
        <label>
          Type
          <select value={type} onChange={(event) => setType(fieldValue(event) as NewIssue["type"])}>
            {ISSUE_TYPES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Priority
          <select value={priority} onChange={(event) => setPriority(Number(fieldValue(event)))}>
            {PRIORITIES.map((name, value) => (
              <option key={name} value={value}>
                {value} {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Project
          <select value={project} onChange={(event) => setProjectId(fieldValue(event))}>
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
        {labels.data?.length === 0 ? (
          <span class="muted">
            No labels yet: <a href="/app/labels">make one</a>.
          </span>
        ) : null}
        {(labels.data ?? []).map(({ name }) => (
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
      <label class="block">
        Description (Markdown)
        <textarea rows={5} value={description} onInput={(event) => setDescription(fieldValue(event))} />
      </label>
      <div class="row">
        <button type="submit" disabled={create.busy || !title.trim()}>
          {create.busy ? "Creating…" : "Create issue"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <Failure error={create.error} />
    </form>
  );
}
