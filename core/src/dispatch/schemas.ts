/** @module dispatch/schemas — what dispatches are and what agents may send (docs/api.md#dispatch). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { issueRef, nullableTimestamp, resourceId, timestamp } from "../http/resource-fields.js";
import {
  commitSchema,
  ISSUE_TYPES,
  issueSchema,
  pullRequestSchema,
  scoreBreakdownSchema,
  verificationSchema,
} from "../issues/schemas.js";
import { promptSchema } from "../prompts/schemas.js";
import { DAILY_COST_BUDGET_STOP, REVIEW_CAPACITY_STOP } from "../routes.js";
import { type Output, onFirstUse } from "../schema.js";
import { ACTIVITY_KINDS, ACTIVITY_TYPES, WAITING_FOR } from "./activity-values.js";

export {
  ACTIVITY_KINDS,
  ACTIVITY_TYPES,
  type ActivityKind,
  type ActivityType,
  WAITING_FOR,
  type WaitingFor,
} from "./activity-values.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

export const DISPATCH_STATUSES = [
  "active",
  "waiting",
  "completed",
  "failed",
  "released",
  "expired",
  "stopped",
] as const;
export type DispatchStatus = (typeof DISPATCH_STATUSES)[number];
/** The statuses of a dispatch that has not ended: its agent works, or waits for a person. */
export type OpenDispatchStatus = Extract<DispatchStatus, "active" | "waiting">;
/** The statuses a dispatch ends in. */
export type EndedDispatchStatus = Exclude<DispatchStatus, OpenDispatchStatus>;

export const DEFAULT_LEASE_SECONDS = 1800;

const agent = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.minLength(1, "must be 1..100 characters"), z.maxLength(100, "must be 1..100 characters")),
);
const projectId = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(/^prj_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a project id (prj_…)")),
);
const leaseSeconds = /* @__PURE__ */ onFirstUse(() =>
  z.int().check(z.gte(60, "must be between 60 and 7200"), z.lte(7200, "must be between 60 and 7200")),
);
const types = /* @__PURE__ */ onFirstUse(() =>
  z
    .array(z.enum(ISSUE_TYPES))
    .check(z.minLength(1, "must name at least one type"), z.maxLength(5, "at most 5 types()")),
);
/** `types=task,plan` in a query string. */
const typeList = /* @__PURE__ */ onFirstUse(() =>
  z.pipe(
    z.string(),
    z.pipe(
      z.transform((value: string) => value.split(",").filter((part) => part !== "")),
      types(),
    ),
  ),
);
const queryInteger = (schema: z.ZodMiniInt) =>
  z.pipe(z.string().check(z.regex(/^[0-9]+$/, "must be an integer")), z.pipe(z.transform(Number), schema));

/** `POST /api/dispatch/claim`. */
export const claimBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    agent: agent(),
    projectId: z.optional(projectId()),
    types: z.optional(types()),
    leaseSeconds: z.optional(leaseSeconds()),
  }),
);
export type ClaimInput = Output<typeof claimBody>;

/** `GET /api/dispatch/next`: the claim for agents that can only GET. */
export const nextQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    agent: z._default(agent(), "anonymous"),
    projectId: z.optional(projectId()),
    types: z.optional(typeList()),
    leaseSeconds: z.optional(queryInteger(leaseSeconds())),
  }),
);

/** `GET /api/dispatch/queue`. */
export const queueQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    projectId: z.optional(projectId()),
    types: z.optional(typeList()),
  }),
);
export type QueueQuery = Output<typeof queueQuery>;

/** `GET /api/dispatch`. */
export const listDispatchesQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    status: z.optional(z.enum(DISPATCH_STATUSES)),
    issueId: z.optional(issueRef()),
    agent: z.optional(agent()),
  }),
);
export type ListDispatchesQuery = Output<typeof listDispatchesQuery>;

/** Longest `data` an activity keeps, as JSON text (bytes of UTF-8). */
export const MAX_ACTIVITY_DATA_BYTES = 16_384;

/** An activity's or a message's text. */
const activityText = () =>
  z.string().check(z.minLength(1, "must be 1..20000 characters"), z.maxLength(20_000, "must be 1..20000 characters"));

/** `POST /api/dispatch/:id/heartbeat`: the body may be left out. */
export const heartbeatBody = /* @__PURE__ */ onFirstUse(() => z.strictObject({ usage: z.optional(usageBody()) }));
export type HeartbeatInput = Output<typeof heartbeatBody>;

/** `POST /api/dispatch/:id/messages`: a person's words to the agent. */
export const messageBody = /* @__PURE__ */ onFirstUse(() => z.strictObject({ body: activityText() }));
export type MessageInput = Output<typeof messageBody>;

