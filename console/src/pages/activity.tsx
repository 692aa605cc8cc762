/** @module console/pages/activity — `/app/activity`: the latest signal → issue → dispatch → outcome chains. */
import { useLocation } from "preact-iso";
import {
  Badge,
  Failure,
  IssueLink,
  Loading,
  Pager,
  pageOf,
  SpansEveryProject,
  TitleLink,
  When,
} from "../components.js";
import { REFRESH_MS, useResource } from "../resource.js";
import { allowed } from "../session.js";

const LIMIT = 25;

export function ActivityPage() {
  if (!allowed("GET", "/api/dashboard/activity")) {
    return (
      <section>
        <h1>Activity</h1>
        <SpansEveryProject what="the activity chains" />
      </section>
    );
  }
  return <ActivityFigures />;
}

function ActivityFigures() {
  const { query, route } = useLocation();
  const page = pageOf(query);
  const activity = useResource(
    async (kaizen) => (await kaizen.GET("/api/dashboard/activity", { params: { query: { page, limit: LIMIT } } })).data,
    String(page),
    REFRESH_MS,
  );
  return (
    <section>
      <h1>Activity</h1>
      <Failure error={activity.error} onReload={activity.reload} />
      {!activity.data ? (
        <Loading what="the activity" />
      ) : activity.data.data.length === 0 ? (
        <p>No signal has arrived yet.</p>
      ) : (
        <>
          <ol class="chains">
            {activity.data.data.map((chain) => (
              <li key={chain.signal.id} class="chain">
                <div class="step">
                  <span class="step-name">Signal</span>
                  <Badge kind={chain.signal.severity}>{chain.signal.severity}</Badge> {chain.signal.source}{" "}
                  <code>{chain.signal.type}</code> {chain.signal.title}{" "}
                  <span class="muted">({chain.signal.action})</span> <When at={chain.signal.receivedAt} />
                </div>
                <div class="step">
                  <span class="step-name">Issue</span>
                  {chain.issue ? (
                    <>
                      <IssueLink issue={chain.issue} /> <TitleLink issue={chain.issue} />{" "}
                      <Badge kind={chain.issue.status}>{chain.issue.status.replace("_", " ")}</Badge>
                    </>
                  ) : (
                    <span class="muted">none (recorded only)</span>
                  )}
                </div>
                <div class="step">
                  <span class="step-name">Dispatch</span>
                  {chain.dispatch ? (
                    <>
                      {chain.dispatch.agent}, attempt {chain.dispatch.attempt}{" "}
                      <Badge kind={chain.dispatch.status}>{chain.dispatch.status}</Badge>{" "}
                      <When at={chain.dispatch.claimedAt} />
                    </>
                  ) : (
                    <span class="muted">not claimed</span>
                  )}
                </div>
                <div class="step">
                  <span class="step-name">Outcome</span>
                  {chain.outcome ? chain.outcome.summary : <span class="muted">none yet</span>}
                </div>
              </li>
            ))}
          </ol>
          <Pager
            page={page}
            limit={LIMIT}
            total={activity.data.total}
            onPage={(next) => route(`/app/activity?page=${next}`)}
          />
        </>
      )}
    </section>
  );
}
