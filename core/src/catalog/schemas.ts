/** @module catalog/schemas — what projects, goals and labels are and what clients may send (docs/api.md#projects-goals-and-labels). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { count, nullableText, resourceId, timestamp } from "../http/resource-fields.js";
import { ISSUE_STATUSES } from "../issues/schemas.js";
import { type Output, onFirstUse } from "../schema.js";
import { usageDaySumsSchema } from "../stats/schemas.js";
import { GOAL_ID, PROJECT_ID } from "./keys.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

export const PROJECT_STATUSES = ["backlog", "planned", "active", "paused", "completed", "canceled"] as const;
export const PROJECT_HEALTHS = ["on_track", "at_risk", "off_track"] as const;
export const GOAL_STATUSES = ["active", "achieved", "abandoned"] as const;

export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export type ProjectHealth = (typeof PROJECT_HEALTHS)[number];
export type GoalStatus = (typeof GOAL_STATUSES)[number];

const sized = (min: number, max: number) =>
  z
    .string()
    .check(
      z.minLength(min, `must be ${min}..${max} characters`),
      z.maxLength(max, `must be ${min}..${max} characters`),
    );
const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
const projectId = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(PROJECT_ID, "must be a project id (prj_…)")),
);
const goalId = /* @__PURE__ */ onFirstUse(() => z.string().check(z.regex(GOAL_ID, "must be a goal id (gol_…)")));
/** `#rrggbb` in either case; stored lowercase so equal colours compare equal. */
const color = /* @__PURE__ */ onFirstUse(() =>
  z.pipe(
    z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, "must be a colour #rrggbb")),
    z.transform((value) => value.toLowerCase()),
  ),
);

/** Most dollars a daily cost budget may name (DynamoDB's numbers and people's budgets both end somewhere). */
export const MAX_DAILY_COST_BUDGET_USD = 1_000_000;

/** Most issues `limits.maxInReview` may let wait in review (docs/api.md#review-capacity). */
export const MAX_IN_REVIEW = 100;
/**
 * What a project stored before {@link MAX_IN_REVIEW} may hold: it reads as stored, so the answer's
 * schema allows it.
 */
const STORED_MAX_IN_REVIEW = 1000;

/**
 * A project's `limits` as clients send them, on a create or a PATCH: the object replaces the
 * project's limits whole, and a key left out is `null` (no limit); unknown keys are refused.
 */
const limitsBody = /* @__PURE__ */ onFirstUse(() => {
  const perAgent = "must be an integer 1..100, or null";
  const inReview = `must be an integer 1..${MAX_IN_REVIEW}, or null`;
  const budget = `must be a number > 0 and ≤ ${MAX_DAILY_COST_BUDGET_USD} (US dollars), or null`;
  const usd = () => z.nullable(z.number(budget).check(z.gt(0, budget), z.lte(MAX_DAILY_COST_BUDGET_USD, budget)));
  return z.pipe(
    z.strictObject(
      {
        maxActivePerAgent: z.optional(z.nullable(z.int(perAgent).check(z.gte(1, perAgent), z.lte(100, perAgent)))),
        dailyCostBudgetUsd: z.optional(usd()),
        maxInReview: z.optional(z.nullable(z.int(inReview).check(z.gte(1, inReview), z.lte(MAX_IN_REVIEW, inReview)))),
        maxCostPerDispatchUsd: z.optional(usd()),
      },
      "must be an object { maxActivePerAgent?, dailyCostBudgetUsd?, maxInReview?, maxCostPerDispatchUsd? }",
    ),
    z.transform(
      (limits): ProjectLimits => ({
        maxActivePerAgent: limits.maxActivePerAgent ?? null,
        dailyCostBudgetUsd: limits.dailyCostBudgetUsd ?? null,
        maxInReview: limits.maxInReview ?? null,
        maxCostPerDispatchUsd: limits.maxCostPerDispatchUsd ?? null,
      }),
    ),
  );
});

/** Most sources of one kind a project may own (docs/api.md#project-sources). */
export const MAX_SOURCES_PER_KIND = 50;

/** A source as a project lists it: a repository `owner/name`, an error-tracker project slug or id, an analytics project id. */
const sourceName = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(/^[!-~]{1,200}$/, "must be 1..200 printable ASCII characters, no spaces")),
);

/**
 * A project's `sources` as clients send them: the object replaces the project's sources whole, a
 * kind left out is empty; a list may not name one source twice (case-insensitively).
 */
const sourcesBody = /* @__PURE__ */ onFirstUse(() => {
  const list = z.array(sourceName()).check(
    z.maxLength(MAX_SOURCES_PER_KIND, `must list at most ${MAX_SOURCES_PER_KIND} sources`),
    z.refine(
      (names) => new Set(names.map((name) => name.toLowerCase())).size === names.length,
      "must not list a source twice",
    ),
  );
  return z.pipe(
    z.strictObject(
      { codehost: z.optional(list), errortracker: z.optional(list), analytics: z.optional(list) },
      "must be an object { codehost?, errortracker?, analytics? } of string lists",
    ),
    z.transform(
      (sources): ProjectSources => ({
        codehost: sources.codehost ?? [],
        errortracker: sources.errortracker ?? [],
        analytics: sources.analytics ?? [],
      }),
    ),
  );
});

