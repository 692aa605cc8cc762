/**
 * @module console/pages/issue-dispatch — an issue's dispatches on `/app/issues/:id`
 * (docs/console.md#an-agent-at-work): the open one live — its status, what it waits for, its
 * cost against its budget and its activities as they come (../activity-tail.ts) — with what a
 * person may do to it (the forms of ./dispatch-steering.tsx): answer its question, approve or
 * reject its plan, message it, stop it; and
 * the history, each ended dispatch with its outcome, why it was stopped and its activities, read
 * only. A key that may not steer (../access.ts) watches without those forms. Activities are text:
 * nothing an agent writes is rendered as HTML.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Schema } from "../../../client/client.js";
import { ACTIVITY_PAGE, ACTIVITY_POLL_MS, ActivityTail, type TailState } from "../activity-tail.js";
import { Badge, Failure, Loading, When } from "../components.js";
import { authorText, costText, isOpen, latest, planText, typeText, usageText, waitingText } from "../dispatch-text.js";
import { REFRESH_MS, type Resource, useAction, useResource } from "../resource.js";
import { allowed, api, asApiError, noteFailure, noteSuccess } from "../session.js";
import { MessageForm, PlanDecision, StopForm } from "./dispatch-steering.js";

type Dispatch = Schema<"Dispatch">;
type Activity = Schema<"Activity">;
type IssueRef = { identifier: string };

/** What a person's action on a dispatch answers with a 409 (it moved on meanwhile). */
const MOVED_ON = "The dispatch moved on meanwhile (answered, stopped or ended): the page now shows where it is.";

/** The issue's dispatches, newest first, refreshed on their own; none before the issue is known. */
export function useDispatches(issueId: string | undefined): Resource<Dispatch[]> {
  return useResource(
    async (kaizen) =>
      issueId
        ? ((await kaizen.GET("/api/dispatch", { params: { query: { issueId, limit: 100 } } })).data?.data ?? [])
        : [],
    issueId ?? "",
    REFRESH_MS,
  );
}

/**
 * A dispatch's activities, oldest first: read once, and while `live` asked for again every
 * `intervalMs` (only the later ones) while the tab is seen. `onNew` is called when activities
 * arrive after the first read.
 */
export function useActivities(
  dispatchId: string,
  live: boolean,
  onNew?: () => void,
  intervalMs = ACTIVITY_POLL_MS,
): TailState<Activity> & { refresh(): Promise<void> } {
  const [state, setState] = useState<TailState<Activity>>({ activities: [], error: undefined, loaded: false });
  const tail = useRef<ActivityTail<Activity> | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const onNewRef = useRef(onNew);
  onNewRef.current = onNew;

  useEffect(() => {
    let loadedOnce = false;
    const following = new ActivityTail<Activity>({
      intervalMs,
      visible: () => document.visibilityState === "visible",
      async fetchAfter(after) {
        try {
          const { data } = await api().GET("/api/dispatch/{id}/activities", {
            params: { path: { id: dispatchId }, query: { after: String(after), limit: ACTIVITY_PAGE } },
          });
          noteSuccess();
          return { data: data?.data ?? [], total: data?.total ?? 0 };
        } catch (thrown) {
          const error = asApiError(thrown);
          noteFailure(error);
          throw error;
        }
      },
      onUpdate(next, added) {
        setState(next);
        if (added > 0 && loadedOnce) onNewRef.current?.();
        loadedOnce ||= next.loaded;
      },
    });
    tail.current = following;
    void following.start(liveRef.current);
    const onVisibility = () => following.visibilityChanged();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      following.stop();
      document.removeEventListener("visibilitychange", onVisibility);
      tail.current = null;
    };
  }, [dispatchId, intervalMs]);

  useEffect(() => tail.current?.setLive(live), [live]);

  return { ...state, refresh: () => tail.current?.refresh() ?? Promise.resolve() };
}

/** One activity: its type, who wrote it and when, and its body as text. */
function ActivityItem({ activity }: { activity: Activity }) {
  const author = authorText(activity);
  return (
    <li class={`activity activity-${activity.type}`}>
      <div class="activity-head">
        <Badge kind={activity.data?.decision === "rejected" ? "rejected" : activity.type}>{typeText(activity)}</Badge>{" "}
        <strong>{author.name}</strong> <span class="muted">({author.kind})</span>{" "}
        <When at={activity.createdAt} precise /> <span class="muted small">#{activity.sequence}</span>
      </div>
      <p class="activity-body">{activity.body}</p>
    </li>
  );
}

/**
 * The activities as a log; a live one keeps its end in view while the reader is there, so new
 * activities show without scrolling.
 */
function ActivityLog({
  label,
  state,
}: {
  label: string;
  state: Pick<TailState<Activity>, "activities" | "error" | "loaded">;
}) {
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const count = state.activities.length;
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [count]);
  const failure = state.error ? <Failure error={asApiError(state.error)} /> : null;
  if (!state.loaded) return failure ?? <Loading what="the activities" />;
  return (
    <>
      {failure}
      {count === 0 ? <p class="muted">No activities yet.</p> : null}
      {/* Focusable, so the log scrolls from the keyboard too. */}
      <div
        ref={box}
        class="activity-log"
        role="log"
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        }}
        hidden={count === 0}
      >
        <ol class="activities">
          {state.activities.map((activity) => (
            <ActivityItem key={activity.id} activity={activity} />
          ))}
        </ol>
      </div>
    </>
  );
}

