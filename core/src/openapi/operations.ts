/**
 * @module openapi/operations — every route of the route table, keyed by its route key, with the
 * schemas that validate its query and body and the resource it answers with. The OpenAPI document
 * is built from this table alone; a route without an entry does not type-check.
 */
import type * as z from "zod/mini";
import {
  createGoalBody,
  createLabelBody,
  createProjectBody,
  listGoalsQuery,
  listLabelsQuery,
  listProjectsQuery,
  patchGoalBody,
  patchProjectBody,
} from "../catalog/schemas.js";
import { createCommentBody, listCommentsQuery } from "../comments/schemas.js";
import { dashboardPageQuery, usageQuery } from "../dashboard/schemas.js";
import { claimBody, completeBody, listDispatchesQuery, nextQuery, queueQuery } from "../dispatch/schemas.js";
import {
  createDestinationBody,
  EVENT_TYPES,
  listDestinationsQuery,
  listEventDeliveriesQuery,
  patchDestinationBody,
} from "../events/schemas.js";
import { createRelationBody } from "../issues/relation-schemas.js";
import { createIssueBody, listIssuesQuery, updateIssueBody } from "../issues/schemas.js";
import { createReviewBody, listPromptsQuery } from "../prompts/schemas.js";
import { CLAIM_STOPPED_HEADER, DAILY_COST_BUDGET_STOP, type Family, type RouteKey } from "../routes.js";
import { providersQuery } from "../service/schemas.js";
import { issueSignalsQuery, listSignalsQuery, manualSignalBody } from "../signals/schemas.js";
import {
  createTemplateBody,
  createVersionBody,
  listTemplatesQuery,
  pageQuery,
  patchTemplateBody,
  previewQuery,
  startExperimentBody,
} from "../templates/schemas.js";
import type { ResourceName } from "./resources.js";

/** What a route answers when it succeeds. */
export type Success =
  /** `{"data": <resource>}` */
  | { status: 200 | 201; item: ResourceName; description: string }
  /** `{"data": [<resource>…], "total": N}` */
  | { status: 200; list: ResourceName; description: string }
  /** No body; perhaps headers that say why. */
  | { status: 204; description: string; headers?: Record<string, { description: string; values: string[] }> }
  /** A body that is not an envelope: `GET /health`, the document itself, the docs page and its assets. */
  | { status: 200; raw: "health" | "openapi" | "html" | "asset"; description: string };

export interface Operation {
  summary: string;
  description?: string;
  /** What each `:param` of the path names. */
  params?: Record<string, string>;
  /** The schema that validates the query string (`parseWith(…, "query")`). */
  query?: z.ZodMiniType;
  /** The schema that validates the JSON body (`parseWith(…, "body")`). */
  body?: z.ZodMiniType;
  success: Success;
  /** A second success: the claim's 204 when nothing is eligible, a receiver's 200 for a duplicate. */
  alsoSuccess?: Success;
  /** Honours `If-Match` (412 on mismatch). */
  ifMatch?: true;
  /** Statuses besides those every route of its kind can answer (see openapi/document). */
  errors?: readonly (404 | 409 | 429)[];
}

/** Every route key of every family. */
export type AnyRouteKey = { [F in Family]: RouteKey<F> }[Family];

const DESTINATION_PARAM = "Event destination id (`dst_…`)";
const ISSUE_REF = "Issue id (`iss_…`) or `KZN-<number>`";
const PROJECT_LIMITS =
  "`limits` (both `null`, no limit, by default): `maxActivePerAgent` (an integer 1..100: active dispatches one agent may " +
  "hold of the project's issues) and `dailyCostBudgetUsd` (a number > 0: US dollars its agents may report in a UTC day " +
  "before claims of its issues stop). Sent, the object replaces the project's limits whole: a key left out is `null`; " +
  "unknown keys are a 400.";
