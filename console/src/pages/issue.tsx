/**
 * @module console/pages/issue — `/app/issues/:id` (an id or `KZN-<number>`): the issue with its
 * agent at work (live, with the answers, approvals and stop a person gives it: ./issue-dispatch.tsx),
 * signals and their payloads, relations, fingerprints, comments, dispatch history and the prompts
 * it received, the triage actions and the merge into another issue. Descriptions and comments are
 * Markdown, rendered safely (../markdown.ts). Every change is sent with `If-Match`, so one made
 * against an issue that moved meanwhile is refused (412) and says so instead of overwriting. A key
 * that may not make a change is offered none of these forms (../access.ts): the page reads the same.
 */

import { useEffect, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import type { Schema } from "../../../client/client.js";
import { useProjects } from "../catalog.js";
import { Badge, Failure, Loading, Markdown, When } from "../components.js";
import { isOpen } from "../dispatch-text.js";
import { REFRESH_MS, useAction, useResource } from "../resource.js";
import { allowed } from "../session.js";
import { AtWork, DispatchHistory, useDispatches } from "./issue-dispatch.js";
import { Merge } from "./issue-merge.js";
import { Triage } from "./issue-triage.js";

type Issue = Schema<"IssueDetail">;

function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** A signal's payload, fetched when its row is opened (lists leave payloads out). */
function SignalPayload({ id }: { id: string }) {
  const signal = useResource(
    async (kaizen) => (await kaizen.GET("/api/signals/{id}", { params: { path: { id } } })).data?.data,
    id,
  );
  if (signal.error) return <Failure error={signal.error} />;
  if (!signal.data) return <Loading what="the payload" />;
  return (
    <>
      <h4>Headers</h4>
      <Json value={signal.data.headers} />
      <h4>Payload ({signal.data.payloadBytes} bytes)</h4>
      <Json value={signal.data.payload} />
    </>
  );
}

/** Where a signal came from and which project it was routed to, when it names them. */
export function SignalOrigin({
  signal,
  projectName,
}: {
  signal: Pick<Schema<"Signal">, "sourceKey" | "projectId">;
  projectName: (id: string) => string | undefined;
}) {
  return (
    <>
      {signal.sourceKey ? (
        <>
          {" "}
          · from <code>{signal.sourceKey}</code>
        </>
      ) : null}
      {signal.projectId ? (
        <>
          {" "}
          · project{" "}
          <a href={`/app/projects/${signal.projectId}`}>{projectName(signal.projectId) ?? signal.projectId}</a>
        </>
      ) : null}
    </>
  );
}

function Signals({ issue }: { issue: Issue }) {
  const [open, setOpen] = useState<string | null>(null);
  const projects = useProjects();
  const projectName = (id: string) => projects.data?.find((project) => project.id === id)?.name;
  if (issue.signals.length === 0) return <p class="muted">No signals.</p>;
  return (
    <ul class="plain">
      {issue.signals.map((signal) => (
        <li key={signal.id}>
          <details onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open ? signal.id : null)}>
            <summary>
              <Badge kind={signal.severity}>{signal.severity}</Badge> {signal.source} <code>{signal.type}</code>{" "}
              {signal.title} · {signal.action}
              <SignalOrigin signal={signal} projectName={projectName} /> · <When at={signal.receivedAt} />
            </summary>
            {open === signal.id ? <SignalPayload id={signal.id} /> : null}
          </details>
        </li>
      ))}
    </ul>
  );
}

