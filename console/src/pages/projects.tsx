/**
 * @module console/pages/projects — `/app/projects`: every project with its status, health and how
 * many sources of each kind it owns, and a form that creates one and opens its page.
 */
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { PROJECT_STATUSES, type Project, words } from "../catalog.js";
import { Badge, Failure, fieldValue, Loading, Pager, pageOf, TableHead } from "../components.js";
import { REFRESH_MS, useAction, useResource } from "../resource.js";
import { allowed } from "../session.js";

const LIMIT = 25;

function CreateProject() {
  const { route } = useLocation();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [status, setStatus] = useState<Project["status"]>("active");
  const create = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return;
    const created = await create.run((kaizen) =>
      kaizen.POST("/api/projects", {
        body: { name: name.trim(), description: description.trim() || null, status },
      }),
    );
    if (created?.data) route(`/app/projects/${created.data.data.id}`);
  };
  return (
    <section aria-labelledby="new-project-title">
      <h2 id="new-project-title">New project</h2>
      <form class="stack" aria-labelledby="new-project-title" onSubmit={submit}>
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
        </div>
        <label class="block">
          Description (Markdown)
          <textarea rows={3} value={description} onInput={(event) => setDescription(fieldValue(event))} />
        </label>
        <div>
          <button type="submit" disabled={create.busy || !name.trim()}>
            Create project
          </button>
        </div>
        <Failure error={create.error} />
      </form>
    </section>
  );
}

export function ProjectsPage() {
  const { query, route } = useLocation();
  const page = pageOf(query);
  const projects = useResource(
    async (kaizen) => (await kaizen.GET("/api/projects", { params: { query: { page, limit: LIMIT } } })).data,
    String(page),
    REFRESH_MS,
  );
  return (
    <section>
      <h1>Projects</h1>
      <p class="muted">
        A project owns the sources its signals come from, its goals, limits on its agents and the automation of its
        triage.
      </p>
      <Failure error={projects.error} onReload={projects.reload} />
      {!projects.data ? (
        <Loading what="the projects" />
      ) : projects.data.data.length === 0 ? (
        <p>No project yet.</p>
      ) : (
        <>
          <table>
            <TableHead
              columns={["Name", "Status", "Health", "Code host sources", "Error tracker sources", "Analytics sources"]}
              numeric={["Code host sources", "Error tracker sources", "Analytics sources"]}
            />
            <tbody>
              {projects.data.data.map((project) => (
                <tr key={project.id}>
                  <td>
                    <a href={`/app/projects/${project.id}`}>{project.name}</a>
                  </td>
                  <td>
                    <Badge kind={project.status}>{project.status}</Badge>
                  </td>
                  <td>
                    <Badge kind={project.health}>{words(project.health)}</Badge>
                  </td>
                  <td class="num">{project.sources.codehost.length}</td>
                  <td class="num">{project.sources.errortracker.length}</td>
                  <td class="num">{project.sources.analytics.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            limit={LIMIT}
            total={projects.data.total}
            onPage={(next) => route(`/app/projects?page=${next}`)}
          />
        </>
      )}
      {allowed("POST", "/api/projects") ? <CreateProject /> : null}
    </section>
  );
}
