import * as z from "zod/mini";
import { createCommentBody } from "../../core/src/comments/schemas.js";
import {
  activitiesQuery,
  activityBody,
  claimBody,
  completeBody,
  heartbeatBody,
} from "../../core/src/dispatch/schemas.js";
import { createReviewBody } from "../../core/src/prompts/schemas.js";
import { listSignalsQuery } from "../../core/src/signals/schemas.js";
import { claimStopped, stoppedReason } from "../client.js";
import { dataResult, defaultIssue, defineTool, dispatchId, promptId, queryString, READ, WRITE } from "./tool-kit.js";

/** What usage is and what its budget does, for the tools that report it. */
const USAGE_TEXT =
  "each figure is your running total for the dispatch, and a cost past its costBudgetUsd (its project's " +
  "limits.maxCostPerDispatchUsd) stops it.";

/** What a stop looks like to the agent, for the tools its token calls. */
const STOPPED_TEXT =
  "An error 409 `Dispatch was stopped: <reason>` means a person, or its budget, stopped your dispatch: stop " +
  "working on it and make no further changes; its issue has moved on.";

export const claimNextIssue = defineTool({
  name: "claim_next_issue",
  title: "Claim the next issue",
  description:
    "Take the highest-ranked issue waiting in `todo` and start working on it: Kaizen moves it to in_progress, " +
    "records a dispatch with a lease (leaseSeconds, default 1800) and answers with the prompt (what to do and how " +
    "to report back), the dispatch (its id and token) and the issue. Use it when you are ready for new work. " +
    "Afterwards heartbeat before the lease ends, comment as you go, review the prompt, and finish with " +
    "complete_dispatch (or release_dispatch); those tools default to this dispatch. Nothing is claimed when no " +
    "issue is eligible. In a repository connected with `kaizen connect`, only its project's issues are claimed " +
    "unless projectId names another. A project's limits may hold its issues back: an error 429 says you hold as " +
    "many of its dispatches as it allows one agent (finish one, then try again after the time it names); " +
    "`stopped: daily-cost-budget` says its agents spent today's budget (UTC); `stopped: review-capacity` says as " +
    "many of its issues wait in review as it allows (claims resume as reviews end).",
  route: "POST /api/dispatch/claim",
  inputSchema: claimBody(),
  annotations: WRITE,
  async run(args, session) {
    const { data, response } = await session.call("service", (kaizen) =>
      // In a connected repository, its project's issues unless the agent names another.
      kaizen.POST("/api/dispatch/claim", { body: { ...args, projectId: args.projectId ?? session.projectId } }),
    );
    if (response.status === 204 || !data) {
      const stopped = claimStopped(response);
      const text = stopped
        ? stoppedReason(stopped)
        : "Nothing to claim: no issue in todo is eligible for these filters.";
      return {
        content: [{ type: "text", text }],
        structuredContent: { dispatch: null, issue: null, prompt: null, ...(stopped ? { stopped } : {}) },
      };
    }
    const claim = data.data;
    session.adopt(claim);
    const { dispatch, issue, prompt } = claim;
    const lead =
      `Claimed ${issue.identifier} "${issue.title}" as dispatch ${dispatch.id} (lease until ${dispatch.leaseExpiresAt}). ` +
      "heartbeat, add_comment, review_prompt, complete_dispatch and release_dispatch now default to this dispatch.";
    return {
      content: [
        { type: "text", text: lead },
        { type: "text", text: prompt ? prompt.text : "No prompt template matched this issue: work from the issue." },
        { type: "text", text: JSON.stringify(claim, null, 2) },
      ],
      structuredContent: claim,
    };
  },
});

export const getIssue = defineTool({
  name: "get_issue",
  title: "Read an issue",
  description:
    "Read one issue by id (iss_…) or identifier (KZN-<n>): its fields, parent, children, relations and its latest " +
    "10 signals (the evidence that opened it or grouped into it). Use it to triage an issue or to re-read the one " +
    "you are working on.",
  route: "GET /api/issues/:id",
  inputSchema: z.required(z.pick(listSignalsQuery(), { issueId: true })),
  annotations: READ,
  async run({ issueId }, session) {
    // The issue of a dispatch this session holds is read with that dispatch's token, as the API lets it.
    const { data } = await session.call({ issue: issueId }, (kaizen) =>
      kaizen.GET("/api/issues/{id}", { params: { path: { id: issueId } } }),
    );
    return dataResult(data?.data);
  },
});

export const heartbeat = defineTool({
  name: "heartbeat",
  title: "Extend the lease",
  description:
    "Extend your dispatch's lease by its length from now. Call it during long work, well before leaseExpiresAt: " +
    "a dispatch whose lease runs out expires and its issue goes back to the queue. Give `usage` (inputTokens, " +
    `outputTokens, costUsd, model) as you go: ${USAGE_TEXT} While your dispatch is \`waiting\` for a person its ` +
    "lease stays paused and a heartbeat changes nothing else. Answers with the dispatch (its status, waitingFor, " +
    `usage and costBudgetUsd). ${STOPPED_TEXT}`,
  route: "POST /api/dispatch/:id/heartbeat",
  inputSchema: z.extend(heartbeatBody(), { dispatchId: z.optional(dispatchId) }),
  annotations: { ...WRITE, idempotentHint: true },
  async run({ dispatchId: given, usage }, session) {
    const id = session.dispatchId(given);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/heartbeat", { params: { path: { id } }, ...(usage ? { body: { usage } } : {}) }),
    );
    if (data) session.remember(data.data);
    return dataResult(data?.data);
  },
});

