/** @module templates/schemas — what templates and their versions are and what clients may send (docs/api.md#templates-and-versions). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { count, nullableText, resourceId, timestamp } from "../http/resource-fields.js";
import { ISSUE_TYPES, type IssueType } from "../issues/schemas.js";
import { type Output, onFirstUse } from "../schema.js";
import { SLUG } from "./keys.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

export const VERSION_STATUSES = ["draft", "active", "retired"] as const;
export const AUTHOR_TYPES = ["human", "agent"] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];
export type AuthorType = (typeof AUTHOR_TYPES)[number];

/** Largest template content accepted (characters); rendered prompts stay well inside an item. */
export const MAX_CONTENT = 100_000;

const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
const sized = (min: number, max: number) =>
  z
    .string()
    .check(
      z.minLength(min, `must be ${min}..${max} characters`),
      z.maxLength(max, `must be ${min}..${max} characters`),
    );
const projectId = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(/^prj_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a project id (prj_…)")),
);
const slug = /* @__PURE__ */ onFirstUse(() => z.string().check(z.regex(SLUG, "must be 2..64 of a-z, 0-9 and -")));
const labelName = /* @__PURE__ */ onFirstUse(() => sized(1, 50));

/** When a template applies: every condition given must hold (docs/api.md#templates-and-versions); unknown keys are a 400. */
export const templateConditions = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    type: z.optional(z.enum(ISSUE_TYPES)),
    signalSource: z.optional(z.string().check(z.regex(/^[a-z0-9_-]{1,40}$/, "must be 1..40 of a-z, 0-9, _ and -"))),
    labels: z.optional(z.array(labelName()).check(z.maxLength(20, "at most 20 labels"))),
    projectId: z.optional(projectId()),
    hasFailedDispatches: z.optional(z.boolean()),
    minHypothesisConfidence: z.optional(
      z.number().check(z.gte(0, "must be between 0 and 1"), z.lte(1, "must be between 0 and 1")),
    ),
  }),
);
export type TemplateConditions = Output<typeof templateConditions>;

const specificity = /* @__PURE__ */ onFirstUse(() =>
  z.int().check(z.gte(0, "must be between 0 and 1000"), z.lte(1000, "must be between 0 and 1000")),
);
const content = /* @__PURE__ */ onFirstUse(() =>
  z
    .string()
    .check(z.minLength(1, "must not be empty"), z.maxLength(MAX_CONTENT, `must be at most ${MAX_CONTENT} characters`)),
);

/** Who wrote a version, and why; shared by template creation (version 1) and new versions. */
const versionFields = /* @__PURE__ */ onFirstUse(() => ({
  changelog: z.optional(z.nullable(text(5_000))),
  authorType: z.optional(z.enum(AUTHOR_TYPES)),
  authorName: z.optional(z.nullable(text(100))),
}));

/** `POST /api/templates`: `content` makes version 1, active at once. */
export const createTemplateBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    slug: slug(),
    name: sized(1, 200),
    description: z.optional(z.nullable(text(10_000))),
    conditions: z.optional(templateConditions()),
    specificity: z.optional(specificity()),
    projectId: z.optional(z.nullable(projectId())),
    content: z.optional(content()),
    ...versionFields(),
  }),
);
export type CreateTemplateBody = Output<typeof createTemplateBody>;

/** `PATCH /api/templates/:id`: any subset; `conditions` replaces the whole object. */
export const patchTemplateBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    slug: z.optional(slug()),
    name: z.optional(sized(1, 200)),
    description: z.optional(z.nullable(text(10_000))),
    conditions: z.optional(templateConditions()),
    specificity: z.optional(specificity()),
    projectId: z.optional(z.nullable(projectId())),
  }),
);
export type PatchTemplateBody = Output<typeof patchTemplateBody>;

/** `POST /api/templates/:id/versions`: a new draft. */
export const createVersionBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ content: content(), ...versionFields() }),
);
export type CreateVersionBody = Output<typeof createVersionBody>;

/** `GET /api/templates`. */
export const listTemplatesQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    projectId: z.optional(projectId()),
    type: z.optional(z.enum(ISSUE_TYPES)),
  }),
);
export type ListTemplatesQuery = Output<typeof listTemplatesQuery>;