/** `POST /api/dispatch/:id/approve`. */
export const approveBody = /* @__PURE__ */ onFirstUse(() => z.strictObject({ comment: z.optional(activityText()) }));
export type ApproveInput = Output<typeof approveBody>;

/** `POST /api/dispatch/:id/reject`: what the agent should change in its plan. */
export const rejectBody = /* @__PURE__ */ onFirstUse(() => z.strictObject({ feedback: activityText() }));
export type RejectInput = Output<typeof rejectBody>;

/** `POST /api/dispatch/:id/activities`. */
export const activityBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    type: z.enum(ACTIVITY_TYPES),
    body: activityText(),
    usage: z.optional(usageBody()),
    data: z.optional(
      z
        .record(z.string(), z.unknown())
        .check(
          z.refine(
            (data) => Buffer.byteLength(JSON.stringify(data), "utf8") <= MAX_ACTIVITY_DATA_BYTES,
            `must be at most ${MAX_ACTIVITY_DATA_BYTES} bytes as JSON`,
          ),
        ),
    ),
  }),
);
export type ActivityInput = Output<typeof activityBody>;

/** Where a stopped dispatch's issue goes (docs/api.md#stopping-a-dispatch). */
export const STOP_THEN = ["todo", "backlog", "canceled"] as const;

/** `POST /api/dispatch/:id/stop`. */
export const stopBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    reason: z
      .string()
      .check(z.minLength(1, "must be 1..500 characters"), z.maxLength(500, "must be 1..500 characters")),
    // biome-ignore lint/suspicious/noThenProperty: the API names the field `then` (docs/api.md#stopping-a-dispatch).
    then: z._default(z.enum(STOP_THEN), "todo"),
  }),
);
export type StopInput = Output<typeof stopBody>;

/** `GET /api/dispatch/:id/activities`: a page, oldest first, of those after `after` (a sequence; 0 by default). */
export const activitiesQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    after: z._default(
      z.pipe(
        // A sequence as digits, without leading zeros.
        z.string().check(z.regex(/^(0|[1-9][0-9]{0,9})$/, "must be an activity sequence (0 or more)")),
        z.pipe(z.transform(Number), z.int().check(z.lte(1_000_000_000, "must be an activity sequence (0 or more)"))),
      ),
      0,
    ),
  }),
);
export type ActivitiesQuery = Output<typeof activitiesQuery>;

const tokenCount = () =>
  z.int().check(z.gte(0, "must be between 0 and 1000000000"), z.lte(1_000_000_000, "must be between 0 and 1000000000"));

/**
 * What the agent's work on the dispatch cost so far, as it reports it with a heartbeat, an activity
 * or its outcome (every field optional, at least one given): tokens in and out, the cost in US
 * dollars, the model that did it — running totals (docs/api.md#budget-per-dispatch).
 */
export const usageBody = /* @__PURE__ */ onFirstUse(() =>
  z
    .strictObject({
      inputTokens: z.optional(tokenCount()),
      outputTokens: z.optional(tokenCount()),
      costUsd: z.optional(
        z.number().check(z.gte(0, "must be between 0 and 10000"), z.lte(10_000, "must be between 0 and 10000")),
      ),
      model: z.optional(
        z.string().check(z.minLength(1, "must be 1..200 characters"), z.maxLength(200, "must be 1..200 characters")),
      ),
    })
    .check(
      z.refine(
        (usage) => Object.keys(usage).length > 0,
        "must give at least one of inputTokens, outputTokens, costUsd, model",
      ),
    ),
);

/** `POST /api/dispatch/:id/complete`. */
export const completeBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    result: z.enum(["done", "failed"]),
    summary: z
      .string()
      .check(z.minLength(1, "must not be empty"), z.maxLength(50_000, "must be at most 50000 characters")),
    commits: z.optional(z.array(commitSchema()).check(z.maxLength(100, "at most 100 entries"))),
    pullRequests: z.optional(z.array(pullRequestSchema()).check(z.maxLength(100, "at most 100 entries"))),
    usage: z.optional(usageBody()),
  }),
);
export type CompleteInput = Output<typeof completeBody>;
export type UsageInput = NonNullable<CompleteInput["usage"]>;

// Responses (docs/api.md#dispatch): the OpenAPI document's schemas; the types the code uses are inferred from them.

/**
 * What an agent reported when it completed a dispatch, and what became of its work since
 * (docs/api.md#outcomes): how many times review sent it back, and the watch of its merged fix.
 */