const noContent = (description: string): Success => ({ status: 204, description });
const item = (item: ResourceName, description: string, status: 200 | 201 = 200): Success => ({
  status,
  item,
  description,
});
const list = (list: ResourceName, description: string): Success => ({ status: 200, list, description });

/** A claim's 204: nothing eligible, or (with the header) nothing but issues of projects past their daily cost budget. */
const nothingClaimed: Success = {
  status: 204,
  description:
    "Nothing is eligible. With `Kaizen-Claim-Stopped: daily-cost-budget`: the only issues left are in projects whose " +
    "agents reported `limits.dailyCostBudgetUsd` or more today (UTC); claims of them resume the next UTC day or when the budget is raised.",
  headers: {
    [CLAIM_STOPPED_HEADER]: {
      description: "Why nothing was claimed although issues are queued: their projects' daily cost budget",
      values: [DAILY_COST_BUDGET_STOP],
    },
  },
};

const CLAIM_LIMITS =
  " Projects' `limits` hold their issues back: an agent holding `limits.maxActivePerAgent` active dispatches of a " +
  "project gets 429 (`Retry-After: 30`, a message naming the limit) when nothing else is eligible; a project whose " +
  "agents reported `limits.dailyCostBudgetUsd` today (UTC) gets the 204 with `Kaizen-Claim-Stopped: daily-cost-budget`. " +
  "A claim filtered by such a project answers so at once; an unfiltered one takes the best issue of other projects " +
  "first. The 429 comes before the budget's 204 when both apply.";

/** A page of the web console (docs/api.md#console): the same HTML shell, which shows the page its URL names. */
const consolePage = (summary: string, id?: string): Operation => ({
  summary,
  description:
    "The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.",
  ...(id ? { params: { id } } : {}),
  success: { status: 200, raw: "html", description: "The console" },
});

