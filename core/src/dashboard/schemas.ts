/** @module dashboard/schemas — what the dashboard answers with and the page its lists take (docs/api.md#service-health-dashboard-and-docs). */
import * as z from "zod/mini";
import { dispatchSchema } from "../dispatch/schemas.js";
import { paginationQuery } from "../http/pagination.js";
import { count, timestamp } from "../http/resource-fields.js";
import { issueSummarySchema } from "../issues/schemas.js";
import { type Output, onFirstUse } from "../schema.js";
import { signalSchema } from "../signals/schemas.js";
import { usageDaySchema } from "../stats/schemas.js";
import { runningExperimentSchema, templateSchema, templateVersionSchema } from "../templates/schemas.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** `GET /api/dashboard/activity` and `GET /api/dashboard/prompts`: nothing but a page. */
export const dashboardPageQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));
export type DashboardPageQuery = Output<typeof dashboardPageQuery>;

/** Most days `GET /api/dashboard/usage` reads (one query each). */
export const MAX_USAGE_DAYS = 31;

/** `days=1..max` (default 7): how many UTC days to read, today included. */
function daysParam(max: number) {
  const message = `must be an integer between 1 and ${max}`;
  return z._default(
    z.pipe(
      z
        .string()
        .check(z.regex(/^[0-9]+$/, message), z.describe(`Days to read, today (UTC) included: 1..${max}, default 7`)),
      z.pipe(z.transform(Number), z.number().check(z.gte(1, message), z.lte(max, message))),
    ),
    7,
  );
}

/** `GET /api/dashboard/usage`: how many days, today (UTC) included. */
export const usageQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ days: daysParam(MAX_USAGE_DAYS) }));
export type UsageQuery = Output<typeof usageQuery>;

/** Most days `GET /api/dashboard/agents` reads (two queries each). */
export const MAX_AGENT_DAYS = 30;

/** `GET /api/dashboard/agents`: how many days, today (UTC) included, and a page. */
export const agentsQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ days: daysParam(MAX_AGENT_DAYS), ...paginationQuery() }),
);
export type AgentsQuery = Output<typeof agentsQuery>;

// Responses (docs/api.md#service-health-dashboard-and-docs): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** Counts by name (status, type, source). */
const counts = () => z.record(z.string(), count());

/** One hour of signals: when it starts, how many arrived, and how many from each source that sent any. */
const signalHourSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ hour: timestamp(), total: count(), bySource: counts() }),
);
export type SignalHour = Output<typeof signalHourSchema>;

/** `GET /api/dashboard/stats`: maintained counts, not scans. */
export const dashboardStatsSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    issues: z.object({ total: count(), byStatus: counts(), byType: counts() }),
    signals: z.object({
      last24h: z.object({ total: count(), bySource: counts() }),
      last7d: z.object({ total: count(), bySource: counts() }),
      /** The 24 hours `last24h` covers, oldest first (the last is the current hour), with no signal too. */
      perHour: z.array(signalHourSchema()),
    }),
    dispatches: counts(),
    queue: z.object({ depth: count() }),
    todoToDone: z.object({ medianSeconds: z.nullable(z.number()), count: count() }),
    generatedAt: timestamp(),
  }),
);
export type DashboardStats = Output<typeof dashboardStatsSchema>;

/** One chain of the activity feed: a signal, the issue it touched, that issue's latest dispatch and its outcome. */
export const activityChainSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    signal: z.pick(signalSchema(), {
      id: true,
      source: true,
      type: true,
      severity: true,
      title: true,
      action: true,
      receivedAt: true,
    }),
    issue: z.nullable(issueSummarySchema()),
    dispatch: z.nullable(
      z.pick(dispatchSchema(), {
        id: true,
        agent: true,
        status: true,
        attempt: true,
        claimedAt: true,
        finishedAt: true,
      }),
    ),
    outcome: dispatchSchema().shape.outcome,
  }),
);
export type ActivityChain = Output<typeof activityChainSchema>;

/**
 * A template as the prompts dashboard shows it: its active version's usage, score, completion
 * rate and outcomes (docs/api.md#outcomes), and the experiment it runs.
 */
export const promptPerformanceSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    template: z.pick(templateSchema(), { id: true, slug: true, name: true, specificity: true, conditions: true }),
    activeVersion: z.nullable(
      z.pick(templateVersionSchema(), {
        id: true,
        version: true,
        usageCount: true,
        reviewCount: true,
        reviewScore: true,
        completionRate: true,
        outcomes: true,
        verifiedRate: true,
        cost: true,
        createdAt: true,
      }),
    ),
    /** The experiment the template runs (docs/api.md#experiments), null when none: read from the same listing entry. */
    experiment: z.nullable(runningExperimentSchema()),
  }),
);
export type PromptPerformance = Output<typeof promptPerformanceSchema>;

/**
 * `GET /api/dashboard/usage`: what agents reported their work cost, per UTC day of the dispatch's
 * end, newest day first (days without reports too): in all, per agent and per project.
 */
export const usageReportSchema = /* @__PURE__ */ onFirstUse(() => z.object({ days: z.array(usageDaySchema()) }));
export type UsageReport = Output<typeof usageReportSchema>;

/**
 * One agent's row of `GET /api/dashboard/agents` (docs/api.md#agents-dashboard): what its dispatches
 * came to over the days read, each counted on the UTC day it happened.
 */
export const agentPerformanceSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    agent: z.string(),
    claims: count(),
    completed: count(),
    failed: count(),
    released: count(),
    stopped: count(),
    expired: count(),
    merged: count(),
    reworked: count(),
    regressed: count(),
    verified: count(),
    /** verified ÷ (verified + regressed); null before either. */
    verifiedRate: z.nullable(z.number().check(z.gte(0), z.lte(1))),
    /** What its dispatches reported they cost (US dollars), and how many reported usage. */
    costUsd: z.number(),
    usageReports: count(),
  }),
);
export type AgentPerformance = Output<typeof agentPerformanceSchema>;
