/**
 * @module openapi/resources — what the API answers with, as zod schemas, for the OpenAPI document
 * only (requests are described by the schemas that validate them; answers are built by services).
 */
import * as z from "zod/mini";
import { GOAL_STATUSES, PROJECT_HEALTHS, PROJECT_STATUSES } from "../catalog/schemas.js";
import { AUTHOR_TYPES } from "../comments/schemas.js";
import { DISPATCH_STATUSES } from "../dispatch/schemas.js";
import { RELATION_TYPES } from "../issues/relation-schemas.js";
import { commitSchema, ISSUE_STATUSES, ISSUE_TYPES, pullRequestSchema } from "../issues/schemas.js";
import { SIGNAL_ACTIONS } from "../signals/schemas.js";
import { templateConditions, VERSION_STATUSES } from "../templates/schemas.js";

const timestamp = z.iso.datetime();
const nullableText = z.nullable(z.string());
const nullableTimestamp = z.nullable(timestamp);
const id = (prefix: string) => z.string().check(z.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`)));

const hypothesis = z.object({
  statement: z.string(),
  confidence: z.number().check(z.gte(0), z.lte(1)),
  evidence: z.array(z.string()),
  validationCriteria: z.string(),
  prediction: z.optional(nullableText),
});

export const issue = z.object({
  id: id("iss"),
  number: z.int().check(z.gte(1)),
  identifier: z.string().check(z.regex(/^KZN-[1-9][0-9]*$/)),
  title: z.string(),
  description: nullableText,
  type: z.enum(ISSUE_TYPES),
  status: z.enum(ISSUE_STATUSES),
  priority: z.int().check(z.gte(0), z.lte(4)),
  parentId: z.nullable(id("iss")),
  projectId: z.nullable(id("prj")),
  labels: z.array(z.string()),
  fingerprint: nullableText,
  signalSource: nullableText,
  signalCount: z.int(),
  lastSignalAt: nullableTimestamp,
  hypothesis: z.nullable(hypothesis),
  agentSummary: nullableText,
  commits: z.array(commitSchema),
  pullRequests: z.array(pullRequestSchema),
  blockedBy: z.array(id("iss")),
  completedAt: nullableTimestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
});

const issueSummary = z.object({
  id: id("iss"),
  number: z.int(),
  identifier: z.string(),
  title: z.string(),
  type: z.enum(ISSUE_TYPES),
  status: z.enum(ISSUE_STATUSES),
  priority: z.int(),
});

export const relation = z.object({
  id: id("rel"),
  type: z.enum(RELATION_TYPES),
  issueId: id("iss"),
  relatedIssueId: id("iss"),
  createdAt: timestamp,
});

export const signal = z.object({
  id: id("sig"),
  source: z.string(),
  type: z.string(),
  deliveryId: nullableText,
  fingerprint: z.string(),
  severity: z.enum(["low", "medium", "high", "critical"]),
  title: z.string(),
  action: z.enum(SIGNAL_ACTIONS),
  issueId: z.nullable(id("iss")),
  payloadBytes: z.int(),
  payload: z.optional(z.unknown()),
  headers: z.record(z.string(), z.string()),
  receivedAt: timestamp,
});

/** `GET /api/issues/:id`: the issue with its neighbourhood. */
export const issueDetail = z.extend(issue, {
  parent: z.nullable(issueSummary),
  children: z.array(issueSummary),
  relations: z.array(relation),
  signals: z.array(signal),
});

export const comment = z.object({
  id: id("cmt"),
  issueId: id("iss"),
  parentId: z.nullable(id("cmt")),
  body: z.string(),
  authorName: z.string(),
  authorType: z.enum(AUTHOR_TYPES),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const project = z.object({
  id: id("prj"),
  name: z.string(),
  description: nullableText,
  status: z.enum(PROJECT_STATUSES),
  health: z.enum(PROJECT_HEALTHS),
  goalId: z.nullable(id("gol")),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const projectDetail = z.extend(project, {
  issueCounts: z.record(z.enum(ISSUE_STATUSES), z.int()),
});

export const goal = z.object({
  id: id("gol"),
  title: z.string(),
  description: nullableText,
  metric: nullableText,
  targetValue: z.nullable(z.number()),
  currentValue: z.nullable(z.number()),
  unit: nullableText,
  status: z.enum(GOAL_STATUSES),
  projectId: z.nullable(id("prj")),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const label = z.object({
  id: id("lbl"),
  name: z.string(),
  color: z.string().check(z.regex(/^#[0-9a-f]{6}$/)),
  createdAt: timestamp,
});

export const ingestResult = z.object({
  signal,
  issue: z.nullable(issue),
  duplicate: z.boolean(),
});

export const template = z.object({
  id: id("tpl"),
  slug: z.string(),
  name: z.string(),
  description: nullableText,
  conditions: templateConditions,
  specificity: z.int(),
  projectId: z.nullable(id("prj")),
  activeVersionId: z.nullable(id("ver")),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const version = z.object({
  id: id("ver"),
  templateId: id("tpl"),
  version: z.int().check(z.gte(1)),
  content: z.string(),
  changelog: nullableText,
  authorType: z.enum(AUTHOR_TYPES),
  authorName: nullableText,
  status: z.enum(VERSION_STATUSES),
  usageCount: z.int(),
  reviewCount: z.int(),
  reviewScore: z.nullable(z.number()),
  completionRate: z.nullable(z.number()),
  createdAt: timestamp,
});

export const templateDetail = z.extend(template, { activeVersion: z.nullable(version) });

export const templatePreview = z.object({
  issueId: id("iss"),
  template: z.nullable(template),
  version: z.nullable(version),
  text: nullableText,
});

export const prompt = z.object({
  id: id("prm"),
  issueId: id("iss"),
  dispatchId: z.nullable(id("dsp")),
  templateId: id("tpl"),
  versionId: id("ver"),
  versionNumber: z.int(),
  text: z.string(),
  createdAt: timestamp,
  reviewCount: z.int(),
});

export const review = z.object({
  id: id("rev"),
  promptId: id("prm"),
  templateId: id("tpl"),
  versionId: id("ver"),
  versionNumber: z.int(),
  sequence: z.int(),
  clarity: z.int().check(z.gte(1), z.lte(5)),
  completeness: z.int().check(z.gte(1), z.lte(5)),
  relevance: z.int().check(z.gte(1), z.lte(5)),
  composite: z.number(),
  feedback: nullableText,
  authorType: z.enum(AUTHOR_TYPES),
  authorName: nullableText,
  createdAt: timestamp,
});

export const dispatch = z.object({
  id: id("dsp"),
  issueId: id("iss"),
  agent: z.string(),
  status: z.enum(DISPATCH_STATUSES),
  promptId: z.nullable(id("prm")),
  attempt: z.int(),
  leaseSeconds: z.int(),
  claimedAt: timestamp,
  heartbeatAt: nullableTimestamp,
  leaseExpiresAt: timestamp,
  finishedAt: nullableTimestamp,
  outcome: z.nullable(
    z.object({ summary: z.string(), commits: z.array(commitSchema), pullRequests: z.array(pullRequestSchema) }),
  ),
});

/** A claim's answer: `dispatch.token` authorises this dispatch's follow-up calls (API.md 3.6). */
export const claimResult = z.object({
  dispatch: z.extend(dispatch, { token: z.string() }),
  issue,
  prompt: z.nullable(prompt),
});

export const dispatchWithIssue = z.object({ dispatch, issue: z.nullable(issue) });

export const queueItem = z.object({
  issue,
  score: z.number(),
  breakdown: z.object({ priority: z.number(), type: z.number(), goal: z.number(), age: z.number() }),
});

export const serviceInfo = z.object({
  name: z.literal("kaizen"),
  version: z.string(),
  description: z.string(),
  docs: z.string(),
  openapi: z.string(),
});

/** `GET /health`: the one answer without the `data` envelope (API.md 3.7). */
export const health = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  timestamp,
  checks: z.object({ database: z.string() }),
});

const counts = z.record(z.string(), z.int());

/** `GET /api/dashboard/stats`: maintained counts, not scans. */
export const dashboardStats = z.object({
  issues: z.object({ total: z.int(), byStatus: counts, byType: counts }),
  signals: z.object({
    last24h: z.object({ total: z.int(), bySource: counts }),
    last7d: z.object({ total: z.int(), bySource: counts }),
  }),
  dispatches: counts,
  queue: z.object({ depth: z.int() }),
  todoToDone: z.object({ medianSeconds: z.nullable(z.number()), count: z.int() }),
  generatedAt: timestamp,
});

/** `GET /api/dashboard/activity`: a signal, the issue it touched, that issue's latest dispatch and its outcome. */
export const activityChain = z.object({
  signal: z.pick(signal, {
    id: true,
    source: true,
    type: true,
    severity: true,
    title: true,
    action: true,
    receivedAt: true,
  }),
  issue: z.nullable(issueSummary),
  dispatch: z.nullable(
    z.pick(dispatch, { id: true, agent: true, status: true, attempt: true, claimedAt: true, finishedAt: true }),
  ),
  outcome: dispatch.shape.outcome,
});

/** `GET /api/dashboard/prompts`: a template and its active version's usage, score and completion rate. */
export const promptPerformance = z.object({
  template: z.pick(template, { id: true, slug: true, name: true, specificity: true, conditions: true }),
  activeVersion: z.nullable(
    z.pick(version, {
      id: true,
      version: true,
      usageCount: true,
      reviewCount: true,
      reviewScore: true,
      completionRate: true,
      createdAt: true,
    }),
  ),
});

/** The error envelope of API.md 1.2. */
export const errorEnvelope = z.object({
  error: z.string(),
  details: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  requestId: z.optional(z.string()),
});

/** Every named response schema, as it appears under `components.schemas`. */
export const RESOURCE_SCHEMAS = {
  Issue: issue,
  IssueDetail: issueDetail,
  Relation: relation,
  Comment: comment,
  Signal: signal,
  IngestResult: ingestResult,
  Project: project,
  ProjectDetail: projectDetail,
  Goal: goal,
  Label: label,
  Template: template,
  TemplateDetail: templateDetail,
  TemplatePreview: templatePreview,
  Version: version,
  Prompt: prompt,
  Review: review,
  Dispatch: dispatch,
  ClaimResult: claimResult,
  DispatchWithIssue: dispatchWithIssue,
  QueueItem: queueItem,
  DashboardStats: dashboardStats,
  ActivityChain: activityChain,
  PromptPerformance: promptPerformance,
  ServiceInfo: serviceInfo,
  Health: health,
  Error: errorEnvelope,
} as const;

export type ResourceName = keyof typeof RESOURCE_SCHEMAS;