export const postActivity = defineTool({
  name: "post_activity",
  title: "Say what you are doing",
  description:
    "Tell the people watching your dispatch what you are doing as you go: a `thought` (what you understood or " +
    "decided), an `action` (what you ran or changed), a `response` (what you concluded) or an `error` (what went " +
    "wrong), with an optional `data` object (at most 16 KiB). Each one also extends your lease as heartbeat does. " +
    "To ask a person, post an `elicitation` (the question as its body): your dispatch waits for input, its lease " +
    "paused, until a person's message answers; read it with list_activities after your question's sequence. On a " +
    "project with plan approval, post your `plan` before you change anything: the dispatch waits until a person " +
    "approves or rejects it (complete_dispatch with `done` is refused until your latest plan is approved; after a " +
    `rejection, post a new plan). \`usage\` is your running total, as on heartbeat. ${STOPPED_TEXT} Answers with the ` +
    "activity and its sequence (1, 2, … for your dispatch).",
  route: "POST /api/dispatch/:id/activities",
  inputSchema: z.extend(activityBody(), { dispatchId: z.optional(dispatchId) }),
  annotations: WRITE,
  async run({ dispatchId: given, ...body }, session) {
    const id = session.dispatchId(given);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/activities", { params: { path: { id } }, body }),
    );
    return dataResult(data?.data);
  },
});

export const listActivities = defineTool({
  name: "list_activities",
  title: "Read a dispatch's activities",
  description:
    "The activities of a dispatch, oldest first, with their total; `after` (a sequence) gives only later ones, so " +
    "asking again with the last sequence seen reads what is new. People's messages are among them (`type: message`, " +
    "`authorType: human`): the answer to your question, or to your plan, with `data.decision` `approved` or " +
    "`rejected` (the body is the comment, or what to change). After an elicitation or a plan, ask again every " +
    "minute or so with `after` its sequence until a message arrives. page and limit are digits as text. " +
    "dispatchId defaults to yours.",
  route: "GET /api/dispatch/:id/activities",
  inputSchema: z.extend(activitiesQuery(), { dispatchId: z.optional(dispatchId) }),
  annotations: READ,
  async run({ dispatchId: given, ...query }, session) {
    const id = session.dispatchId(given);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.GET("/api/dispatch/{id}/activities", { params: { path: { id }, query: queryString(query) } }),
    );
    return dataResult(data);
  },
});

export const addComment = defineTool({
  name: "add_comment",
  title: "Comment on an issue",
  description:
    "Post a comment (Markdown) on an issue: what you found, decided, are blocked on, or want a human to know. " +
    "authorType is `agent` for you; parentId makes it a reply. issueId defaults to your dispatch's issue.",
  route: "POST /api/issues/:id/comments",
  inputSchema: z.extend(createCommentBody(), { issueId: z.optional(defaultIssue) }),
  annotations: WRITE,
  async run({ issueId, ...body }, session) {
    const id = await session.issueId(issueId);
    const { data } = await session.call({ issue: id }, (kaizen) =>
      kaizen.POST("/api/issues/{id}/comments", { params: { path: { id } }, body }),
    );
    return dataResult(data?.data);
  },
});

export const completeDispatch = defineTool({
  name: "complete_dispatch",
  title: "Complete the dispatch",
  description:
    "Report the end of your work: result `done` moves the issue to done with your summary, commits and pull " +
    "requests; `failed` puts it back in todo and your summary reaches the next attempt's prompt (the third failed " +
    "attempt cancels it). Give `usage` (inputTokens, outputTokens, costUsd, model: what you know of them) so prompt " +
    "versions can be compared on cost. Review the prompt (review_prompt) before this if you hold only a dispatch " +
    "token: it stops working when the dispatch ends. On a project with plan approval, `done` answers 409 until a " +
    "person approved your latest plan (post_activity type `plan`). Answers with the dispatch and the issue.",
  route: "POST /api/dispatch/:id/complete",
  inputSchema: z.extend(completeBody(), { dispatchId: z.optional(dispatchId) }),
  annotations: WRITE,
  async run({ dispatchId: given, ...body }, session) {
    const id = session.dispatchId(given);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/complete", { params: { path: { id } }, body }),
    );
    if (data) session.remember(data.data.dispatch);
    return dataResult(data?.data);
  },
});

export const releaseDispatch = defineTool({
  name: "release_dispatch",
  title: "Release the dispatch",
  description:
    "Give the issue back to the queue untouched (it returns to todo, the dispatch becomes released) when you cannot " +
    "or should not work on it. When you tried and failed, use complete_dispatch with result `failed` instead, so " +
    "the next attempt learns from your summary.",
  route: "POST /api/dispatch/:id/release",
  inputSchema: z.strictObject({ dispatchId: z.optional(dispatchId) }),
  annotations: WRITE,
  async run(args, session) {
    const id = session.dispatchId(args.dispatchId);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/release", { params: { path: { id } } }),
    );
    if (data) session.remember(data.data.dispatch);
    return dataResult(data?.data);
  },
});

export const reviewPrompt = defineTool({
  name: "review_prompt",
  title: "Review the prompt",
  description:
    "Rate the prompt you were given, each from 1 to 5: clarity (could you tell what to do), completeness (did it " +
    "hold what you needed), relevance (did it fit the issue), with feedback on what was unclear or missing. " +
    "Reviews score the prompt's template version; low scores open an issue to improve it. authorType is `agent` " +
    "for you. promptId defaults to your dispatch's prompt.",
  route: "POST /api/prompts/:id/reviews",
  inputSchema: z.extend(createReviewBody(), { promptId: z.optional(promptId) }),
  annotations: WRITE,
  async run({ promptId: given, ...body }, session) {
    const id = await session.promptId(given);
    const { data } = await session.call({ prompt: id }, (kaizen) =>
      kaizen.POST("/api/prompts/{id}/reviews", { params: { path: { id } }, body }),
    );
    return dataResult(data?.data);
  },
});
