/** @module issues/schemas — what an issue is and what clients may send (docs/api.md#issues). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import {
  count,
  issueRef,
  nullableText,
  nullableTimestamp,
  resourceId,
  timestamp,
  timestampGiven,
} from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";
import { CREATABLE_STATUSES, ISSUE_SORTS, ISSUE_STATUSES, ISSUE_TYPES } from "./issue-values.js";

export {
  CREATABLE_STATUSES,
  ISSUE_SORTS,
  ISSUE_STATUSES,
  ISSUE_TYPES,
  type IssueSort,
  type IssueStatus,
  type IssueType,
} from "./issue-values.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** Labels per issue: each label is a listing of its own, written in the issue's transaction. */
export const MAX_LABELS_PER_ISSUE = 20;

const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
const priority = /* @__PURE__ */ onFirstUse(() =>
  z.int().check(z.gte(0, "must be between 0 and 4"), z.lte(4, "must be between 0 and 4")),
);
const shortList = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.maxLength(100, "at most 100 entries"));

const hypothesis = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    statement: text(5_000).check(z.minLength(1, "must not be empty")),
    confidence: z.number().check(z.gte(0, "must be between 0 and 1"), z.lte(1, "must be between 0 and 1")),
    evidence: shortList(text(5_000)),
    validationCriteria: text(5_000),
    prediction: z.optional(z.nullable(text(5_000))),
  }),
);

/** An optional field of a pull request or commit: may be left out, and is then `null` (docs/api.md#identifiers-and-fields). */
const orNull = <T extends z.ZodMiniType>(field: T) => z._default(z.nullable(field), null);

/** A commit as issues and dispatch outcomes record it; what a client leaves out is `null`. */
export const commitSchema = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    sha: z.string().check(z.regex(/^[0-9a-f]{7,64}$/i, "must be a hex commit sha")),
    message: text(10_000),
    url: orNull(z.url()),
    author: orNull(text(200)),
    timestamp: orNull(timestampGiven()),
  }),
);

/** A repository as code hosts name it: `owner/name`. */
export const REPOSITORY_NAME = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

/**
 * A pull request as issues and dispatch outcomes record it; what a client leaves out is `null`.
 * `repository` (`owner/name`) is kept as given or read from a `url` of the form
 * `https://<host>/<owner>/<repo>/pull/<number>` (docs/api.md#review): code-host events find the
 * issue by it and the number.
 */
export const pullRequestSchema = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    number: z.int().check(z.gte(1, "must be a positive integer")),
    title: text(500),
    url: orNull(z.url()),
    repository: orNull(z.string().check(z.regex(REPOSITORY_NAME, "must be owner/name"))),
    state: orNull(text(50)),
    mergedAt: orNull(timestampGiven()),
  }),
);

const projectIdField = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(/^prj_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a project id (prj_…)")),
);
const labelName = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.minLength(1, "must not be empty"), z.maxLength(50, "must be at most 50 characters")),
);
const labelList = /* @__PURE__ */ onFirstUse(() =>
  z.array(labelName()).check(
    z.maxLength(MAX_LABELS_PER_ISSUE, `at most ${MAX_LABELS_PER_ISSUE} labels`),
    z.refine(
      (names) => new Set(names.map((name) => name.toLowerCase())).size === names.length,
      "must not repeat a label",
    ),
  ),
);

/** Fields an issue body may set, on create (with `title` and `type` required) and on PATCH. */
const issueFields = /* @__PURE__ */ onFirstUse(() => ({
  description: z.optional(z.nullable(text(50_000))),
  priority: z.optional(priority()),
  parentId: z.optional(z.nullable(issueRef())),
  projectId: z.optional(z.nullable(projectIdField())),
  labels: z.optional(labelList()),
  hypothesis: z.optional(z.nullable(hypothesis())),
  agentSummary: z.optional(z.nullable(text(50_000))),
  commits: z.optional(shortList(commitSchema())),
  pullRequests: z.optional(shortList(pullRequestSchema())),
}));

/** `POST /api/issues` body. */
export const createIssueBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...issueFields(),
    title: z.string().check(z.minLength(1, "must be 1..500 characters"), z.maxLength(500, "must be 1..500 characters")),
    type: z.enum(ISSUE_TYPES),
    status: z.optional(z.enum(CREATABLE_STATUSES)),
  }),
);
export type CreateIssueBody = Output<typeof createIssueBody>;

/** `PATCH /api/issues/:id` body: any subset of the issue's fields. */
export const updateIssueBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...issueFields(),
    title: z.optional(
      z.string().check(z.minLength(1, "must be 1..500 characters"), z.maxLength(500, "must be 1..500 characters")),
    ),
    type: z.optional(z.enum(ISSUE_TYPES)),
    status: z.optional(z.enum(ISSUE_STATUSES)),
  }),
);
export type UpdateIssueBody = Output<typeof updateIssueBody>;

/** A comma-separated list of enum values (`status=todo,backlog`). */
function commaList<const T extends readonly [string, ...string[]]>(values: T) {
  const message = `must be a comma-separated list of: ${values.join(", ")}`;
  return z.pipe(
    z.string(),
    z.pipe(
      z.transform((text: string) => text.split(",").map((part) => part.trim())),
      z.array(z.enum(values, message)).check(z.minLength(1, message)),
    ),
  );
}

