/** @module console/pages/queue — `/app/queue`: the issues in the order claims take them, with each score's parts (docs/api.md#score). */
import { useLocation } from "preact-iso";
import { Failure, IssueLink, Loading, Pager, pageOf, TableHead, TitleLink } from "../components.js";
import { REFRESH_MS, useResource } from "../resource.js";

const LIMIT = 25;

export function QueuePage() {
  const { query, route } = useLocation();
  const page = pageOf(query);
  const queue = useResource(
    async (kaizen) => (await kaizen.GET("/api/dispatch/queue", { params: { query: { page, limit: LIMIT } } })).data,
    String(page),
    REFRESH_MS,
  );
  const anyHeld = held(queue.data?.data ?? []);
  return (
    <section>
      <h1>Queue</h1>
      <p class="muted">
        The order claims take issues in: score = priority + type + goal + age (days) + impact (10 for every doubling of
        its signals, at most 50).
      </p>
      <Failure error={queue.error} onReload={queue.reload} />
      {!queue.data ? (
        <Loading what="the queue" />
      ) : queue.data.data.length === 0 ? (
        <p>The queue is empty: no issue is ready to claim.</p>
      ) : (
        <>
          {anyHeld && (
            <p class="muted">
              Claims pass over an issue held by its project's review capacity or daily cost budget while the hold lasts;
              the others are, in order, what the next claims take.
            </p>
          )}
          <table>
            <TableHead
              columns={[
                "Rank",
                "Issue",
                "Title",
                "Score",
                "Priority",
                "Type",
                "Goal",
                "Age",
                "Impact",
                ...(anyHeld ? ["Held by"] : []),
              ]}
              numeric={["Rank", "Score", "Priority", "Type", "Goal", "Age", "Impact"]}
            />
            <tbody>
              {queue.data.data.map((item, index) => (
                <tr key={item.issue.id}>
                  <td class="num">{(page - 1) * LIMIT + index + 1}</td>
                  <td>
                    <IssueLink issue={item.issue} />
                  </td>
                  <td>
                    <TitleLink issue={item.issue} />
                  </td>
                  <td class="num">
                    <strong>{item.score.toFixed(2)}</strong>
                  </td>
                  <td class="num">{item.breakdown.priority}</td>
                  <td class="num">{item.breakdown.type}</td>
                  <td class="num">{item.breakdown.goal}</td>
                  <td class="num">{item.breakdown.age.toFixed(2)}</td>
                  <td class="num">{item.breakdown.impact}</td>
                  {anyHeld && <td>{item.heldBy && <span class="badge">{item.heldBy}</span>}</td>}
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            limit={LIMIT}
            total={queue.data.total}
            onPage={(next) => route(`/app/queue?page=${next}`)}
          />
        </>
      )}
    </section>
  );
}

/** True when claims pass over an issue of the page now (docs/api.md#queue-preview): the page shows why. */
function held(items: { heldBy: string | null }[]): boolean {
  return items.some((item) => item.heldBy !== null);
}