/** The dispatch's state in a line: status, what it waits for, its lease and when its agent was last heard. */
function DispatchState({ dispatch }: { dispatch: Dispatch }) {
  const waiting = waitingText(dispatch);
  return (
    <p>
      Attempt {dispatch.attempt}: <strong>{dispatch.agent}</strong>{" "}
      <Badge kind={dispatch.status}>{dispatch.status}</Badge>
      {waiting ? <strong class="waiting"> {waiting}</strong> : null} · claimed <When at={dispatch.claimedAt} /> ·{" "}
      {dispatch.finishedAt ? (
        <>
          finished <When at={dispatch.finishedAt} />
        </>
      ) : (
        <>
          {dispatch.status === "waiting" ? "lease paused until" : "lease until"} <When at={dispatch.leaseExpiresAt} />
        </>
      )}
      {dispatch.heartbeatAt ? (
        <>
          {" "}
          · last heard from <When at={dispatch.heartbeatAt} precise />
        </>
      ) : null}
    </p>
  );
}

/**
 * The dispatch at work, live: its state, cost and activities, and what a person may do. Each
 * action reads the activities and the dispatch again (`onChanged` reloads the dispatch and the
 * issue). Once it ends, it stays here read only, with how it ended and the last action's failure
 * (a 409 when it had moved on meanwhile), until the page is left.
 */
export function AtWork({
  dispatch,
  issue,
  onChanged,
  onActivity,
}: {
  dispatch: Dispatch;
  issue: IssueRef;
  onChanged: () => void;
  onActivity: () => void;
}) {
  const open = isOpen(dispatch);
  const stream = useActivities(dispatch.id, open, onActivity);
  const act = useAction();
  const after = async () => {
    onChanged();
    await stream.refresh();
  };
  const plan = planText(dispatch);
  const mayDecide = allowed("POST", "/api/dispatch/{id}/approve") || allowed("POST", "/api/dispatch/{id}/reject");
  return (
    <section class="at-work" aria-labelledby="at-work-title">
      <h2 id="at-work-title">{open ? "Agent at work" : `Agent's work ended: ${dispatch.status}`}</h2>
      <DispatchState dispatch={dispatch} />
      {dispatch.stopReason ? <p class="stop-reason">Stopped: {dispatch.stopReason}</p> : null}
      {dispatch.outcome ? <p class="outcome">{dispatch.outcome.summary}</p> : null}
      <p class="cost">
        {open ? "Cost so far" : "Cost"}: {costText(dispatch)}
        {plan ? <> · {plan}</> : null}
      </p>
      <h3>Activities</h3>
      <ActivityLog label={`Activities of ${dispatch.agent}, attempt ${dispatch.attempt}`} state={stream} />
      {open && dispatch.waitingFor === "approval" && mayDecide ? (
        <PlanDecision dispatch={dispatch} plan={latest(stream.activities, "plan")} act={act} onDecided={after} />
      ) : null}
      {open && dispatch.waitingFor !== "approval" && allowed("POST", "/api/dispatch/{id}/messages") ? (
        <MessageForm dispatch={dispatch} question={latest(stream.activities, "elicitation")} act={act} onSent={after} />
      ) : null}
      {open && allowed("POST", "/api/dispatch/{id}/stop") ? (
        <StopForm dispatch={dispatch} issue={issue} act={act} onStopped={() => void after()} />
      ) : null}
      <Failure error={act.error} conflict={MOVED_ON} />
    </section>
  );
}

/** An ended dispatch's activities, read once, when its row is opened. */
function PastActivities({ dispatch }: { dispatch: Dispatch }) {
  const stream = useActivities(dispatch.id, false);
  return <ActivityLog label={`Activities of ${dispatch.agent}, attempt ${dispatch.attempt}`} state={stream} />;
}

/** Every dispatch of the issue, newest first; an ended one's activities open on demand. */
export function DispatchHistory({ dispatches }: { dispatches: Resource<Dispatch[]> }) {
  const [opened, setOpened] = useState<string[]>([]);
  return (
    <section aria-labelledby="dispatches-title">
      <h2 id="dispatches-title">Dispatch history</h2>
      <Failure error={dispatches.error} />
      {dispatches.data?.length === 0 && !dispatches.loading ? <p class="muted">Never dispatched.</p> : null}
      <ol class="plain">
        {(dispatches.data ?? []).map((dispatch) => (
          <li key={dispatch.id} class="dispatch">
            Attempt {dispatch.attempt}: <strong>{dispatch.agent}</strong>{" "}
            <Badge kind={dispatch.status}>{dispatch.status}</Badge> claimed <When at={dispatch.claimedAt} />
            {dispatch.finishedAt ? (
              <>
                , finished <When at={dispatch.finishedAt} />
              </>
            ) : (
              <>
                , lease until <When at={dispatch.leaseExpiresAt} />
              </>
            )}
            {dispatch.stopReason ? <p class="stop-reason">Stopped: {dispatch.stopReason}</p> : null}
            {dispatch.outcome ? <p class="outcome">{dispatch.outcome.summary}</p> : null}
            {dispatch.usage ? <p class="muted small">Reported usage: {usageText(dispatch.usage)}</p> : null}
            {dispatch.costBudgetUsd !== null ? <p class="muted small">Cost: {costText(dispatch)}</p> : null}
            {isOpen(dispatch) ? (
              <p class="muted small">
                At work: its activities are <a href="#at-work-title">above</a>.
              </p>
            ) : (
              <details
                onToggle={(event) => {
                  if ((event.currentTarget as HTMLDetailsElement).open && !opened.includes(dispatch.id))
                    setOpened([...opened, dispatch.id]);
                }}
              >
                <summary>Activities</summary>
                {opened.includes(dispatch.id) ? <PastActivities dispatch={dispatch} /> : null}
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
