/**
 * @module console/pages/issue-merge — the merge of `/app/issues/:id` (docs/api.md#merging-duplicates):
 * name the issue that stays by `KZN-<n>`, see it and confirm, then the result. This issue is
 * canceled as its duplicate and the other takes its fingerprints, signals and priority. A merge the
 * API refuses (409) or an issue it does not know (404) shows the API's own message.
 */
import { useState } from "preact/hooks";
import type { Schema } from "../../../client/client.js";
import { Badge, Confirm, Failure, fieldValue } from "../components.js";
import { useAction } from "../resource.js";

type Issue = Schema<"Issue">;

export function Merge({ issue, onMerged }: { issue: Issue; onMerged: () => void }) {
  const [into, setInto] = useState("");
  const [target, setTarget] = useState<Issue | null>(null);
  const [merged, setMerged] = useState<Issue | null>(null);
  const look = useAction();
  const merge = useAction();
  // The API refuses to merge a finished issue or one an agent is working (docs/api.md#merging-duplicates).
  const open = issue.status === "triage" || issue.status === "backlog" || issue.status === "todo";

  const find = async (event: Event) => {
    event.preventDefault();
    const raw = into.trim();
    const id = /^kzn-/i.test(raw) ? raw.toUpperCase() : raw;
    if (!id) return;
    merge.clear();
    setMerged(null);
    const found = await look.run((kaizen) => kaizen.GET("/api/issues/{id}", { params: { path: { id } } }));
    setTarget(found?.data?.data ?? null);
  };
  const confirm = async () => {
    if (!target) return;
    const done = await merge.run((kaizen) =>
      kaizen.POST("/api/issues/{id}/merge", { params: { path: { id: issue.id } }, body: { intoId: target.id } }),
    );
    setTarget(null);
    if (done?.data) {
      setMerged(done.data.data);
      setInto("");
      onMerged();
    }
  };
  return (
    <section aria-labelledby="merge-title">
      <h2 id="merge-title">Merge as a duplicate</h2>
      {merged ? (
        <p class="merged" role="status">
          Merged into <a href={`/app/issues/${merged.identifier}`}>{merged.identifier}</a> {merged.title}: it now has{" "}
          {merged.signalCount} signal{merged.signalCount === 1 ? "" : "s"}, {merged.fingerprints.length} fingerprint
          {merged.fingerprints.length === 1 ? "" : "s"} and priority {merged.priority}.
        </p>
      ) : null}
      {open ? (
        <>
          <p class="muted">
            {issue.identifier} is canceled as a duplicate; the issue that stays takes its fingerprints, signals and
            priority.
          </p>
          <form class="row" aria-labelledby="merge-title" onSubmit={find}>
            <label>
              Issue that stays (KZN-…)
              <input
                value={into}
                placeholder="KZN-12"
                pattern="\s*([Kk][Zz][Nn]-[0-9]+|iss_\S+)\s*"
                onInput={(event) => {
                  setInto(fieldValue(event));
                  setTarget(null);
                }}
              />
            </label>
            <button type="submit" disabled={look.busy || !into.trim()}>
              Merge…
            </button>
          </form>
        </>
      ) : merged ? null : (
        <p class="muted">An issue {issue.status.replace("_", " ")} cannot be merged into another.</p>
      )}
      {target ? (
        <Confirm
          key={target.id}
          question={`Merge ${issue.identifier} into ${target.identifier}?`}
          yes="Yes, merge"
          busy={merge.busy}
          onYes={confirm}
          onCancel={() => setTarget(null)}
        >
          <p>
            {target.identifier} <Badge kind={target.status}>{target.status.replace("_", " ")}</Badge> {target.title}{" "}
            stays; {issue.identifier} is canceled.
          </p>
        </Confirm>
      ) : null}
      <Failure error={look.error} />
      <Failure error={merge.error} conflict="The API refused this merge; neither issue changed." />
    </section>
  );
}
