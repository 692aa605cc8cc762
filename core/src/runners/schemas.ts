/**
 * @module runners/schemas — hosted runners (docs/api.md#hosted-runners): what a runner is and what clients
 * may send to make or change one. The GitHub token is write-only: no response schema has it.
 */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { count, nullableText, nullableTimestamp, resourceId, timestamp } from "../http/resource-fields.js";
import { ISSUE_TYPES } from "../issues/issue-values.js";
import { type Output, onFirstUse } from "../schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** How many runners one deployment may have (their hand-offs are swept every minute). */
export const MAX_RUNNERS = 20;
export const MAX_CONCURRENCY = 20;
export const DEFAULT_EVENT_TYPE = "kaizen-dispatch";
export const RUNNER_KINDS = ["github_actions"] as const;

/** Shape of a runner id (`run_` + ULID). */
export const RUNNER_ID = /^run_[0-9A-HJKMNP-TV-Z]{26}$/;
/** `owner/name` as GitHub allows them: an owner of 1..39 letters, digits and inner hyphens; a name of 1..100 of `[A-Za-z0-9._-]`, not `.` or `..`. */
export const REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;

const sized = (min: number, max: number) =>
  z
    .string()
    .check(
      z.minLength(min, `must be ${min}..${max} characters`),
      z.maxLength(max, `must be ${min}..${max} characters`),
    );

const repository = () => z.string().check(z.regex(REPOSITORY, "must be owner/name of a GitHub repository"));

/** GitHub's `event_type`: 1..100 characters (GitHub's own limit). */
const eventType = () => sized(1, 100);

const concurrency = () =>
  z
    .int()
    .check(
      z.gte(1, `must be between 1 and ${MAX_CONCURRENCY}`),
      z.lte(MAX_CONCURRENCY, `must be between 1 and ${MAX_CONCURRENCY}`),
    );

/** A GitHub token as sent: printable, no spaces, at most 500 characters. */
const githubToken = () =>
  z
    .string()
    .check(
      z.minLength(1, "must be 1..500 characters"),
      z.maxLength(500, "must be 1..500 characters"),
      z.regex(/^[\x21-\x7e]+$/, "must be a token without spaces or control characters"),
    );

const filters = () =>
  z.strictObject({
    projectId: z.optional(
      z.nullable(z.string().check(z.regex(/^prj_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a project id (prj_…)"))),
    ),
    types: z.optional(
      z.nullable(
        z.array(z.enum(ISSUE_TYPES)).check(
          z.minLength(1, "must name at least one type"),
          z.maxLength(ISSUE_TYPES.length, "must name each type at most once"),
          z.refine((types) => new Set(types).size === types.length, "must name each type at most once"),
        ),
      ),
    ),
  });

/** `POST /api/runners` body. */
export const createRunnerBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    name: sized(1, 100),
    kind: z.enum(RUNNER_KINDS),
    repository: repository(),
    eventType: z.optional(eventType()),
    concurrency: z.optional(concurrency()),
    filters: z.optional(filters()),
    agent: z.optional(sized(1, 100)),
    active: z.optional(z.boolean()),
    githubToken: githubToken(),
  }),
);
export type CreateRunnerBody = Output<typeof createRunnerBody>;

/** `PATCH /api/runners/:id` body: any of the fields; `active: true` turns a runner Kaizen switched off back on. */
export const patchRunnerBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    name: z.optional(sized(1, 100)),
    repository: z.optional(repository()),
    eventType: z.optional(eventType()),
    concurrency: z.optional(concurrency()),
    filters: z.optional(filters()),
    agent: z.optional(sized(1, 100)),
    active: z.optional(z.boolean()),
    githubToken: z.optional(githubToken()),
  }),
);
export type PatchRunnerBody = Output<typeof patchRunnerBody>;

/** `GET /api/runners` query. */
export const listRunnersQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));
export type ListRunnersQuery = Output<typeof listRunnersQuery>;

// Responses (docs/api.md#hosted-runners): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** A hosted runner as the API shows it: never its GitHub token. */
export const runnerSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("run"),
    name: z.string(),
    kind: z.enum(RUNNER_KINDS),
    repository: z.string(),
    eventType: z.string(),
    concurrency: z.int(),
    filters: z.object({
      projectId: z.nullable(z.string()),
      types: z.nullable(z.array(z.enum(ISSUE_TYPES))),
    }),
    /** The agent name its dispatches are claimed for. */
    agent: z.string(),
    active: z.boolean(),
    /** Whether a GitHub token is stored (the token itself is never shown). */
    githubTokenConfigured: z.boolean(),
    /** The last hand-off GitHub refused or did not answer: its status and GitHub's message. */
    lastError: nullableText(),
    lastErrorAt: nullableTimestamp(),
    /** Hand-offs refused in a row since the last success. */
    failures: count(),
    /** No hand-off is made before this time after a refusal (backoff), or null. */
    retryAfter: nullableTimestamp(),
    /** Why Kaizen switched it off (10 refusals in a row), or null. */
    disabledReason: nullableText(),
    /** Its dispatches that have not ended. */
    activeDispatches: count(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Runner = Output<typeof runnerSchema>;