/** `GET /api/templates/preview/:issueId`: `versionId` renders that version (a draft too) instead of the one selection picks. */
export const previewQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    versionId: z.optional(z.string().check(z.regex(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a version id (ver_…)"))),
  }),
);

/** Lists that take nothing but a page. */
export const pageQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));
export type PageQuery = Output<typeof pageQuery>;

// Responses (docs/api.md#templates-and-versions): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** A template as the API shows it. */
export const templateSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("tpl"),
    slug: z.string(),
    name: z.string(),
    description: nullableText(),
    conditions: templateConditions(),
    specificity: z.int().check(z.gte(0), z.lte(1000)),
    projectId: z.nullable(resourceId("prj")),
    activeVersionId: z.nullable(resourceId("ver")),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Template = Output<typeof templateSchema>;

/** A version of a template: what its prompts say, and how they fared. */
/**
 * What the agents of a version's finished dispatches reported their work cost: how many reported
 * usage, the tokens and dollars summed, and the mean cost of those that reported one.
 */
export const versionCostSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    reports: count(),
    inputTokens: count(),
    outputTokens: count(),
    costUsd: z.number().check(z.gte(0)),
    meanCostUsd: z.nullable(z.number().check(z.gte(0))),
  }),
);
export type VersionCost = Output<typeof versionCostSchema>;

/**
 * What became of dispatches' work (docs/api.md#outcomes): completed, merged, reworked (sent back by
 * review at least once), regressed and verified, each dispatch counted once per outcome.
 */
export const outcomesSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    completed: count(),
    merged: count(),
    reworked: count(),
    regressed: count(),
    verified: count(),
  }),
);
export type Outcomes = Output<typeof outcomesSchema>;

export const templateVersionSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("ver"),
    templateId: resourceId("tpl"),
    version: z.int().check(z.gte(1)),
    content: z.string(),
    changelog: nullableText(),
    authorType: z.enum(AUTHOR_TYPES),
    authorName: nullableText(),
    status: z.enum(VERSION_STATUSES),
    usageCount: count(),
    reviewCount: count(),
    /** EWMA of the reviews' composites; null until reviewed. */
    reviewScore: z.nullable(z.number().check(z.gte(1), z.lte(5))),
    completionRate: z.nullable(z.number().check(z.gte(0), z.lte(1))),
    /** What became of its dispatches' work (docs/api.md#outcomes). */
    outcomes: outcomesSchema(),
    /** verified ÷ (verified + regressed); null before either. */
    verifiedRate: z.nullable(z.number().check(z.gte(0), z.lte(1))),
    /** People's code-host reviews of its agents' pull requests, by verdict (docs/api.md#prompts-and-reviews). */
    humanReviews: z.object({ approved: count(), changesRequested: count(), commented: count() }),
    cost: versionCostSchema(),
    createdAt: timestamp(),
  }),
);
export type TemplateVersion = Output<typeof templateVersionSchema>;

/** `GET /api/templates/:id`: the template and its active version. */
export const templateDetailSchema = /* @__PURE__ */ onFirstUse(() =>
  z.extend(templateSchema(), { activeVersion: z.nullable(templateVersionSchema()) }),
);
export type TemplateDetail = Output<typeof templateDetailSchema>;

/** The experiment and arm a prompt was rendered in (docs/api.md#experiments). */
export const promptArmSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ id: resourceId("exp"), arm: z.enum(EXPERIMENT_ARMS) }),
);

/** `GET /api/templates/preview/:issueId`: the template selection would choose and its text; nulls when none matches. */
export const templatePreviewSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    issueId: resourceId("iss"),
    template: z.nullable(templateSchema()),
    version: z.nullable(templateVersionSchema()),
    /** The running experiment and the issue's arm in it, when the template runs one. */
    experiment: z.nullable(promptArmSchema()),
    text: nullableText(),
  }),
);
export type TemplatePreview = Output<typeof templatePreviewSchema>;

/** The issue types, for the default templates and selection. */
export type { IssueType };

