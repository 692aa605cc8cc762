/**
 * @module console/pages/keys — `/app/keys`, for an admin key: the API keys made so far, oldest first,
 * each with its scopes, its projects, its prefix, when it was last used, when it expires and whether
 * it was revoked; a form that makes one (name, scopes, projects, expiry) and shows the new key once,
 * with a copy button; a revoke, asked first. The key's text lives only in this page's memory until
 * "Done": Kaizen keeps its digest alone and cannot show it again.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { paths, Schema } from "../../../client/client.js";
import { SCOPES } from "../../../core/src/routes.js";
import { type Project, useProjects } from "../catalog.js";
import { AskFirst, Badge, Failure, fieldValue, Loading, Pager, pageOf, TableHead, When } from "../components.js";
import { REFRESH_MS, useAction, useResource } from "../resource.js";
import { allowed } from "../session.js";

const LIMIT = 25;

type ApiKey = Schema<"ApiKey">;
type CreatedKey = Schema<"CreatedKey">;
type NewKeyBody = paths["/api/keys"]["post"]["requestBody"]["content"]["application/json"];
type Scope = NewKeyBody["scopes"][number];

const SCOPE_HINTS: Record<Scope, string> = {
  read: "read everything but event destinations",
  write: "read, and make and change issues, projects, goals, labels, templates; steer agents",
  dispatch: "claim issues and work the dispatches it claimed",
  admin: "everything, keys and the audit log included",
};

/** A checkbox list's change: `value` added when checked, taken out when not. */
function toggled<T>(list: readonly T[], value: T, checked: boolean): T[] {
  return checked ? [...list, value] : list.filter((one) => one !== value);
}

function NewKey({ projects, onCreated }: { projects: Project[]; onCreated: (key: CreatedKey) => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [projectIds, setProjectIds] = useState<string[]>([]);
  const [expires, setExpires] = useState("");
  const create = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim() || scopes.length === 0) return;
    const body: NewKeyBody = { name: name.trim(), scopes: SCOPES.filter((scope) => scopes.includes(scope)) };
    if (projectIds.length > 0) body.projectIds = projectIds;
    // The field is in this browser's time; the API takes UTC.
    if (expires) body.expiresAt = new Date(expires).toISOString();
    const created = await create.run((kaizen) => kaizen.POST("/api/keys", { body }));
    if (created?.data) {
      setName("");
      setScopes(["read"]);
      setProjectIds([]);
      setExpires("");
      onCreated(created.data.data);
    }
  };
  return (
    <section aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <form class="stack" aria-labelledby="new-key-title" onSubmit={submit}>
        <label>
          Name
          <input
            required
            maxLength={100}
            placeholder="ci, agent fleet, Ana"
            value={name}
            onInput={(event) => setName(fieldValue(event))}
          />
        </label>
        <fieldset>
          <legend>Scopes (at least one)</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => setScopes(toggled(scopes, scope, (event.target as HTMLInputElement).checked))}
              />
              {scope} <span class="muted small">({SCOPE_HINTS[scope]})</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Projects (none chosen: every project)</legend>
          {projects.length === 0 ? <span class="muted">No project yet.</span> : null}
          {projects.map((project) => (
            <label key={project.id} class="check">
              <input
                type="checkbox"
                checked={projectIds.includes(project.id)}
                onChange={(event) =>
                  setProjectIds(toggled(projectIds, project.id, (event.target as HTMLInputElement).checked))
                }
              />
              {project.name}
            </label>
          ))}
        </fieldset>
        <label>
          Expires (optional, in this browser's time)
          <input type="datetime-local" value={expires} onInput={(event) => setExpires(fieldValue(event))} />
        </label>
        <div>
          <button type="submit" disabled={create.busy || !name.trim() || scopes.length === 0}>
            {create.busy ? "Making…" : "Make key"}
          </button>
        </div>
        <Failure error={create.error} />
      </form>
    </section>
  );
}

/** The new key, this once: its text, a copy, and a clear word that it will not be shown again. */
function ShownOnce({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section class="shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title" ref={title} tabIndex={-1}>
        Key {created.name} made: copy it now
      </h2>
      <p>
        <strong>It is shown once.</strong> Kaizen keeps only a digest of it and cannot show it again: once you leave
        this page it is gone. Lost, revoke it and make another.
      </p>
      <p>
        <code class="copyable">{created.key}</code>
      </p>
      <div class="row">
        <button type="button" onClick={() => void copy()}>
          Copy key
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
        <span role="status">
          {copied === true
            ? "Copied to the clipboard."
            : copied === false
              ? "The browser did not allow copying: select the key and copy it."
              : ""}
        </span>
      </div>
    </section>
  );
}

