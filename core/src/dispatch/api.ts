/**
 * @module dispatch/api — the `dispatch` family's routes (docs/api.md#dispatch): claims, the queue, leases and
 * outcomes, each declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import { CLAIM_STOPPED_HEADER, DAILY_COST_BUDGET_STOP, REVIEW_CAPACITY_STOP } from "../routes.js";
import {
  activitiesQuery,
  activityBody,
  approveBody,
  claimBody,
  completeBody,
  heartbeatBody,
  listDispatchesQuery,
  messageBody,
  nextQuery,
  queueQuery,
  rejectBody,
  stopBody,
} from "./schemas.js";

/**
 * A claim's 204: nothing eligible, or (with the header) nothing but issues of projects whose reviews
 * are full or that are past their daily cost budget.
 */
const NOTHING_CLAIMED = {
  status: 204,
  headers: { [CLAIM_STOPPED_HEADER]: [DAILY_COST_BUDGET_STOP, REVIEW_CAPACITY_STOP] },
} as const;

const NOTHING_CLAIMED_TEXT = TEXT && {
  alsoSuccess:
    "Nothing is eligible. With `Kaizen-Claim-Stopped: daily-cost-budget`: the only issues left are in projects whose " +
    "agents reported `limits.dailyCostBudgetUsd` or more today (UTC); claims of them resume the next UTC day or when the budget is raised. " +
    "With `Kaizen-Claim-Stopped: review-capacity`: issues are held back because `limits.maxInReview` of their projects' issues " +
    "wait in review (this value wins when both apply); claims resume as reviews end.",
  headers: {
    [CLAIM_STOPPED_HEADER]:
      "Why nothing was claimed although issues are queued: their projects' reviews are full, or their daily cost budget is spent",
  },
};

const CLAIM_LIMITS = TEXT
  ? " Projects' `limits` hold their issues back: an agent holding `limits.maxActivePerAgent` active dispatches of a " +
    "project gets 429 (`Retry-After: 30`, a message naming the limit) when nothing else is eligible; a project whose " +
    "agents reported `limits.dailyCostBudgetUsd` today (UTC) gets the 204 with `Kaizen-Claim-Stopped: daily-cost-budget`, " +
    "and one with `limits.maxInReview` of its issues in review the 204 with `Kaizen-Claim-Stopped: review-capacity`. " +
    "A claim filtered by such a project answers so at once; an unfiltered one takes the best issue of other projects " +
    "first. The 429 comes before the budget's 204 when both apply. A `projectId` that names no project is a 400."
  : "";