/**
 * A project's `automation` as clients send them: the object replaces it whole, a key left out is
 * `null` (that rule off).
 */
const automationBody = /* @__PURE__ */ onFirstUse(() => {
  const priority = "must be an integer 1..4 (a priority), or null";
  const signals = "must be an integer 2..1000, or null";
  return z.pipe(
    z.strictObject(
      {
        acceptAtPriority: z.optional(z.nullable(z.int(priority).check(z.gte(1, priority), z.lte(4, priority)))),
        acceptAtSignals: z.optional(z.nullable(z.int(signals).check(z.gte(2, signals), z.lte(1000, signals)))),
      },
      "must be an object { acceptAtPriority?, acceptAtSignals? }",
    ),
    z.transform(
      (automation): ProjectAutomation => ({
        acceptAtPriority: automation.acceptAtPriority ?? null,
        acceptAtSignals: automation.acceptAtSignals ?? null,
      }),
    ),
  );
});

/** A project's `autonomy` as clients send it: the object replaces it whole, a key left out is `false`. */
const autonomyBody = /* @__PURE__ */ onFirstUse(() =>
  z.pipe(
    z.strictObject(
      { planApproval: z.optional(z.boolean("must be true or false")) },
      "must be an object { planApproval? }",
    ),
    z.transform((autonomy): ProjectAutonomy => ({ planApproval: autonomy.planApproval ?? false })),
  ),
);

/** Hours a merged fix is watched for its problem's return when its project names none (docs/api.md#verification). */
export const DEFAULT_VERIFY_HOURS = 72;
/** Most hours a project may watch its merged fixes: 30 days. */
export const MAX_VERIFY_HOURS = 720;
/**
 * What a project stored before {@link MAX_VERIFY_HOURS} may hold: it reads, and watches its fixes,
 * as stored, so the answer's schema allows it.
 */
const STORED_MAX_VERIFY_HOURS = 2160;

const projectFields = /* @__PURE__ */ onFirstUse(() => {
  const verifyHoursMessage = `must be an integer 1..${MAX_VERIFY_HOURS} (hours)`;
  return {
    name: sized(1, 200),
    description: z.nullable(text(10_000)),
    status: z.enum(PROJECT_STATUSES),
    health: z.enum(PROJECT_HEALTHS),
    goalId: z.nullable(goalId()),
    limits: limitsBody(),
    sources: sourcesBody(),
    automation: automationBody(),
    autonomy: autonomyBody(),
    verifyHours: z
      .int(verifyHoursMessage)
      .check(z.gte(1, verifyHoursMessage), z.lte(MAX_VERIFY_HOURS, verifyHoursMessage)),
  };
});

/** `POST /api/projects` body. */
export const createProjectBody = /* @__PURE__ */ onFirstUse(() =>
  z.partial(z.strictObject(projectFields()), {
    description: true,
    status: true,
    health: true,
    goalId: true,
    limits: true,
    sources: true,
    automation: true,
    autonomy: true,
    verifyHours: true,
  }),
);
export type CreateProjectBody = Output<typeof createProjectBody>;

/** `PATCH /api/projects/:id` body: any subset of the fields; `null` clears an optional one. */
export const patchProjectBody = /* @__PURE__ */ onFirstUse(() => z.partial(z.strictObject(projectFields())));
export type PatchProjectBody = Output<typeof patchProjectBody>;

/**
 * A goal's measure as clients send it: any number the table stores exactly, which is what JSON
 * numbers hold exactly (integers up to 2^53 - 1 in size).
 */
const goalValue = () => {
  const range = `must be a number between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}, or null`;
  return z.nullable(
    z.number(range).check(z.gte(-Number.MAX_SAFE_INTEGER, range), z.lte(Number.MAX_SAFE_INTEGER, range)),
  );
};

const goalFields = /* @__PURE__ */ onFirstUse(() => ({
  title: sized(1, 200),
  description: z.nullable(text(10_000)),
  metric: z.nullable(text(200)),
  targetValue: goalValue(),
  currentValue: goalValue(),
  unit: z.nullable(text(50)),
  status: z.enum(GOAL_STATUSES),
  projectId: z.nullable(projectId()),
}));

/** `POST /api/goals` body. */
export const createGoalBody = /* @__PURE__ */ onFirstUse(() =>
  z.partial(z.strictObject(goalFields()), {
    description: true,
    metric: true,
    targetValue: true,
    currentValue: true,
    unit: true,
    status: true,
    projectId: true,
  }),
);
export type CreateGoalBody = Output<typeof createGoalBody>;

/** `PATCH /api/goals/:id` body. */
export const patchGoalBody = /* @__PURE__ */ onFirstUse(() => z.partial(z.strictObject(goalFields())));
export type PatchGoalBody = Output<typeof patchGoalBody>;

/** `POST /api/labels` body. */
export const createLabelBody = /* @__PURE__ */ onFirstUse(() => z.strictObject({ name: sized(1, 50), color: color() }));
export type CreateLabelBody = Output<typeof createLabelBody>;