/** `GET /api/issues` query. Unknown parameters are refused so typos surface. */
export const listIssuesQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    status: z.optional(commaList(ISSUE_STATUSES)),
    type: z.optional(commaList(ISSUE_TYPES)),
    priority: z.optional(
      z.pipe(z.string().check(z.regex(/^[0-4]$/, "must be an integer between 0 and 4")), z.transform(Number)),
    ),
    projectId: z.optional(projectIdField()),
    parentId: z.optional(issueRef()),
    label: z.optional(labelName()),
    fingerprint: z.optional(
      z.string().check(z.minLength(1, "must not be empty"), z.maxLength(500, "must be at most 500 characters")),
    ),
    q: z.optional(
      z.string().check(z.minLength(1, "must not be empty"), z.maxLength(200, "must be at most 200 characters")),
    ),
    sort: z._default(z.enum(ISSUE_SORTS), "-createdAt"),
  }),
);
export type ListIssuesQuery = Output<typeof listIssuesQuery>;

export type Hypothesis = Output<typeof hypothesis>;
export type Commit = Output<typeof commitSchema>;
export type PullRequest = Output<typeof pullRequestSchema>;

// Responses (docs/api.md#issues): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** An issue as the API shows it; absent optional values are `null`. */
/** Who moved an issue's status (docs/api.md#issues): an API client, the dispatch flow, a signal, or its project's automation. */
export const STATUS_MOVERS = ["api", "dispatch", "signal", "automation"] as const;
export type StatusMover = (typeof STATUS_MOVERS)[number];

/** An issue's latest status change: from what, to what, by whom, when. */
export const statusChangeSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    from: z.enum(ISSUE_STATUSES),
    to: z.enum(ISSUE_STATUSES),
    by: z.enum(STATUS_MOVERS),
    at: timestamp(),
  }),
);
export type StatusChange = Output<typeof statusChangeSchema>;

/** What review and checks said of an issue's pull requests (docs/api.md#review). */
export const FEEDBACK_KINDS = [
  "changes_requested",
  "approved",
  "commented",
  "check_failed",
  "closed_unmerged",
] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];
/** Feedback entries an issue keeps: the latest, newest last. */
export const MAX_FEEDBACK = 20;

/** One review, review comment or check result on one of an issue's pull requests. */
export const feedbackSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    kind: z.enum(FEEDBACK_KINDS),
    author: nullableText(),
    body: z.string(),
    url: nullableText(),
    at: timestamp(),
    /** The pull request it is about. */
    pullRequest: z.nullable(z.object({ repository: nullableText(), number: z.int() })),
  }),
);
export type Feedback = Output<typeof feedbackSchema>;

/** Where a merged fix stands while its problem is watched (docs/api.md#verification). */
export const VERIFICATION_STATUSES = ["pending", "verified", "regressed"] as const;

/** A merged fix watched for its problem's return: until when, and what came back if anything did. */
export const verificationSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    status: z.enum(VERIFICATION_STATUSES),
    mergedAt: timestamp(),
    until: timestamp(),
    regressedAt: nullableTimestamp(),
    /** The signal that showed the problem back. */
    signalId: z.nullable(z.string()),
    /** The dispatch whose pull request merged. */
    dispatchId: z.nullable(z.string()),
  }),
);
export type Verification = Output<typeof verificationSchema>;

export const issueSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("iss"),
    number: z.int().check(z.gte(1)),
    identifier: z.string().check(z.regex(/^KZN-[1-9][0-9]*$/)),
    title: z.string(),
    description: nullableText(),
    type: z.enum(ISSUE_TYPES),
    status: z.enum(ISSUE_STATUSES),
    priority: z.int().check(z.gte(0), z.lte(4)),
    parentId: z.nullable(resourceId("iss")),
    projectId: z.nullable(resourceId("prj")),
    labels: z.array(z.string()),
    fingerprint: nullableText(),
    signalSource: nullableText(),
    /** Every fingerprint that groups into it: its own, then those of the issues merged into it. */
    fingerprints: z.array(z.string()),
    signalCount: count(),
    lastSignalAt: nullableTimestamp(),
    hypothesis: z.nullable(hypothesis()),
    agentSummary: nullableText(),
    commits: z.array(commitSchema()),
    pullRequests: z.array(pullRequestSchema()),
    blockedBy: z.array(resourceId("iss")),
    /** How many times review sent it back to `todo` (docs/api.md#review). */
    reviewRounds: count(),
    /** The latest review and check results on its pull requests, newest last (at most {@link MAX_FEEDBACK}). */
    feedback: z.array(feedbackSchema()),
    /** Its merged fix, watched for the problem's return; null until a merge finished it. */
    verification: z.nullable(verificationSchema()),
    /** Its latest status change, or null while it has had none. */
    statusChange: z.nullable(statusChangeSchema()),
    completedAt: nullableTimestamp(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Issue = Output<typeof issueSchema>;

/** An issue as other answers show it: a detail's parent and children, an activity chain. */
export const issueSummarySchema = /* @__PURE__ */ onFirstUse(() =>
  z.pick(issueSchema(), {
    id: true,
    number: true,
    identifier: true,
    title: true,
    type: true,
    status: true,
    priority: true,
  }),
);
export type IssueSummary = Output<typeof issueSummarySchema>;

/** The parts of a score in the dispatch queue's order (docs/api.md#score, ./scoring.ts). */
export const scoreBreakdownSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ priority: z.number(), type: z.number(), goal: z.number(), age: z.number(), impact: z.number() }),
);
export type ScoreBreakdown = Output<typeof scoreBreakdownSchema>;