export const dispatchOutcomeSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    summary: z.string(),
    commits: z.array(commitSchema()),
    pullRequests: z.array(pullRequestSchema()),
    /** How many times a review sent this dispatch's work back (0: never). */
    reviewRounds: z.int().check(z.gte(0)),
    /** The watch of the fix when its pull request merged: pending, verified or regressed; null before a merge. */
    verification: z.nullable(verificationSchema()),
  }),
);
export type DispatchOutcome = Output<typeof dispatchOutcomeSchema>;
/** What an agent reports with its completion: an outcome before anything became of it. */
export type ReportedOutcome = Pick<DispatchOutcome, "summary" | "commits" | "pullRequests">;

/**
 * What the agent reported its work on the dispatch cost, the highest running totals it reported
 * (docs/api.md#budget-per-dispatch); a field it never reported is null.
 */
export const dispatchUsageSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    inputTokens: z.nullable(z.int()),
    outputTokens: z.nullable(z.int()),
    costUsd: z.nullable(z.number()),
    model: z.nullable(z.string()),
  }),
);
export type DispatchUsage = Output<typeof dispatchUsageSchema>;

/** One thing an agent said of its work while it worked (docs/api.md#activities). */
export const activitySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("act"),
    dispatchId: resourceId("dsp"),
    issueId: resourceId("iss"),
    /** 1, 2, … per dispatch, without gaps: the order the activities were taken in. */
    sequence: z.int().check(z.gte(1)),
    type: z.enum(ACTIVITY_KINDS),
    body: z.string(),
    data: z.nullable(z.record(z.string(), z.unknown())),
    authorType: z.enum(["agent", "human"]),
    authorName: z.nullable(z.string()),
    createdAt: timestamp(),
  }),
);
export type Activity = Output<typeof activitySchema>;

/** One hand-off of one issue to one agent. */
export const dispatchSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("dsp"),
    issueId: resourceId("iss"),
    agent: z.string(),
    status: z.enum(DISPATCH_STATUSES),
    /** What a `waiting` dispatch waits for (docs/api.md#questions-and-answers); null unless `waiting`. */
    waitingFor: z.nullable(z.enum(WAITING_FOR)),
    promptId: z.nullable(resourceId("prm")),
    attempt: z.int().check(z.gte(1)),
    leaseSeconds: z.int().check(z.gte(60), z.lte(7200)),
    claimedAt: timestamp(),
    heartbeatAt: nullableTimestamp(),
    leaseExpiresAt: timestamp(),
    finishedAt: nullableTimestamp(),
    outcome: z.nullable(dispatchOutcomeSchema()),
    usage: z.nullable(dispatchUsageSchema()),
    /** Why it was stopped, by a person or its budget (docs/api.md#stopping-a-dispatch); null unless `stopped`. */
    stopReason: z.nullable(z.string()),
    /**
     * Whether its plan was approved (docs/api.md#plan-approval): null when its project asked for no
     * approval when it was claimed; false until a person approves its latest plan.
     */
    planApproved: z.nullable(z.boolean()),
    /** The most its work may cost, its project's `limits.maxCostPerDispatchUsd` when it was claimed; null: no limit. */
    costBudgetUsd: z.nullable(z.number()),
  }),
);
export type Dispatch = Output<typeof dispatchSchema>;

/** A claim's answer: `dispatch.token` authorises this dispatch's follow-up calls (docs/api.md#dispatch). */
export const claimResultSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    dispatch: z.extend(dispatchSchema(), { token: z.string() }),
    issue: issueSchema(),
    prompt: z.nullable(promptSchema()),
  }),
);
export type ClaimResult = Output<typeof claimResultSchema>;

/** A completed or released dispatch and its issue as the outcome left it. */
export const dispatchWithIssueSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ dispatch: dispatchSchema(), issue: z.nullable(issueSchema()) }),
);
export type DispatchWithIssue = Output<typeof dispatchWithIssueSchema>;

/** A person's answer to a plan: the dispatch as it left it, and the message its agent reads. */
export const dispatchDecisionSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ dispatch: dispatchSchema(), activity: activitySchema() }),
);

/**
 * An entry of `GET /api/dispatch/queue`, in claim order. `heldBy`: why claims pass over it now (its
 * project's stop, the value a claim's `Kaizen-Claim-Stopped` names), null when the next claim may take it.
 */
export const queueItemSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    issue: issueSchema(),
    score: z.number(),
    breakdown: scoreBreakdownSchema(),
    heldBy: z.nullable(z.enum([REVIEW_CAPACITY_STOP, DAILY_COST_BUDGET_STOP])),
  }),
);
export type QueueItem = Output<typeof queueItemSchema>;