function Comments({ issueId }: { issueId: string }) {
  const comments = useResource(
    async (kaizen) =>
      (await kaizen.GET("/api/issues/{id}/comments", { params: { path: { id: issueId }, query: { limit: 100 } } })).data
        ?.data ?? [],
    issueId,
    REFRESH_MS,
  );
  const [body, setBody] = useState("");
  const [author, setAuthor] = useState("operator");
  const post = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!body.trim()) return;
    const done = await post.run((kaizen) =>
      kaizen.POST("/api/issues/{id}/comments", {
        params: { path: { id: issueId } },
        body: { body: body.trim(), authorName: author.trim() || "operator", authorType: "human" },
      }),
    );
    if (done) {
      setBody("");
      comments.reload();
    }
  };
  return (
    <section aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      <Failure error={comments.error} />
      <ul class="plain">
        {(comments.data ?? []).map((comment) => (
          <li key={comment.id} class="comment">
            <strong>{comment.authorName}</strong> <span class="muted">({comment.authorType})</span>{" "}
            <When at={comment.createdAt} />
            <Markdown text={comment.body} />
          </li>
        ))}
      </ul>
      {allowed("POST", "/api/issues/{id}/comments") ? (
        <form class="stack" onSubmit={submit}>
          <label for="comment-body">Add a comment</label>
          <textarea
            id="comment-body"
            rows={3}
            value={body}
            onInput={(event) => setBody((event.target as HTMLTextAreaElement).value)}
          />
          <label>
            As
            <input value={author} onInput={(event) => setAuthor((event.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled={post.busy || !body.trim()}>
            Comment
          </button>
          <Failure error={post.error} />
        </form>
      ) : null}
    </section>
  );
}

/** The prompts the issue's dispatches received, newest first (the list spans every project: not for a narrowed key). */
function Prompts({ issueId }: { issueId: string }) {
  const prompts = useResource(
    async (kaizen) =>
      (await kaizen.GET("/api/prompts", { params: { query: { issueId, limit: 100 } } })).data?.data ?? [],
    issueId,
    REFRESH_MS,
  );
  return (
    <section aria-labelledby="prompts-title">
      <h2 id="prompts-title">Prompts it received</h2>
      <Failure error={prompts.error} />
      {prompts.data?.length === 0 ? <p class="muted">No prompt yet.</p> : null}
      <ul class="plain">
        {(prompts.data ?? []).map((prompt) => (
          <li key={prompt.id}>
            <details>
              <summary>
                Version {prompt.versionNumber}, <When at={prompt.createdAt} />, {prompt.reviewCount} review
                {prompt.reviewCount === 1 ? "" : "s"}
              </summary>
              <p>
                <a href={`/app/prompts/${prompt.templateId}`}>Its template and versions</a>
              </p>
              <pre class="prompt">{prompt.text}</pre>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Its pull requests and what review said of them (docs/api.md#review), newest last. */
function Review({ issue }: { issue: Schema<"Issue"> }) {
  if (issue.pullRequests.length === 0 && issue.feedback.length === 0 && !issue.verification) return null;
  const watch = issue.verification;
  return (
    <section aria-labelledby="review-title">
      <h2 id="review-title">
        Review
        {issue.reviewRounds > 0 ? ` · sent back ${issue.reviewRounds} time${issue.reviewRounds === 1 ? "" : "s"}` : ""}
      </h2>
      <ul class="pull-requests">
        {issue.pullRequests.map((pr) => (
          <li key={`${pr.repository ?? ""}#${pr.number}`}>
            {pr.url ? (
              <a href={pr.url}>{`${pr.repository ?? ""}#${pr.number}`}</a>
            ) : (
              `${pr.repository ?? ""}#${pr.number}`
            )}{" "}
            {pr.title} {pr.state ? <Badge kind={pr.state}>{pr.state}</Badge> : null}
          </li>
        ))}
      </ul>
      {watch ? (
        <p class="verification">
          Merged fix <Badge kind={watch.status}>{watch.status}</Badge>{" "}
          {watch.status === "regressed" ? (
            <>
              : the problem came back <When at={watch.regressedAt ?? watch.until} />
            </>
          ) : (
            <>
              · watched until <When at={watch.until} />
            </>
          )}
        </p>
      ) : null}
      {issue.feedback.length > 0 ? (
        <ol class="feedback">
          {issue.feedback.map((entry) => (
            <li key={`${entry.kind}${entry.at}${entry.url ?? ""}`}>
              <Badge kind={entry.kind}>{entry.kind.replace("_", " ")}</Badge>
              {entry.author ? ` ${entry.author}` : ""}
              {entry.pullRequest ? ` on #${entry.pullRequest.number}` : ""} <When at={entry.at} />
              {entry.url ? (
                <>
                  {" "}
                  <a href={entry.url}>view</a>
                </>
              ) : null}
              <pre>{entry.body}</pre>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/** Where the issue is filed (its labels and project), for a key the triage form is not offered to. */
function Filed({ issue }: { issue: Issue }) {
  const projects = useProjects();
  const project = issue.projectId ? projects.data?.find((one) => one.id === issue.projectId) : undefined;
  return (
    <p class="filed">
      Labels: {issue.labels.length > 0 ? issue.labels.join(", ") : <span class="muted">none</span>} · project:{" "}
      {issue.projectId ? (
        <a href={`/app/projects/${issue.projectId}`}>{project?.name ?? issue.projectId}</a>
      ) : (
        <span class="muted">none</span>
      )}
    </p>
  );
}

export function IssuePage() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const issue = useResource(
    async (kaizen) => {
      const { data, response } = await kaizen.GET("/api/issues/{id}", { params: { path: { id } } });
      return { issue: data?.data as Issue, etag: response.headers.get("ETag") };
    },
    id,
    REFRESH_MS,
  );
  const current = issue.data?.issue;
  const dispatches = useDispatches(current?.id);
  // The dispatch at work; once it ends, it stays shown (how it ended, its last activities) while the page is open.
  const open = dispatches.data?.find(isOpen);
  const [watched, setWatched] = useState<string | null>(null);
  useEffect(() => {
    if (open) setWatched(open.id);
  }, [open?.id]);
  const atWork = open ?? dispatches.data?.find((dispatch) => dispatch.id === watched);
  useEffect(() => {
    if (current) document.title = `${current.identifier} · Kaizen console`;
  }, [current?.identifier]);
  if (!current) {
    return (
      <section>
        <h1>Issue {id}</h1>
        <Failure error={issue.error} onReload={issue.reload} />
        {issue.error ? null : <Loading what="the issue" />}
      </section>
    );
  }
  return (
    <article>
      <p class="muted">
        <a href="/app/issues">Issues</a> / {current.identifier}
      </p>
      <h1>
        {current.identifier}: {current.title}
      </h1>
      <p>
        <Badge kind={current.status}>{current.status.replace("_", " ")}</Badge> {current.type} · priority{" "}
        {current.priority} · {current.signalCount} signal{current.signalCount === 1 ? "" : "s"} · created{" "}
        <When at={current.createdAt} /> · updated <When at={current.updatedAt} />
      </p>
      {current.statusChange ? (
        <p class="status-change">
          Moved from {current.statusChange.from.replace("_", " ")} to {current.statusChange.to.replace("_", " ")} by{" "}
          {current.statusChange.by} <When at={current.statusChange.at} />
        </p>
      ) : null}
      {current.description ? <Markdown text={current.description} /> : null}
      {current.agentSummary ? (
        <p>
          <strong>Agent summary:</strong> {current.agentSummary}
        </p>
      ) : null}
      {atWork ? (
        <AtWork
          key={atWork.id}
          dispatch={atWork}
          issue={current}
          onActivity={dispatches.reload}
          onChanged={() => {
            dispatches.reload();
            issue.reload();
          }}
        />
      ) : null}
      <Review issue={current} />
      {current.blockedBy.length > 0 ? (
        <p>
          Waits on:{" "}
          {current.blockedBy.map((blocker) => (
            <a key={blocker} href={`/app/issues/${blocker}`}>
              {blocker}{" "}
            </a>
          ))}
        </p>
      ) : null}
      {allowed("PATCH", "/api/issues/{id}") ? (
        <Triage issue={current} etag={issue.data?.etag ?? null} onSaved={issue.reload} />
      ) : (
        <Filed issue={current} />
      )}
      <section aria-labelledby="signals-title">
        <h2 id="signals-title">Signals</h2>
        <Signals issue={current} />
      </section>
      <section aria-labelledby="relations-title">
        <h2 id="relations-title">Relations</h2>
        {current.parent ? (
          <p>
            Parent: <a href={`/app/issues/${current.parent.identifier}`}>{current.parent.identifier}</a>{" "}
            <a href={`/app/issues/${current.parent.identifier}`}>{current.parent.title}</a>
          </p>
        ) : null}
        {current.children.length > 0 ? (
          <>
            <h3>Children</h3>
            <ul class="plain">
              {current.children.map((child) => (
                <li key={child.id}>
                  <a href={`/app/issues/${child.identifier}`}>{child.identifier}</a>{" "}
                  <a href={`/app/issues/${child.identifier}`}>{child.title}</a>{" "}
                  <Badge kind={child.status}>{child.status.replace("_", " ")}</Badge>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {current.relations.length === 0 ? <p class="muted">No relations.</p> : null}
        <ul class="plain">
          {current.relations.map((relation) => (
            <li key={relation.id}>
              {relation.type.replace("_", " ")}{" "}
              <a href={`/app/issues/${relation.relatedIssueId}`}>{relation.relatedIssueId}</a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="fingerprints-title">
        <h2 id="fingerprints-title">Fingerprints</h2>
        <p class="muted">Signals with these fingerprints group into this issue (merged issues add theirs).</p>
        {current.fingerprints.length === 0 ? <p class="muted">None: no signal opened it.</p> : null}
        <ul class="plain fingerprints">
          {current.fingerprints.map((fingerprint) => (
            <li key={fingerprint}>
              <code>{fingerprint}</code>
            </li>
          ))}
        </ul>
      </section>
      {allowed("POST", "/api/issues/{id}/merge") ? <Merge issue={current} onMerged={issue.reload} /> : null}
      <Comments issueId={current.id} />
      <DispatchHistory dispatches={dispatches} />
      {allowed("GET", "/api/prompts") ? <Prompts issueId={current.id} /> : null}
    </article>
  );
}
