/**
 * @module dashboard/api — the `dashboard` family's routes (docs/api.md#service-health-dashboard-and-docs), each
 * declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import { agentsQuery, dashboardPageQuery, usageQuery } from "./schemas.js";

export const dashboardApi = {
  "GET /api/dashboard/stats": {
    auth: "bearer",
    scope: "read",
    reach: "global",
    success: { item: "DashboardStats" },
    doc: TEXT && {
      summary: "What the engine is doing",
      description:
        "Issues by status and type, signals by source (the last 24 h, the last 7 d, and each of the last 24 hours, oldest first), dispatches, queue depth, median todo→done time.",
      success: "The figures",
    },
  },
  "GET /api/dashboard/activity": {
    auth: "bearer",
    scope: "read",
    reach: "global",
    query: dashboardPageQuery,
    success: { list: "ActivityChain" },
    doc: TEXT && {
      summary: "The latest signal → issue → dispatch → outcome chains",
      success: "A page of chains, newest first",
    },
  },
  "GET /api/dashboard/prompts": {
    auth: "bearer",
    scope: "read",
    reach: "global",
    query: dashboardPageQuery,
    success: { list: "PromptPerformance" },
    doc: TEXT && {
      summary: "Per template: active version, usage, review score, completion rate, outcomes",
      description:
        "Each live template, newest first, with its active version's usage, review score, completion rate, " +
        "outcomes (completed, merged, reworked, regressed, verified) and verified rate, and the experiment it runs.",
      success: "A page of templates",
    },
  },
  "GET /api/dashboard/agents": {
    auth: "bearer",
    scope: "read",
    reach: "global",
    query: agentsQuery,
    success: { list: "AgentPerformance" },
    doc: TEXT && {
      summary: "Per agent: claims, how dispatches ended, what became of the work, cost",
      description:
        "Every agent with a claim, an ended dispatch or an outcome in the last `days` UTC days (today included), " +
        "most claims first: claims; dispatches completed, failed, released, stopped and expired; work merged, " +
        "reworked (sent back by review), regressed and verified, with the verified rate; and the cost its " +
        "dispatches reported. Each count falls on the day it happened; claims count the dispatches still at work too.",
      success: "A page of agents, most claims first",
    },
  },
  "GET /api/dashboard/usage": {
    auth: "bearer",
    scope: "read",
    reach: "global",
    query: usageQuery,
    success: { item: "UsageReport" },
    doc: TEXT && {
      summary: "What agents reported their work cost, per day, agent and project",
      description:
        "The usage sums (dispatches that reported usage, input and output tokens, US dollars) of the last `days` UTC days, " +
        "today first, days without reports included: each day in all, per agent and per project (the issue's project " +
        "when it was claimed), the costliest first. A dispatch counts on the UTC day it finished. One query per day.",
      success: "The days, newest first",
    },
  },
} satisfies Declarations;