/** `GET /api/projects` query. Unknown parameters are refused so typos surface. */
export const listProjectsQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    status: z.optional(z.enum(PROJECT_STATUSES)),
  }),
);
export type ListProjectsQuery = Output<typeof listProjectsQuery>;

/** `GET /api/goals` query. */
export const listGoalsQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    status: z.optional(z.enum(GOAL_STATUSES)),
    projectId: z.optional(projectId()),
  }),
);
export type ListGoalsQuery = Output<typeof listGoalsQuery>;

/** `GET /api/labels` query. */
export const listLabelsQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));
export type ListLabelsQuery = Output<typeof listLabelsQuery>;

// Responses (docs/api.md#projects-goals-and-labels): the OpenAPI document's schemas; the types the code uses are inferred from them.

/**
 * What claims of a project's issues may take (docs/api.md#projects-goals-and-labels, docs/api.md#dispatch): how many of them one agent may hold
 * at once, the dollars its agents may report in a UTC day before claims stop, and how many of its
 * issues may wait in review before claims stop (docs/api.md#review-capacity); `null`: no limit.
 */
export const projectLimitsSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    maxActivePerAgent: z.nullable(z.int().check(z.gte(1), z.lte(100))),
    dailyCostBudgetUsd: z.nullable(z.number().check(z.gt(0))),
    maxInReview: z.nullable(z.int().check(z.gte(1), z.lte(STORED_MAX_IN_REVIEW))),
    /** The most one dispatch of its issues may cost (docs/api.md#budget-per-dispatch). */
    maxCostPerDispatchUsd: z.nullable(z.number().check(z.gt(0))),
  }),
);
export type ProjectLimits = Output<typeof projectLimitsSchema>;

/** The provider kinds a project owns sources of, in the order the API shows them. */
export const SOURCE_KINDS = ["codehost", "errortracker", "analytics"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * The sources a project owns (docs/api.md#project-sources): repositories (`owner/name`),
 * error-tracker project slugs (or ids) and analytics project ids, as the project spells them.
 */
export const projectSourcesSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    codehost: z.array(z.string()),
    errortracker: z.array(z.string()),
    analytics: z.array(z.string()),
  }),
);
export type ProjectSources = Output<typeof projectSourcesSchema>;

/**
 * When a project's triage issues move to `todo` by themselves (docs/api.md#automation): at a priority at
 * least that urgent, or at that many signals; `null`: that rule is off.
 */
export const projectAutomationSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    acceptAtPriority: z.nullable(z.int().check(z.gte(1), z.lte(4))),
    acceptAtSignals: z.nullable(z.int().check(z.gte(2), z.lte(1000))),
  }),
);
export type ProjectAutomation = Output<typeof projectAutomationSchema>;

/**
 * How far a project's agents act on their own (docs/api.md#plan-approval): with `planApproval`, an
 * agent posts its plan and waits for a person's approval before it may complete.
 */
export const projectAutonomySchema = /* @__PURE__ */ onFirstUse(() => z.object({ planApproval: z.boolean() }));
export type ProjectAutonomy = Output<typeof projectAutonomySchema>;

/** A project as the API shows it; absent optional values are `null`. */
export const projectSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("prj"),
    name: z.string(),
    description: nullableText(),
    status: z.enum(PROJECT_STATUSES),
    health: z.enum(PROJECT_HEALTHS),
    goalId: z.nullable(resourceId("gol")),
    limits: projectLimitsSchema(),
    sources: projectSourcesSchema(),
    automation: projectAutomationSchema(),
    autonomy: projectAutonomySchema(),
    /** Hours a merged fix of its issues is watched before it counts as verified. */
    verifyHours: z.int().check(z.gte(1), z.lte(STORED_MAX_VERIFY_HOURS)),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Project = Output<typeof projectSchema>;

/**
 * `GET /api/projects/:id`: the project, its live issues per status (zeros included), and what its
 * dispatches reported they cost today (UTC), which its `limits.dailyCostBudgetUsd` is held against.
 */
export const projectDetailSchema = /* @__PURE__ */ onFirstUse(() =>
  z.extend(projectSchema(), {
    issueCounts: z.record(z.enum(ISSUE_STATUSES), count()),
    usage: usageDaySumsSchema(),
  }),
);
export type ProjectDetail = Output<typeof projectDetailSchema>;

export const goalSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("gol"),
    title: z.string(),
    description: nullableText(),
    metric: nullableText(),
    targetValue: z.nullable(z.number()),
    currentValue: z.nullable(z.number()),
    unit: nullableText(),
    status: z.enum(GOAL_STATUSES),
    projectId: z.nullable(resourceId("prj")),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Goal = Output<typeof goalSchema>;

export const labelSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("lbl"),
    name: z.string(),
    /** `#rrggbb`, lowercase. */
    color: z.string().check(z.regex(/^#[0-9a-f]{6}$/)),
    createdAt: timestamp(),
  }),
);
export type Label = Output<typeof labelSchema>;