/** Revoke, asked first: the question takes the button's place and the keyboard's focus. */
function Revoke({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const revoke = useAction();
  if (apiKey.revokedAt) return null;
  return (
    <>
      <AskFirst
        button="Revoke"
        label={`Revoke key ${apiKey.name}`}
        question={`Revoke the key ${apiKey.name}?`}
        yes="Yes, revoke it"
        busy={revoke.busy}
        onYes={async () => {
          const done = await revoke.run((kaizen) =>
            kaizen.DELETE("/api/keys/{id}", { params: { path: { id: apiKey.id } } }),
          );
          if (done) onRevoked();
        }}
      >
        <p>Whatever uses it is refused from then on; this cannot be undone.</p>
      </AskFirst>
      <Failure error={revoke.error} />
    </>
  );
}

function ProjectsOf({ ids, projects }: { ids: string[] | null; projects: Project[] }) {
  if (ids === null) return <span class="muted">every project</span>;
  return (
    <>
      {ids.map((id, index) => (
        <span key={id}>
          {index > 0 ? ", " : null}
          <a href={`/app/projects/${id}`}>{projects.find((project) => project.id === id)?.name ?? id}</a>
        </span>
      ))}
    </>
  );
}

export function KeysPage() {
  const { query, route } = useLocation();
  const page = pageOf(query);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const mayManage = allowed("GET", "/api/keys");
  const projects = useProjects();
  const keys = useResource(
    async (kaizen) =>
      mayManage ? (await kaizen.GET("/api/keys", { params: { query: { page, limit: LIMIT } } })).data : undefined,
    String(page),
    REFRESH_MS,
  );
  if (!mayManage) {
    return (
      <section>
        <h1>Keys</h1>
        <p class="note" role="note">
          Keys are made, listed and revoked with an admin key that is not limited to projects; this key is not one.
        </p>
      </section>
    );
  }
  const projectList = projects.data ?? [];
  const now = Date.now();
  return (
    <section>
      <h1>Keys</h1>
      <p class="muted">
        A key of its own for each person, tool or agent fleet: what it may do (its scopes), where (its projects), for
        how long. Its text is shown once, when it is made; after that only its first characters (its prefix) name it.
      </p>
      {created ? <ShownOnce created={created} onDone={() => setCreated(null)} /> : null}
      <Failure error={keys.error} onReload={keys.reload} />
      {!keys.data ? (
        <Loading what="the keys" />
      ) : keys.data.data.length === 0 ? (
        <p>No key made yet: the service's own key is the only one.</p>
      ) : (
        <>
          <table>
            <TableHead
              columns={["Name", "Scopes", "Projects", "Prefix", "Last used", "Expires", "Revoked", "Revoke"]}
              unseen={["Revoke"]}
            />
            <tbody>
              {keys.data.data.map((apiKey) => (
                <tr key={apiKey.id}>
                  <td>{apiKey.name}</td>
                  <td>{apiKey.scopes.join(", ")}</td>
                  <td>
                    <ProjectsOf ids={apiKey.projectIds} projects={projectList} />
                  </td>
                  <td>
                    <code>{apiKey.prefix}</code>
                  </td>
                  <td>{apiKey.lastUsedAt ? <When at={apiKey.lastUsedAt} /> : <span class="muted">never</span>}</td>
                  <td>
                    {apiKey.expiresAt ? (
                      <>
                        <When at={apiKey.expiresAt} />
                        {Date.parse(apiKey.expiresAt) <= now ? (
                          <>
                            {" "}
                            <Badge kind="expired">expired</Badge>
                          </>
                        ) : null}
                      </>
                    ) : (
                      <span class="muted">never</span>
                    )}
                  </td>
                  <td>
                    {apiKey.revokedAt ? (
                      <>
                        <Badge kind="failed">revoked</Badge> <When at={apiKey.revokedAt} />
                      </>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td>
                    <Revoke apiKey={apiKey} onRevoked={keys.reload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} limit={LIMIT} total={keys.data.total} onPage={(next) => route(`/app/keys?page=${next}`)} />
        </>
      )}
      <NewKey
        projects={projectList}
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />
    </section>
  );
}
