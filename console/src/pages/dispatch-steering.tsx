/**
 * @module console/pages/dispatch-steering — what a person does to a dispatch at work
 * (docs/console.md#an-agent-at-work): answer its question or message it, approve or reject its plan,
 * stop it. Each form runs through the page's one action (`act`: one at a time) and tells the page
 * when it is done, which reads the dispatch and its activities again (./issue-dispatch.tsx).
 */
import { useState } from "preact/hooks";
import type { Schema } from "../../../client/client.js";
import { Confirm, fieldValue } from "../components.js";
import { STOP_THEN, type StopThen } from "../dispatch-text.js";
import type { useAction } from "../resource.js";
import { allowed } from "../session.js";

type Dispatch = Schema<"Dispatch">;
type Activity = Schema<"Activity">;
type IssueRef = { identifier: string };
/** The one action on the dispatch under way: what a person does to it runs one at a time. */
type Act = ReturnType<typeof useAction>;

/** A person's words to the agent: the answer to its question while it waits for one, else a message. */
export function MessageForm({
  dispatch,
  question,
  act,
  onSent,
}: {
  dispatch: Dispatch;
  question: Activity | null;
  act: Act;
  onSent: () => Promise<void>;
}) {
  const [body, setBody] = useState("");
  const answering = dispatch.waitingFor === "input";
  const title = answering ? "Answer its question" : "Message the agent";
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!body.trim()) return;
    const done = await act.run((kaizen) =>
      kaizen.POST("/api/dispatch/{id}/messages", {
        params: { path: { id: dispatch.id } },
        body: { body: body.trim() },
      }),
    );
    if (done) setBody("");
    await onSent();
  };
  return (
    <form class="stack steer" aria-labelledby={`message-title-${dispatch.id}`} onSubmit={submit}>
      <h3 id={`message-title-${dispatch.id}`}>{title}</h3>
      {answering && question ? <blockquote class="activity-body">{question.body}</blockquote> : null}
      {answering ? null : <p class="muted small">It reads it with its activities; it does not have to answer.</p>}
      <label for={`message-body-${dispatch.id}`}>{answering ? "Your answer" : "Your message"}</label>
      <textarea
        id={`message-body-${dispatch.id}`}
        rows={3}
        maxLength={20_000}
        value={body}
        onInput={(event) => setBody(fieldValue(event))}
      />
      <button type="submit" disabled={act.busy || !body.trim()}>
        {act.busy ? "Sending…" : answering ? "Send answer" : "Send message"}
      </button>
    </form>
  );
}

/** Approve the plan (a comment optional) or reject it (feedback required): the agent then works on. */
export function PlanDecision({
  dispatch,
  plan,
  act,
  onDecided,
}: {
  dispatch: Dispatch;
  plan: Activity | null;
  act: Act;
  onDecided: () => Promise<void>;
}) {
  const [comment, setComment] = useState("");
  const [feedback, setFeedback] = useState("");
  const path = { id: dispatch.id };
  const approve = async (event: Event) => {
    event.preventDefault();
    const done = await act.run((kaizen) =>
      kaizen.POST("/api/dispatch/{id}/approve", {
        params: { path },
        body: comment.trim() ? { comment: comment.trim() } : {},
      }),
    );
    if (done) setComment("");
    await onDecided();
  };
  const reject = async (event: Event) => {
    event.preventDefault();
    if (!feedback.trim()) return;
    const done = await act.run((kaizen) =>
      kaizen.POST("/api/dispatch/{id}/reject", { params: { path }, body: { feedback: feedback.trim() } }),
    );
    if (done) setFeedback("");
    await onDecided();
  };
  return (
    <section class="steer" aria-labelledby={`plan-title-${dispatch.id}`}>
      <h3 id={`plan-title-${dispatch.id}`}>Its plan waits for your approval</h3>
      {plan ? <blockquote class="activity-body">{plan.body}</blockquote> : null}
      <div class="columns">
        {allowed("POST", "/api/dispatch/{id}/approve") ? (
          <form class="stack" aria-label="Approve the plan" onSubmit={approve}>
            <label for={`approve-comment-${dispatch.id}`}>Note to the agent (optional)</label>
            <textarea
              id={`approve-comment-${dispatch.id}`}
              rows={2}
              maxLength={20_000}
              value={comment}
              onInput={(event) => setComment(fieldValue(event))}
            />
            <button type="submit" disabled={act.busy}>
              Approve plan
            </button>
          </form>
        ) : null}
        {allowed("POST", "/api/dispatch/{id}/reject") ? (
          <form class="stack" aria-label="Reject the plan" onSubmit={reject}>
            <label for={`reject-feedback-${dispatch.id}`}>What to change (required to reject)</label>
            <textarea
              id={`reject-feedback-${dispatch.id}`}
              rows={2}
              maxLength={20_000}
              required
              value={feedback}
              onInput={(event) => setFeedback(fieldValue(event))}
            />
            <button type="submit" disabled={act.busy || !feedback.trim()}>
              Reject plan
            </button>
          </form>
        ) : null}
      </div>
    </section>
  );
}

/** Stop the agent: why (its agent reads it) and where the issue goes, then a confirmation. */
export function StopForm({
  dispatch,
  issue,
  act,
  onStopped,
}: {
  dispatch: Dispatch;
  issue: IssueRef;
  act: Act;
  onStopped: () => void;
}) {
  const [reason, setReason] = useState("");
  const [to, setTo] = useState<StopThen>("todo");
  const [confirming, setConfirming] = useState(false);
  const ask = (event: Event) => {
    event.preventDefault();
    act.clear();
    if (reason.trim()) setConfirming(true);
  };
  const confirm = async () => {
    const done = await act.run((kaizen) =>
      kaizen.POST("/api/dispatch/{id}/stop", {
        params: { path: { id: dispatch.id } },
        // biome-ignore lint/suspicious/noThenProperty: the API names the field `then` (docs/api.md#stopping-a-dispatch).
        body: { reason: reason.trim(), then: to },
      }),
    );
    setConfirming(false);
    onStopped();
    if (done) setReason("");
  };
  return (
    <form class="steer" aria-labelledby={`stop-title-${dispatch.id}`} onSubmit={ask}>
      <h3 id={`stop-title-${dispatch.id}`}>Stop the agent</h3>
      <div class="row">
        <label class="wide">
          Reason (its agent reads it on its next call)
          <input
            required
            maxLength={500}
            value={reason}
            onInput={(event) => {
              setReason(fieldValue(event));
              setConfirming(false);
            }}
          />
        </label>
        <label>
          Then move {issue.identifier} to
          <select
            value={to}
            onChange={(event) => {
              setTo(fieldValue(event) as StopThen);
              setConfirming(false);
            }}
          >
            {STOP_THEN.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={act.busy || !reason.trim()}>
          Stop…
        </button>
      </div>
      {confirming ? (
        <Confirm
          question={`Stop ${dispatch.agent} (attempt ${dispatch.attempt}) and move ${issue.identifier} to ${to}?`}
          yes="Yes, stop it"
          busy={act.busy}
          onYes={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>Its token stops working at once; what it did so far stays.</p>
        </Confirm>
      ) : null}
    </form>
  );
}