// Experiments (docs/api.md#experiments).

export const EXPERIMENT_STATUSES = ["running", "promoted", "winner", "loser", "stopped"] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];
export const EXPERIMENT_OUTCOMES = ["promoted", "winner", "loser", "stopped"] as const;
export const EXPERIMENT_ARMS = ["control", "candidate"] as const;

/** Finished dispatches each arm needs by default before the rule may decide. */
export const DEFAULT_MIN_SAMPLES = 20;

/** `POST /api/templates/:id/experiments`. */
export const startExperimentBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    candidateVersionId: z.string().check(z.regex(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/, "must be a version id (ver_…)")),
    trafficPercent: z
      .int()
      .check(z.gte(1, "must be an integer from 1 to 50"), z.lte(50, "must be an integer from 1 to 50")),
    minSamples: z.optional(
      z
        .int()
        .check(z.gte(1, "must be an integer from 1 to 10000"), z.lte(10_000, "must be an integer from 1 to 10000")),
    ),
    autoPromote: z.optional(z.boolean()),
  }),
);
export type StartExperimentBody = Output<typeof startExperimentBody>;

/** A rate or mean with its 95 % interval (bounds null under two samples). */
const measureSchema = /* @__PURE__ */ onFirstUse(() =>
  z.nullable(
    z.object({
      value: z.number(),
      low: z.nullable(z.number()),
      high: z.nullable(z.number()),
      samples: count(),
    }),
  ),
);

/** One arm's figures: its version, what its dispatches and reviews came to, with 95 % intervals. */
export const experimentArmSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    versionId: resourceId("ver"),
    versionNumber: z.int().check(z.gte(1)),
    claims: count(),
    finished: count(),
    completions: count(),
    failures: count(),
    /** Completed work of the arm merged, sent back by review, regressed and verified (docs/api.md#outcomes). */
    merged: count(),
    reworked: count(),
    regressed: count(),
    verified: count(),
    reviews: count(),
    /** Completed / finished dispatches; Wilson interval. */
    completionRate: measureSchema(),
    /** Mean composite of the arm's reviews (1..5); Student's t interval. */
    reviewScore: measureSchema(),
    /** Verified / (verified + regressed) merged fixes; Wilson interval. */
    verifiedRate: measureSchema(),
    /** Mean reported cost per dispatch (USD); Student's t interval. */
    costUsd: measureSchema(),
  }),
);
export type ExperimentArmFigures = Output<typeof experimentArmSchema>;

const armsSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ control: experimentArmSchema(), candidate: experimentArmSchema() }),
);

/** A decision, with the figures it was taken on. */
export const experimentDecisionSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    outcome: z.enum(EXPERIMENT_OUTCOMES),
    reason: z.string(),
    decidedAt: timestamp(),
    arms: armsSchema(),
  }),
);
export type ExperimentDecision = Output<typeof experimentDecisionSchema>;

/** An experiment between a template's active version and a candidate draft. */
export const experimentSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("exp"),
    templateId: resourceId("tpl"),
    candidateVersionId: resourceId("ver"),
    controlVersionId: resourceId("ver"),
    trafficPercent: z.int().check(z.gte(1), z.lte(50)),
    minSamples: z.int().check(z.gte(1)),
    autoPromote: z.boolean(),
    status: z.enum(EXPERIMENT_STATUSES),
    createdAt: timestamp(),
    endedAt: z.nullable(timestamp()),
    /** The figures now (dispatches claimed before the end still count when they finish). */
    arms: armsSchema(),
    decision: z.nullable(experimentDecisionSchema()),
  }),
);
export type Experiment = Output<typeof experimentSchema>;

/**
 * What a template's listing entry keeps of its running experiment: enough for a claim to choose an
 * issue's arm, and for the prompts dashboard to say the template runs one.
 */
export const runningExperimentSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("exp"),
    candidateVersionId: resourceId("ver"),
    candidateVersionNumber: z.int().check(z.gte(1)),
    trafficPercent: z.int().check(z.gte(1), z.lte(50)),
  }),
);
export type RunningExperiment = Output<typeof runningExperimentSchema>;
