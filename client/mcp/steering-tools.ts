/**
 * @module client/mcp/steering-tools — a person's side of an agent at work (docs/api.md#questions-and-answers,
 * docs/api.md#plan-approval, docs/api.md#stopping-a-dispatch): answering its question, deciding on its plan,
 * stopping it. Their routes take no dispatch token (the API answers an agent's own token 403), so a
 * server holding only a token does not offer them (./access.ts), and they always go out with the key.
 */
import * as z from "zod/mini";
import { approveBody, messageBody, rejectBody, stopBody } from "../../core/src/dispatch/schemas.js";
import { dataResult, defineTool, steeredDispatchId, WRITE } from "./tool-kit.js";

/** Who may call these tools, for their descriptions. */
const PERSON =
  "For a person (or an assistant acting for one) with the service key: an agent's own dispatch token may not.";

export const sendMessage = defineTool({
  name: "send_message",
  title: "Answer an agent",
  description:
    "Say something to an agent at work on a dispatch: answer the question it asked (an `elicitation` activity " +
    "leaves its dispatch `waiting` for `input`; your message sets it to work again with a fresh lease), or tell " +
    "it something it should know. The message is an activity of type `message` that the agent reads with its " +
    `others (list_activities). ${PERSON} Error 409 once the dispatch has ended.`,
  route: "POST /api/dispatch/:id/messages",
  inputSchema: z.extend(messageBody(), { dispatchId: steeredDispatchId }),
  annotations: WRITE,
  async run({ dispatchId: id, ...body }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/messages", { params: { path: { id } }, body }),
    );
    const message = data?.data;
    return dataResult(message, message ? `Sent message ${message.sequence} to ${message.dispatchId}.` : undefined);
  },
});

export const approvePlan = defineTool({
  name: "approve_plan",
  title: "Approve an agent's plan",
  description:
    "Approve the plan a dispatch waits on (`waiting` for `approval`, after its agent posted a `plan` activity on a " +
    "project with autonomy.planApproval): it works again with a fresh lease, `planApproved` true, and may complete " +
    `\`done\`. \`comment\` reaches the agent as a message (default "Plan approved."). ${PERSON} Error 409 when the ` +
    "dispatch does not wait for approval. Answers with the dispatch and the message.",
  route: "POST /api/dispatch/:id/approve",
  inputSchema: z.extend(approveBody(), { dispatchId: steeredDispatchId }),
  annotations: WRITE,
  async run({ dispatchId: id, ...body }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/approve", { params: { path: { id } }, body }),
    );
    if (data) session.remember(data.data.dispatch);
    return dataResult(data?.data, data ? `Approved the plan of ${id}.` : undefined);
  },
});

export const rejectPlan = defineTool({
  name: "reject_plan",
  title: "Send an agent's plan back",
  description:
    "Send back the plan a dispatch waits on (`waiting` for `approval`) with `feedback`, what to change: it works " +
    "again with a fresh lease, reads your feedback as a message, and must post a new plan (and have it approved) " +
    `before it may complete \`done\`. ${PERSON} Error 409 when the dispatch does not wait for approval. Answers with ` +
    "the dispatch and the message.",
  route: "POST /api/dispatch/:id/reject",
  inputSchema: z.extend(rejectBody(), { dispatchId: steeredDispatchId }),
  annotations: WRITE,
  async run({ dispatchId: id, ...body }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/reject", { params: { path: { id } }, body }),
    );
    if (data) session.remember(data.data.dispatch);
    return dataResult(data?.data, data ? `Sent the plan of ${id} back.` : undefined);
  },
});

export const stopDispatch = defineTool({
  name: "stop_dispatch",
  title: "Stop an agent at work",
  description:
    "Stop an agent going the wrong way: its open dispatch (active or waiting) becomes `stopped` with your " +
    "`reason`, and its issue moves to `then`: `todo` (the default: claimable again), `backlog` or `canceled`. " +
    "Every later call with its token answers 409 `Dispatch was stopped: <reason>`. " +
    `${PERSON} Error 409 when the dispatch has already ended. Answers with the dispatch and its issue.`,
  route: "POST /api/dispatch/:id/stop",
  inputSchema: z.extend(stopBody(), { dispatchId: steeredDispatchId }),
  // It ends another agent's work: clients may ask before calling it.
  annotations: { ...WRITE, destructiveHint: true },
  async run({ dispatchId: id, ...body }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/stop", { params: { path: { id } }, body }),
    );
    if (data) session.remember(data.data.dispatch);
    const stopped = data?.data;
    const lead = stopped
      ? `Stopped ${id}${stopped.issue ? `; ${stopped.issue.identifier} is ${stopped.issue.status}` : ""}.`
      : undefined;
    return dataResult(stopped, lead);
  },
});