export const dispatchApi = {
  "POST /api/dispatch/claim": {
    auth: "bearer",
    scope: "dispatch",
    reach: "handler",
    body: claimBody,
    success: { status: 201, item: "ClaimResult" },
    alsoSuccess: NOTHING_CLAIMED,
    errors: [429],
    doc: TEXT && {
      summary: "Claim the highest-scoring eligible issue",
      description:
        "Each issue is claimed by exactly one agent at a time. `dispatch.token` authorises heartbeat, complete, " +
        "release, activities, comments on the issue and reviews of the prompt, and reading the dispatch, its issue " +
        "and its prompt, until the dispatch ends; a `dispatch` key may do the same on the dispatches it claimed. " +
        "With `Idempotency-Key`, a retry gets the same answer, the same dispatch and token, not a second issue." +
        CLAIM_LIMITS,
      success: "The dispatch, its issue and the rendered prompt",
      ...NOTHING_CLAIMED_TEXT,
    },
  },
  "GET /api/dispatch/next": {
    auth: "bearer",
    scope: "dispatch",
    reach: "handler",
    audit: true,
    query: nextQuery,
    success: { item: "ClaimResult", location: true },
    alsoSuccess: NOTHING_CLAIMED,
    errors: [429],
    doc: TEXT && {
      summary: "Claim, for agents that can only GET",
      description: `The claim of \`POST /api/dispatch/claim\`, its answers included.${CLAIM_LIMITS}`,
      success: "The dispatch, its issue and the rendered prompt",
      ...NOTHING_CLAIMED_TEXT,
    },
  },
  "GET /api/dispatch/queue": {
    auth: "bearer",
    scope: "read",
    reach: "handler",
    query: queueQuery,
    success: { list: "QueueItem" },
    doc: TEXT && {
      summary: "Preview the claim order",
      description:
        "Every queued issue in claim order, with its score now. An issue of a project whose claims stop now keeps its " +
        "place with `heldBy` naming the stop (`review-capacity` or `daily-cost-budget`, as a claim's " +
        "`Kaizen-Claim-Stopped` would): claims pass over it while it is held. The issues with `heldBy: null` are, in " +
        "this order, the issues successive claims take. An agent's `limits.maxActivePerAgent` holds that agent only, " +
        "so it marks nothing here. `total` counts held issues too. A `projectId` that names no project is a 400.",
      success: "A page of the queue, in claim order",
    },
  },
  "GET /api/dispatch": {
    auth: "bearer",
    scope: "read",
    reach: "handler",
    query: listDispatchesQuery,
    success: { list: "Dispatch" },
    doc: TEXT && {
      summary: "List dispatches",
      success: "A page",
    },
  },
  "GET /api/dispatch/:id": {
    auth: "bearer",
    scope: "read",
    token: "dispatch",
    reach: "dispatch",
    success: { item: "Dispatch" },
    doc: TEXT && {
      summary: "Get a dispatch",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The dispatch",
    },
  },
  "POST /api/dispatch/:id/heartbeat": {
    auth: "bearer",
    scope: "dispatch",
    reach: "dispatch",
    audit: false,
    token: "dispatch",
    body: heartbeatBody,
    bodyOptional: true,
    success: { item: "Dispatch" },
    errors: [409],
    doc: TEXT && {
      summary: "Extend a dispatch's lease",
      description:
        "Extends an active dispatch's lease by its length from now. The body may be left out, or carry `usage`: the " +
        "agent's running totals for the dispatch (a figure lower than one already reported is ignored); a cost that " +
        "passes the dispatch's `costBudgetUsd` stops it (409 `Dispatch was stopped: <reason>`). On a `waiting` " +
        "dispatch it answers 200 and the lease stays paused. 409 once the dispatch has ended or its lease ran out.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The dispatch with its new lease",
    },
  },
  "POST /api/dispatch/:id/activities": {
    auth: "bearer",
    scope: "dispatch",
    reach: "dispatch",
    audit: false,
    token: "dispatch",
    body: activityBody,
    success: { item: "Activity", status: 201, location: false },
    errors: [409],
    doc: TEXT && {
      summary: "Say what the agent is doing",
      description:
        "Appends an activity (what the agent thought, did, answered, what went wrong, a question for a person, its " +
        "plan) to an open dispatch as its next `sequence` (1, 2, … without gaps, whatever the posts at once); on an " +
        "`active` dispatch it counts as a heartbeat. `elicitation` makes the dispatch `waiting` for `input`; `plan`, " +
        "when its project's `autonomy.planApproval` was on at the claim, `waiting` for `approval`. A waiting dispatch's " +
        "lease is paused; it expires only after 7 days of waiting. `usage` is the running total, as on a heartbeat. " +
        "409 once the dispatch has ended or its lease ran out.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The activity",
    },
  },
  "GET /api/dispatch/:id/activities": {
    auth: "bearer",
    scope: "read",
    reach: "dispatch",
    token: "dispatch",
    query: activitiesQuery,
    success: { list: "Activity" },
    doc: TEXT && {
      summary: "What the agent said while it worked",
      description:
        "A dispatch's activities, oldest first, paginated; `after=<sequence>` gives only later ones, for tailing " +
        "(`total` counts those). Readable after the dispatch ended.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "A page of activities, oldest first",
    },
  },
  "POST /api/dispatch/:id/complete": {
    auth: "bearer",
    scope: "dispatch",
    reach: "dispatch",
    token: "dispatch",
    body: completeBody,
    success: { item: "DispatchWithIssue" },
    errors: [409],
    doc: TEXT && {
      summary: "Report a dispatch's outcome",
      description:
        "Ends an open dispatch. With `result: done` on a dispatch whose plan needs approval, 409 `Plan approval " +
        "required: post a plan activity and wait for approval` until its latest plan was approved. `usage` is the " +
        "running total, as on a heartbeat: a cost that passes the dispatch's `costBudgetUsd` stops it instead (409).",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The finished dispatch and its issue",
    },
  },
  "POST /api/dispatch/:id/messages": {
    auth: "bearer",
    scope: "write",
    reach: "dispatch",
    body: messageBody,
    success: { item: "Activity", status: 201, location: false },
    errors: [409],
    doc: TEXT && {
      summary: "Say something to an agent at work",
      description:
        "A person's message, kept as an activity of type `message` (`authorType: human`) that the agent reads with " +
        "the others. A dispatch `waiting` for `input` becomes `active` with a fresh lease. The dispatch's own token " +
        "may not send one (403). 409 once the dispatch has ended.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The message, as an activity",
    },
  },
  "POST /api/dispatch/:id/approve": {
    auth: "bearer",
    scope: "write",
    reach: "dispatch",
    body: approveBody,
    success: { item: "DispatchDecision" },
    errors: [409],
    doc: TEXT && {
      summary: "Approve the plan an agent waits on",
      description:
        "Answers a dispatch `waiting` for `approval`: it becomes `active` with a fresh lease, and may complete `done`. " +
        "The answer is also a `message` activity (`data.decision: approved`, the `comment` as its body). The " +
        "dispatch's own token may not approve (403). 409 when it does not wait for approval.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The dispatch and the message its agent reads",
    },
  },
  "POST /api/dispatch/:id/reject": {
    auth: "bearer",
    scope: "write",
    reach: "dispatch",
    body: rejectBody,
    success: { item: "DispatchDecision" },
    errors: [409],
    doc: TEXT && {
      summary: "Send a plan back with feedback",
      description:
        "Answers a dispatch `waiting` for `approval`: it becomes `active` with a fresh lease and the `feedback` as a " +
        "`message` activity (`data.decision: rejected`); it must post a new plan before it may complete `done`. The " +
        "dispatch's own token may not reject (403). 409 when it does not wait for approval.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The dispatch and the message its agent reads",
    },
  },
  "POST /api/dispatch/:id/stop": {
    auth: "bearer",
    scope: "write",
    reach: "dispatch",
    body: stopBody,
    success: { item: "DispatchWithIssue" },
    errors: [409],
    doc: TEXT && {
      summary: "Stop an agent at work",
      description:
        "A person stops an active dispatch: it becomes `stopped` with `stopReason`, and its issue moves to `then` " +
        "(`todo` by default, `backlog` or `canceled`). Every later call with its token (heartbeat, activity, complete, " +
        "release) answers 409 `Dispatch was stopped: <reason>`. The dispatch's own token may not stop it (403). " +
        "409 when the dispatch has already ended; of a stop and a completion at once, exactly one ends it.",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The stopped dispatch and its issue",
    },
  },
  "POST /api/dispatch/:id/release": {
    auth: "bearer",
    scope: "dispatch",
    reach: "dispatch",
    token: "dispatch",
    success: { item: "DispatchWithIssue" },
    errors: [409],
    doc: TEXT && {
      summary: "Give an issue back to the queue",
      params: { id: "Dispatch id (`dsp_…`)" },
      success: "The released dispatch and its issue",
    },
  },
} satisfies Declarations;