export const OPERATIONS: Record<AnyRouteKey, Operation> = {
  "GET /": {
    summary: "Service information",
    description: "Name, version and where the docs and the OpenAPI document are.",
    success: item("ServiceInfo", "The service"),
  },
  "GET /health": {
    summary: "Health check",
    description: "503 with `status: degraded` and the failing check when the table cannot be reached.",
    success: { status: 200, raw: "health", description: "Healthy" },
  },
  "GET /api/openapi.json": {
    summary: "This OpenAPI document",
    success: { status: 200, raw: "openapi", description: "The OpenAPI 3.1 document" },
  },
  "GET /docs": {
    summary: "Interactive API reference",
    description: "An HTML page rendering this document; its scripts and styles are served by `/docs/assets/{file}`.",
    success: { status: 200, raw: "html", description: "The reference page" },
  },
  "GET /docs/assets/:file": {
    summary: "A script or style sheet of the reference page",
    params: { file: "File name, e.g. `swagger-ui-bundle.js`" },
    success: { status: 200, raw: "asset", description: "The file" },
    errors: [404],
  },
  "GET /app": consolePage("The console's overview"),
  "GET /app/issues": consolePage("The console's issue list"),
  "GET /app/issues/:id": consolePage("The console's page of one issue", ISSUE_REF),
  "GET /app/queue": consolePage("The console's queue"),
  "GET /app/activity": consolePage("The console's activity chains"),
  "GET /app/prompts": consolePage("The console's templates"),
  "GET /app/prompts/:id": consolePage("The console's page of one template", "Template id (`tpl_…`)"),
  "GET /app/providers": consolePage("The console's providers"),
  "GET /app/assets/:file": {
    summary: "A script or style sheet of the web console",
    params: { file: "File name, named by its content's hash, e.g. `app-HDPOXB4Q.js`" },
    success: { status: 200, raw: "asset", description: "The file" },
    errors: [404],
  },
  "GET /api/providers": {
    summary: "The webhook providers and how to connect them",
    description:
      "One entry per receiver: its URL, the variable of the secret that signs its deliveries and whether that secret is configured (never its value), the signature headers it reads, and the setup guide.",
    query: providersQuery(),
    success: list("ProviderSetup", "A page of the providers (all three fit on the first)"),
  },

  "GET /api/issues": {
    summary: "List issues",
    query: listIssuesQuery(),
    success: list("Issue", "A page of issues"),
  },
  "POST /api/issues": {
    summary: "Create an issue",
    body: createIssueBody(),
    success: item("Issue", "The new issue", 201),
    errors: [404],
  },
  "GET /api/issues/:id": {
    summary: "Get an issue with its parent, children, relations and latest signals",
    params: { id: ISSUE_REF },
    success: item("IssueDetail", "The issue"),
  },
  "PATCH /api/issues/:id": {
    summary: "Update an issue",
    description:
      "Partial update; status changes follow the transitions of docs/api.md#states-and-transitions (409 otherwise).",
    params: { id: ISSUE_REF },
    body: updateIssueBody(),
    success: item("Issue", "The updated issue"),
    ifMatch: true,
    errors: [409],
  },
  "DELETE /api/issues/:id": {
    summary: "Delete an issue (soft delete)",
    params: { id: ISSUE_REF },
    success: noContent("Deleted"),
    ifMatch: true,
  },
  "GET /api/issues/:id/comments": {
    summary: "List an issue's comments",
    params: { id: ISSUE_REF },
    query: listCommentsQuery(),
    success: list("Comment", "A page of comments"),
  },
  "POST /api/issues/:id/comments": {
    summary: "Comment on an issue",
    description: "Also allowed with the dispatch token of a dispatch of this issue.",
    params: { id: ISSUE_REF },
    body: createCommentBody(),
    success: item("Comment", "The new comment", 201),
  },
  "POST /api/issues/:id/relations": {
    summary: "Relate two issues",
    description: "A relation and its inverse are one fact; a cycle of `blocks` is a 409.",
    params: { id: ISSUE_REF },
    body: createRelationBody(),
    success: item("Relation", "The new relation", 201),
  },
  "DELETE /api/relations/:id": {
    summary: "Remove a relation",
    params: { id: "Relation id (`rel_…`)" },
    success: noContent("Removed"),
  },

  "GET /api/projects": { summary: "List projects", query: listProjectsQuery(), success: list("Project", "A page") },
  "POST /api/projects": {
    summary: "Create a project",
    description: PROJECT_LIMITS,
    body: createProjectBody(),
    success: item("Project", "The new project", 201),
    errors: [404],
  },
  "GET /api/projects/:id": {
    summary: "Get a project with its issue counts by status and today's usage",
    description:
      "`usage` sums what its dispatches (of issues in it when claimed) reported they cost today (UTC): the figure " +
      "`limits.dailyCostBudgetUsd` is held against.",
    params: { id: "Project id (`prj_…`)" },
    success: item("ProjectDetail", "The project"),
  },
  "PATCH /api/projects/:id": {
    summary: "Update a project",
    description: PROJECT_LIMITS,
    params: { id: "Project id (`prj_…`)" },
    body: patchProjectBody(),
    success: item("Project", "The updated project"),
    ifMatch: true,
  },
  "DELETE /api/projects/:id": {
    summary: "Delete a project",
    params: { id: "Project id (`prj_…`)" },
    success: noContent("Deleted"),
    ifMatch: true,
    errors: [409],
  },
  "GET /api/goals": { summary: "List goals", query: listGoalsQuery(), success: list("Goal", "A page") },
  "POST /api/goals": {
    summary: "Create a goal",
    body: createGoalBody(),
    success: item("Goal", "The new goal", 201),
    errors: [404],
  },
  "GET /api/goals/:id": {
    summary: "Get a goal",
    params: { id: "Goal id (`gol_…`)" },
    success: item("Goal", "The goal"),
  },
  "PATCH /api/goals/:id": {
    summary: "Update a goal",
    params: { id: "Goal id (`gol_…`)" },
    body: patchGoalBody(),
    success: item("Goal", "The updated goal"),
    ifMatch: true,
  },
  "DELETE /api/goals/:id": {
    summary: "Delete a goal",
    params: { id: "Goal id (`gol_…`)" },
    success: noContent("Deleted"),
    ifMatch: true,
    errors: [409],
  },
  "GET /api/labels": { summary: "List labels", query: listLabelsQuery(), success: list("Label", "A page") },
  "POST /api/labels": {
    summary: "Create a label",
    description: "Names are unique regardless of case (409).",
    body: createLabelBody(),
    success: item("Label", "The new label", 201),
  },
  "DELETE /api/labels/:id": {
    summary: "Delete a label",
    params: { id: "Label id (`lbl_…`)" },
    success: noContent("Deleted"),
    ifMatch: true,
    errors: [409],
  },

  "POST /api/signals/codehost": {
    summary: "Code-host webhook receiver",
    description:
      "Verified by `X-Codehost-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with " +
      "`CODEHOST_WEBHOOK_SECRET`. Event from `X-Codehost-Event` (+ body `action`), delivery id from " +
      "`X-Codehost-Delivery`. GitHub's own headers are read the same way: `X-Hub-Signature-256`, " +
      "`X-GitHub-Event`, `X-GitHub-Delivery`, `X-GitHub-Hook-ID` (the neutral name wins when both are sent; " +
      "two signatures that differ are a 401). Takes `application/json` or `application/x-www-form-urlencoded` " +
      "(`payload=<json>`).",
    success: item("IngestResult", "A new delivery was stored", 201),
    alsoSuccess: item("IngestResult", "A delivery already stored (`duplicate: true`); nothing new was written"),
  },
  "POST /api/signals/errortracker": {
    summary: "Error-tracker webhook receiver",
    description:
      "Verified by `X-Errortracker-Hook-Signature`: the lowercase hex HMAC-SHA256, with " +
      "`ERRORTRACKER_CLIENT_SECRET`, of the body parsed and serialised again (`JSON.stringify`). Event from " +
      "`X-Errortracker-Hook-Resource` (+ body `action`), delivery id from `Request-ID`. Sentry's own headers " +
      "are read the same way: `Sentry-Hook-Signature`, `Sentry-Hook-Resource`, `Sentry-Hook-Timestamp` (the " +
      "neutral name wins when both are sent; two signatures that differ are a 401).",
    success: item("IngestResult", "A new delivery was stored", 201),
    alsoSuccess: item("IngestResult", "A delivery already stored (`duplicate: true`); nothing new was written"),
  },
  "POST /api/signals/analytics": {
    summary: "Analytics webhook receiver",
    description:
      "Verified by `X-Analytics-Secret`, equal to `ANALYTICS_WEBHOOK_SECRET` (PostHog's webhook destination " +
      "sends the headers it is configured with; it signs nothing of its own). Delivery id from " +
      "`X-Analytics-Delivery`, else the event's `uuid`, else the SHA-256 of the body.",
    success: item("IngestResult", "A new delivery was stored", 201),
    alsoSuccess: item("IngestResult", "A delivery already stored (`duplicate: true`); nothing new was written"),
  },

  "GET /api/signals": { summary: "List signals", query: listSignalsQuery(), success: list("Signal", "A page") },
  "POST /api/signals": {
    summary: "Record a manual signal",
    body: manualSignalBody(),
    success: item("IngestResult", "The signal and the issue it opened or joined", 201),
  },
  "GET /api/signals/:id": {
    summary: "Get a signal with its whole payload",
    params: { id: "Signal id (`sig_…`)" },
    success: item("Signal", "The signal"),
  },
  "GET /api/issues/:id/signals": {
    summary: "List an issue's signals",
    params: { id: ISSUE_REF },
    query: issueSignalsQuery(),
    success: list("Signal", "A page"),
  },

  "GET /api/templates": { summary: "List templates", query: listTemplatesQuery(), success: list("Template", "A page") },
  "POST /api/templates": {
    summary: "Create a template",
    description: "`content` makes version 1, active at once. A template that does not compile is a 400.",
    body: createTemplateBody(),
    success: item("TemplateDetail", "The new template", 201),
  },
  "GET /api/templates/preview/:issueId": {
    summary: "Preview the prompt an issue would get",
    description: "Which template would be chosen and the rendered text, without claiming anything.",
    params: { issueId: ISSUE_REF },
    query: previewQuery(),
    success: item("TemplatePreview", "The chosen template and rendered text (nulls when none matches)"),
  },
  "GET /api/templates/:id": {
    summary: "Get a template with its active version",
    params: { id: "Template id (`tpl_…`) or slug" },
    success: item("TemplateDetail", "The template"),
  },
  "PATCH /api/templates/:id": {
    summary: "Update a template",
    params: { id: "Template id (`tpl_…`) or slug" },
    body: patchTemplateBody(),
    success: item("TemplateDetail", "The updated template"),
    ifMatch: true,
  },
  "DELETE /api/templates/:id": {
    summary: "Delete a template",
    params: { id: "Template id (`tpl_…`) or slug" },
    success: noContent("Deleted"),
    ifMatch: true,
  },
  "GET /api/templates/:id/versions": {
    summary: "List a template's versions",
    params: { id: "Template id (`tpl_…`) or slug" },
    query: pageQuery(),
    success: list("Version", "A page"),
  },
  "POST /api/templates/:id/versions": {
    summary: "Add a draft version",
    params: { id: "Template id (`tpl_…`) or slug" },
    body: createVersionBody(),
    success: item("Version", "The new draft", 201),
  },
  "POST /api/templates/:id/versions/:versionId/promote": {
    summary: "Make a version active",
    description: "The previously active version is retired in the same transaction.",
    params: { id: "Template id (`tpl_…`) or slug", versionId: "Version id (`ver_…`)" },
    success: item("TemplateDetail", "The template with its new active version"),
  },
  "GET /api/templates/:id/reviews": {
    summary: "List the reviews of a template's prompts",
    params: { id: "Template id (`tpl_…`) or slug" },
    query: pageQuery(),
    success: list("Review", "A page"),
  },
  "GET /api/templates/:id/experiments": {
    summary: "List a template's experiments",
    description: "Newest first, each with its arms' figures now and its decision, if taken.",
    params: { id: "Template id (`tpl_…`) or slug" },
    query: pageQuery(),
    success: list("Experiment", "A page"),
  },
  "POST /api/templates/:id/experiments": {
    summary: "Start an experiment",
    description:
      "A draft version (`candidateVersionId`) takes `trafficPercent` % of the template's claims, chosen per issue, " +
      "against the active version. When both arms have `minSamples` finished dispatches and the candidate is better " +
      "on completion rate or review score (95 % intervals apart) and worse on neither, it is promoted (`autoPromote`) " +
      "or marked `winner`; worse in the same sense, it is marked `loser`. 409 while another experiment runs, " +
      "without an active version, or for a candidate that is not a draft.",
    params: { id: "Template id (`tpl_…`) or slug" },
    body: startExperimentBody(),
    success: item("Experiment", "The experiment, running", 201),
    errors: [404, 409],
  },
  "GET /api/templates/:id/experiments/:experimentId": {
    summary: "Get an experiment",
    params: { id: "Template id (`tpl_…`) or slug", experimentId: "Experiment id (`exp_…`)" },
    success: item("Experiment", "The experiment with its arms' figures"),
  },
  "DELETE /api/templates/:id/experiments/:experimentId": {
    summary: "Stop an experiment",
    description:
      "Ends a running experiment as `stopped` (its record and figures stay); the template's claims all get its " +
      "active version again. 409 once it has ended.",
    params: { id: "Template id (`tpl_…`) or slug", experimentId: "Experiment id (`exp_…`)" },
    success: item("Experiment", "The experiment, stopped"),
    errors: [404, 409],
  },

  "GET /api/prompts": { summary: "List prompts", query: listPromptsQuery(), success: list("Prompt", "A page") },
  "GET /api/prompts/:id": {
    summary: "Get a prompt",
    params: { id: "Prompt id (`prm_…`)" },
    success: item("Prompt", "The prompt"),
  },
  "GET /api/prompts/:id/reviews": {
    summary: "List a prompt's reviews",
    params: { id: "Prompt id (`prm_…`)" },
    query: pageQuery(),
    success: list("Review", "A page"),
  },
  "POST /api/prompts/:id/reviews": {
    summary: "Review a prompt",
    description: "Also allowed with the dispatch token of the dispatch this prompt was rendered for.",
    params: { id: "Prompt id (`prm_…`)" },
    body: createReviewBody(),
    success: item("Review", "The new review", 201),
  },

  "POST /api/dispatch/claim": {
    summary: "Claim the highest-scoring eligible issue",
    description:
      "Each issue is claimed by exactly one agent at a time. `dispatch.token` authorises heartbeat, " +
      "complete, release, comments on the issue and reviews of the prompt. Takes no `Idempotency-Key`." +
      CLAIM_LIMITS,
    body: claimBody(),
    success: item("ClaimResult", "The dispatch, its issue and the rendered prompt", 201),
    alsoSuccess: nothingClaimed,
    errors: [429],
  },
  "GET /api/dispatch/next": {
    summary: "Claim, for agents that can only GET",
    description: `The claim of \`POST /api/dispatch/claim\`, its answers included.${CLAIM_LIMITS}`,
    query: nextQuery(),
    success: item("ClaimResult", "The dispatch, its issue and the rendered prompt"),
    alsoSuccess: nothingClaimed,
    errors: [429],
  },
  "GET /api/dispatch/queue": {
    summary: "Preview the claim order",
    query: queueQuery(),
    success: list("QueueItem", "A page of the queue, in claim order"),
  },
  "GET /api/dispatch": {
    summary: "List dispatches",
    query: listDispatchesQuery(),
    success: list("Dispatch", "A page"),
  },
  "GET /api/dispatch/:id": {
    summary: "Get a dispatch",
    params: { id: "Dispatch id (`dsp_…`)" },
    success: item("Dispatch", "The dispatch"),
  },
  "POST /api/dispatch/:id/heartbeat": {
    summary: "Extend a dispatch's lease",
    params: { id: "Dispatch id (`dsp_…`)" },
    success: item("Dispatch", "The dispatch with its new lease"),
    errors: [409],
  },
  "POST /api/dispatch/:id/complete": {
    summary: "Report a dispatch's outcome",
    params: { id: "Dispatch id (`dsp_…`)" },
    body: completeBody(),
    success: item("DispatchWithIssue", "The finished dispatch and its issue"),
    errors: [409],
  },
  "POST /api/dispatch/:id/release": {
    summary: "Give an issue back to the queue",
    params: { id: "Dispatch id (`dsp_…`)" },
    success: item("DispatchWithIssue", "The released dispatch and its issue"),
    errors: [409],
  },

  "GET /api/dashboard/stats": {
    summary: "What the engine is doing",
    description:
      "Issues by status and type, signals by source (the last 24 h, the last 7 d, and each of the last 24 hours, oldest first), dispatches, queue depth, median todo→done time.",
    success: item("DashboardStats", "The figures"),
  },
  "GET /api/dashboard/activity": {
    summary: "The latest signal → issue → dispatch → outcome chains",
    query: dashboardPageQuery(),
    success: list("ActivityChain", "A page of chains, newest first"),
  },
  "GET /api/dashboard/prompts": {
    summary: "Per template: active version, usage, review score, completion rate",
    query: dashboardPageQuery(),
    success: list("PromptPerformance", "A page of templates"),
  },
  "GET /api/dashboard/usage": {
    summary: "What agents reported their work cost, per day, agent and project",
    description:
      "The usage sums (dispatches that reported usage, input and output tokens, US dollars) of the last `days` UTC days, " +
      "today first, days without reports included: each day in all, per agent and per project (the issue's project " +
      "when it was claimed), the costliest first. A dispatch counts on the UTC day it finished. One query per day.",
    query: usageQuery(),
    success: item("UsageReport", "The days, newest first"),
  },
  "GET /api/event-destinations": {
    summary: "List event destinations",
    description: "Oldest first; never their secrets.",
    query: listDestinationsQuery(),
    success: list("EventDestination", "A page"),
  },
  "POST /api/event-destinations": {
    summary: "Add an event destination",
    description:
      `Kaizen POSTs each event of the types in \`events\` (${EVENT_TYPES.map((type) => `\`${type}\``).join(", ")}) to ` +
      "`url` (https; plain http only to localhost, 127.0.0.1 or [::1]), signed with the secret in this answer, which is " +
      "shown this once. At most 20 destinations (409 beyond). Does not take `Idempotency-Key`: a replay would show the " +
      "secret again.",
    body: createDestinationBody(),
    success: item("EventDestinationWithSecret", "The new destination and its signing secret", 201),
    errors: [409],
  },
  "GET /api/event-destinations/:id": {
    summary: "Get an event destination",
    params: { id: DESTINATION_PARAM },
    success: item("EventDestination", "The destination"),
    errors: [404],
  },
  "PATCH /api/event-destinations/:id": {
    summary: "Change an event destination",
    description:
      "Any of `url`, `events`, `description`, `active`. `active: true` on a destination Kaizen switched off after 100 " +
      "failed attempts in a row turns it back on with its count of failures at 0.",
    params: { id: DESTINATION_PARAM },
    body: patchDestinationBody(),
    success: item("EventDestination", "The changed destination"),
    ifMatch: true,
    errors: [404, 409],
  },
  "DELETE /api/event-destinations/:id": {
    summary: "Delete an event destination",
    description: "Its pending deliveries are not sent any more.",
    params: { id: DESTINATION_PARAM },
    success: noContent("Deleted"),
    ifMatch: true,
    errors: [404, 409],
  },
  "POST /api/event-destinations/:id/rotate-secret": {
    summary: "Rotate an event destination's signing secret",
    description:
      "A new secret, shown this once. For 24 h the old one signs too: `Kaizen-Signature-256` then carries both " +
      "signatures, the new one first, comma-separated, so a receiver holding either accepts the events.",
    params: { id: DESTINATION_PARAM },
    success: item("EventDestinationWithSecret", "The destination and its new secret"),
    ifMatch: true,
    errors: [404, 409],
  },
  "GET /api/event-destinations/:id/deliveries": {
    summary: "List an event destination's deliveries",
    description:
      "Newest first, each with its attempts (when, the outcome, the HTTP status answered, how long it took, why it failed).",
    params: { id: DESTINATION_PARAM },
    query: listEventDeliveriesQuery(),
    success: list("EventDelivery", "A page"),
    errors: [404],
  },
  "POST /api/event-destinations/:id/deliveries/:deliveryId/retry": {
    summary: "Send a delivery again",
    description:
      "One attempt now, whatever the delivery's status; the answer carries it. A success ends the delivery as " +
      "`succeeded`; a failure leaves its schedule as it was. 409 while another attempt of it is under way.",
    params: { id: DESTINATION_PARAM, deliveryId: "Delivery id (`dlv_…`)" },
    success: item("EventDelivery", "The delivery with this attempt"),
    errors: [404, 409],
  },
};
