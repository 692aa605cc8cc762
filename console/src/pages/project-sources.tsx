/**
 * @module console/pages/project-sources — the sources section of `/app/projects/:id`: per kind,
 * what the project owns, each with a remove, and a field to add one. Every change sends the whole
 * `sources` object (a PATCH replaces it, docs/api.md#project-sources) with the project's `If-Match`;
 * a source another project owns is the API's 409, shown as it says. A key that may not change the
 * project sees the sources alone.
 */
import { useState } from "preact/hooks";
import type { Schema } from "../../../client/client.js";
import { Failure, fieldValue } from "../components.js";
import { useAction } from "../resource.js";

type Sources = Schema<"Project">["sources"];
type Kind = keyof Sources;

const KINDS: readonly { kind: Kind; name: string; hint: string }[] = [
  { kind: "codehost", name: "Code host", hint: "repositories, owner/name" },
  { kind: "errortracker", name: "Error tracker", hint: "project slugs (or numeric ids)" },
  { kind: "analytics", name: "Analytics", hint: "project ids" },
];

function SourceKind({
  kind,
  name,
  hint,
  sources,
  busy,
  editable,
  onChange,
}: {
  kind: Kind;
  name: string;
  hint: string;
  sources: Sources;
  busy: boolean;
  editable: boolean;
  onChange: (next: Sources) => Promise<boolean>;
}) {
  const [adding, setAdding] = useState("");
  const listed = sources[kind];
  const add = async (event: Event) => {
    event.preventDefault();
    const source = adding.trim();
    if (!source) return;
    if (await onChange({ ...sources, [kind]: [...listed, source] })) setAdding("");
  };
  return (
    <section class="source-kind" aria-labelledby={`sources-${kind}`}>
      <h3 id={`sources-${kind}`}>{name}</h3>
      {listed.length === 0 ? <p class="muted">None.</p> : null}
      <ul class="plain">
        {listed.map((source) => (
          <li key={source}>
            <code>{source}</code>{" "}
            {editable ? (
              <button
                type="button"
                aria-label={`Remove ${name.toLowerCase()} source ${source}`}
                disabled={busy}
                onClick={() => onChange({ ...sources, [kind]: listed.filter((one) => one !== source) })}
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {editable ? (
        <form class="row" onSubmit={add} aria-label={`New ${name.toLowerCase()} source`}>
          <label>
            {`New ${name.toLowerCase()} source`}
            <input value={adding} placeholder={hint} onInput={(event) => setAdding(fieldValue(event))} />
          </label>
          <button type="submit" disabled={busy || !adding.trim()}>
            Add
          </button>
        </form>
      ) : null}
    </section>
  );
}

export function ProjectSources({
  projectId,
  sources,
  etag,
  editable,
  onSaved,
}: {
  projectId: string;
  sources: Sources;
  etag: string | null;
  editable: boolean;
  onSaved: () => void;
}) {
  const save = useAction();
  const change = async (next: Sources) => {
    const saved = await save.run((kaizen) =>
      kaizen.PATCH("/api/projects/{id}", {
        params: { path: { id: projectId } },
        body: { sources: next },
        headers: etag ? { "If-Match": etag } : {},
      }),
    );
    if (saved) onSaved();
    return Boolean(saved);
  };
  return (
    <section aria-labelledby="sources-title">
      <h2 id="sources-title">Sources</h2>
      <p class="muted">
        Signals from these sources open and group issues in this project. A source belongs to one project at most.
      </p>
      <Failure
        error={save.error}
        conflict="Nothing of this change was written."
        stale="The project changed since this page loaded it, so the change was not applied."
        onReload={() => {
          save.clear();
          onSaved();
        }}
      />
      <div class="columns">
        {KINDS.map(({ kind, name, hint }) => (
          <SourceKind
            key={kind}
            kind={kind}
            name={name}
            hint={hint}
            sources={sources}
            busy={save.busy}
            editable={editable}
            onChange={change}
          />
        ))}
      </div>
    </section>
  );
}
