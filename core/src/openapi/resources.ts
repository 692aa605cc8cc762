/**
 * @module openapi/resources — the document's component schemas: each domain's response schemas under
 * their names, and the one answer that joins three domains' resources (an issue's detail).
 */

import * as z from "zod/mini";
import { apiKeySchema, auditRecordSchema, callerSchema, createdKeySchema } from "../access/schemas.js";
import { goalSchema, labelSchema, projectDetailSchema, projectSchema } from "../catalog/schemas.js";
import { commentSchema } from "../comments/schemas.js";
import {
  activityChainSchema,
  agentPerformanceSchema,
  dashboardStatsSchema,
  promptPerformanceSchema,
  usageReportSchema,
} from "../dashboard/schemas.js";
import {
  activitySchema,
  claimResultSchema,
  dispatchDecisionSchema,
  dispatchSchema,
  dispatchWithIssueSchema,
  queueItemSchema,
} from "../dispatch/schemas.js";
import { errorBodySchema } from "../errors.js";
import { destinationSchema, destinationWithSecretSchema, eventDeliverySchema } from "../events/schemas.js";
import { relationSchema } from "../issues/relation-schemas.js";
import { issueSchema, issueSummarySchema } from "../issues/schemas.js";
import { promptSchema, reviewSchema } from "../prompts/schemas.js";
import { runnerSchema } from "../runners/schemas.js";
import { type Output, onFirstUse } from "../schema.js";
import { healthSchema, providerSetupSchema, serviceInfoSchema } from "../service/schemas.js";
import { ingestResultSchema, signalSchema } from "../signals/schemas.js";
import { partialSchema } from "../templates/partial-schemas.js";
import {
  experimentSchema,
  templateDetailSchema,
  templatePreviewSchema,
  templateSchema,
  templateVersionSchema,
} from "../templates/schemas.js";

/**
 * `GET /api/issues/:id`: the issue with its parent, children, relations and latest signals (without
 * their payloads). Composed here: the issues domain does not import the signals domain, which imports it.
 */
export const issueDetailSchema = /* @__PURE__ */ onFirstUse(() =>
  z.extend(issueSchema(), {
    parent: z.nullable(issueSummarySchema()),
    children: z.array(issueSummarySchema()),
    relations: z.array(relationSchema()),
    signals: z.array(signalSchema()),
  }),
);
export type IssueDetail = Output<typeof issueDetailSchema>;

/** Every named response schema, as it appears under `components.schemas`. */
export const RESOURCE_SCHEMAS = {
  Issue: issueSchema(),
  IssueDetail: issueDetailSchema(),
  Relation: relationSchema(),
  Comment: commentSchema(),
  Signal: signalSchema(),
  IngestResult: ingestResultSchema(),
  Project: projectSchema(),
  ProjectDetail: projectDetailSchema(),
  Goal: goalSchema(),
  Label: labelSchema(),
  Template: templateSchema(),
  TemplateDetail: templateDetailSchema(),
  TemplatePreview: templatePreviewSchema(),
  Partial: partialSchema(),
  Version: templateVersionSchema(),
  Experiment: experimentSchema(),
  Prompt: promptSchema(),
  Review: reviewSchema(),
  Dispatch: dispatchSchema(),
  ClaimResult: claimResultSchema(),
  DispatchWithIssue: dispatchWithIssueSchema(),
  DispatchDecision: dispatchDecisionSchema(),
  ApiKey: apiKeySchema(),
  CreatedKey: createdKeySchema(),
  AuditRecord: auditRecordSchema(),
  Caller: callerSchema(),
  QueueItem: queueItemSchema(),
  DashboardStats: dashboardStatsSchema(),
  ActivityChain: activityChainSchema(),
  PromptPerformance: promptPerformanceSchema(),
  AgentPerformance: agentPerformanceSchema(),
  Activity: activitySchema(),
  UsageReport: usageReportSchema(),
  EventDestination: destinationSchema(),
  EventDestinationWithSecret: destinationWithSecretSchema(),
  EventDelivery: eventDeliverySchema(),
  Runner: runnerSchema(),
  ServiceInfo: serviceInfoSchema(),
  Health: healthSchema(),
  ProviderSetup: providerSetupSchema(),
  Error: errorBodySchema(),
} as const;

export type ResourceName = keyof typeof RESOURCE_SCHEMAS;
