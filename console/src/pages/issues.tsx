/**
 * @module console/pages/issues — `/app/issues`: filters, search and paging, all kept in the URL so
 * a filtered page can be linked to and survives a reload, and the form for a new issue.
 */

import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { paths } from "../../../client/client.js";
import { ISSUE_STATUSES as STATUSES } from "../../../core/src/issues/issue-values.js";
import { useProjects } from "../catalog.js";
import { Badge, Failure, IssueLink, Loading, Pager, pageOf, TableHead, TitleLink, When } from "../components.js";
import { REFRESH_MS, useResource } from "../resource.js";
import { allowed } from "../session.js";
import { NewIssueForm } from "./new-issue.js";

const LIMIT = 25;
const TYPES = ["signal", "hypothesis", "plan", "task", "monitor"];
const SORTS = {
  "-createdAt": "newest",
  createdAt: "oldest",
  priority: "priority",
  "-updatedAt": "recently updated",
  number: "number",
};
const FILTERS = ["status", "type", "priority", "label", "projectId", "q", "sort"] as const;

type ListQuery = NonNullable<paths["/api/issues"]["get"]["parameters"]["query"]>;

/**
 * The list's query from the page's: only the filters the API takes, each when set, passed as the URL
 * has them (the API checks them: a bad one is its 400, shown on the page).
 */
function listQuery(query: Record<string, string>): ListQuery {
  const out: Record<string, string | number> = { page: pageOf(query), limit: LIMIT };
  for (const name of FILTERS) if (query[name]) out[name] = name === "priority" ? Number(query[name]) : query[name];
  return out as ListQuery;
}

export function IssuesPage() {
  const { query, route } = useLocation();
  const wanted = listQuery(query);
  const [search, setSearch] = useState(query.q ?? "");
  const [creating, setCreating] = useState(false);
  const projects = useProjects();
  const issues = useResource(
    async (kaizen) => {
      const { data } = await kaizen.GET("/api/issues", { params: { query: wanted } });
      return data;
    },
    JSON.stringify(wanted),
    REFRESH_MS,
  );
  const go = (changes: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams();
    const merged = { ...query, page: "1", ...changes };
    for (const [name, value] of Object.entries(merged))
      if (value !== undefined && value !== "") next.set(name, String(value));
    if (next.get("page") === "1") next.delete("page");
    const text = next.toString();
    route(`/app/issues${text ? `?${text}` : ""}`);
  };
  const select = (name: string, label: string, options: readonly string[] | Record<string, string>) => (
    <label>
      {label}
      <select value={query[name] ?? ""} onChange={(event) => go({ [name]: (event.target as HTMLSelectElement).value })}>
        <option value="">{name === "sort" ? "newest" : "any"}</option>
        {(Array.isArray(options) ? options.map((value) => [value, value]) : Object.entries(options))
          .filter(([value]) => !(name === "sort" && value === "-createdAt"))
          .map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
      </select>
    </label>
  );
  return (
    <section>
      <h1>Issues</h1>
      {!allowed("POST", "/api/issues") ? null : creating ? (
        <NewIssueForm onCancel={() => setCreating(false)} />
      ) : (
        <p>
          <button type="button" onClick={() => setCreating(true)}>
            New issue
          </button>
        </p>
      )}
      <form
        class="filters"
        aria-label="Filter issues"
        onSubmit={(event) => {
          event.preventDefault();
          go({ q: search.trim() || undefined });
        }}
      >
        <label>
          Search titles
          <input
            type="search"
            name="q"
            value={search}
            onInput={(event) => setSearch((event.target as HTMLInputElement).value)}
          />
        </label>
        {select("status", "Status", STATUSES)}
        {select("type", "Type", TYPES)}
        {select("priority", "Priority", ["0", "1", "2", "3", "4"])}
        <label>
          Label
          <input
            name="label"
            value={query.label ?? ""}
            onChange={(event) => go({ label: (event.target as HTMLInputElement).value.trim() || undefined })}
          />
        </label>
        {select(
          "projectId",
          "Project",
          Object.fromEntries((projects.data ?? []).map((project) => [project.id, project.name])),
        )}
        {select("sort", "Sort", SORTS)}
        <button type="submit">Search</button>
      </form>
      <Failure error={issues.error} onReload={issues.reload} />
      {!issues.data ? (
        <Loading what="issues" />
      ) : issues.data.data.length === 0 ? (
        <p>No issue matches.</p>
      ) : (
        <>
          <table>
            <TableHead
              columns={["Issue", "Title", "Status", "Type", "Priority", "Labels", "Signals", "Updated"]}
              numeric={["Priority", "Signals"]}
            />
            <tbody>
              {issues.data.data.map((issue) => (
                <tr key={issue.id}>
                  <td>
                    <IssueLink issue={issue} />
                  </td>
                  <td>
                    <TitleLink issue={issue} />
                  </td>
                  <td>
                    <Badge kind={issue.status}>{issue.status.replace("_", " ")}</Badge>
                  </td>
                  <td>{issue.type}</td>
                  <td class="num">{issue.priority}</td>
                  <td>{issue.labels.join(", ")}</td>
                  <td class="num">{issue.signalCount}</td>
                  <td>
                    <When at={issue.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={pageOf(query)} limit={LIMIT} total={issues.data.total} onPage={(page) => go({ page })} />
        </>
      )}
    </section>
  );
}
