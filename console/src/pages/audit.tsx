/**
 * @module console/pages/audit — `/app/audit`, for an admin key: the audit log, newest first: when, who
 * (a key, the root key, an agent's dispatch, Kaizen itself), the request (method and path) or Kaizen's
 * own action, what it named and how it ended. Filters (who, what, status, since) and the page are kept
 * in the URL, so a view can be linked to and survives a reload. It is read when asked, not every few
 * seconds: a read may look through every day the log keeps.
 */
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { paths, Schema } from "../../../client/client.js";
import { Badge, Failure, fieldValue, Loading, Pager, pageOf, TableHead, When } from "../components.js";
import { useResource } from "../resource.js";
import { allowed } from "../session.js";

const LIMIT = 25;
const FILTERS = ["actorId", "targetId", "status", "since"] as const;
type Filter = (typeof FILTERS)[number];
type AuditQuery = NonNullable<paths["/api/audit"]["get"]["parameters"]["query"]>;
type AuditRecord = Schema<"AuditRecord">;

/** An ISO time as a `datetime-local` field's value, in this browser's time. */
function localField(iso: string | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The audit page's URL for these filters and page, the empty ones and page 1 left out. */
function auditUrl(filters: Partial<Record<Filter, string>>, page = 1): string {
  const query = new URLSearchParams();
  for (const name of FILTERS) if (filters[name]) query.set(name, filters[name]);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return `/app/audit${text ? `?${text}` : ""}`;
}

function Actor({ actor }: { actor: AuditRecord["actor"] }) {
  if (!actor) return <span class="muted">no one (a refused credential)</span>;
  return (
    <>
      <a href={auditUrl({ actorId: actor.id })} title={`Only ${actor.id}`}>
        {actor.name}
      </a>{" "}
      <span class="muted small">({actor.kind})</span>
    </>
  );
}

function Request({ record }: { record: AuditRecord }) {
  if (record.method && record.path) {
    return (
      <code>
        {record.method} {record.path}
      </code>
    );
  }
  return <>{record.action ?? <span class="muted">—</span>}</>;
}

export function AuditPage() {
  const { query, route } = useLocation();
  const page = pageOf(query);
  const current: Partial<Record<Filter, string>> = {};
  for (const name of FILTERS) if (query[name]) current[name] = query[name];
  const fromUrl = () => ({
    actorId: current.actorId ?? "",
    targetId: current.targetId ?? "",
    status: current.status ?? "",
    since: localField(current.since),
  });
  const [draft, setDraft] = useState(fromUrl);
  // A link that filters (an actor, a target) changes the URL: the fields follow it.
  const filtersKey = JSON.stringify(current);
  useEffect(() => setDraft(fromUrl()), [filtersKey]);
  const mayRead = allowed("GET", "/api/audit");
  const wanted: AuditQuery = { page, limit: LIMIT, ...current };
  const records = useResource(
    async (kaizen) => (mayRead ? (await kaizen.GET("/api/audit", { params: { query: wanted } })).data : undefined),
    JSON.stringify(wanted),
    // Not on a timer: a read of the log may look through every day it keeps; "Refresh" reads it again.
    0,
  );
  if (!mayRead) {
    return (
      <section>
        <h1>Audit log</h1>
        <p class="note" role="note">
          The audit log is read with an admin key that is not limited to projects; this key is not one.
        </p>
      </section>
    );
  }
  const field = (name: keyof typeof draft) => ({
    value: draft[name],
    onInput: (event: Event) => setDraft({ ...draft, [name]: fieldValue(event) }),
  });
  return (
    <section>
      <h1>Audit log</h1>
      <p class="muted">
        Every request that changed something, every refused one (401, 403) and Kaizen's own actions, newest first, kept
        90 days.
      </p>
      <form
        class="filters row"
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          const since = draft.since ? new Date(draft.since) : null;
          route(
            auditUrl({
              actorId: draft.actorId.trim(),
              targetId: draft.targetId.trim(),
              status: draft.status.trim(),
              since: since && !Number.isNaN(since.getTime()) ? since.toISOString() : "",
            }),
          );
        }}
      >
        <label>
          Actor id
          <input placeholder="key_…, root, kaizen" maxLength={100} {...field("actorId")} />
        </label>
        <label>
          Target id
          <input placeholder="iss_…, key_…" maxLength={100} {...field("targetId")} />
        </label>
        <label>
          Status
          <input inputMode="numeric" pattern="[1-5][0-9]{2}" placeholder="403" size={5} {...field("status")} />
        </label>
        <label>
          Since (this browser's time)
          <input type="datetime-local" {...field("since")} />
        </label>
        <button type="submit">Filter</button>
        <button type="button" disabled={records.loading} onClick={records.reload}>
          Refresh
        </button>
        {Object.keys(current).length > 0 ? (
          <a href="/app/audit" class="small">
            Clear the filters
          </a>
        ) : null}
      </form>
      <Failure error={records.error} onReload={records.reload} />
      {!records.data ? (
        <Loading what="the audit log" />
      ) : records.data.data.length === 0 ? (
        <p>No record matches.</p>
      ) : (
        <>
          <table>
            <TableHead columns={["Time", "Actor", "Request or action", "Target", "Status"]} numeric={["Status"]} />
            <tbody>
              {records.data.data.map((record) => (
                <tr key={record.id}>
                  <td>
                    <When at={record.at} precise />
                  </td>
                  <td>
                    <Actor actor={record.actor} />
                  </td>
                  <td>
                    <Request record={record} />
                  </td>
                  <td>
                    {record.targetId ? (
                      <a href={auditUrl({ targetId: record.targetId })}>
                        <code>{record.targetId}</code>
                      </a>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td class="num">
                    {record.status === null ? (
                      <span class="muted">—</span>
                    ) : (
                      <Badge kind={record.status >= 400 ? "failed" : "done"}>{record.status}</Badge>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            limit={LIMIT}
            total={records.data.total}
            onPage={(next) => route(auditUrl(current, next))}
          />
        </>
      )}
    </section>
  );
}
