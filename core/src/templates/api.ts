/**
 * @module templates/api — the `templates` family's routes (docs/api.md#templates-and-versions, docs/api.md#partials, docs/api.md#experiments),
 * each declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, ISSUE_REF, TEXT } from "../openapi/declare.js";
import { createPartialBody, patchPartialBody } from "./partial-schemas.js";
import {
  createTemplateBody,
  createVersionBody,
  listTemplatesQuery,
  pageQuery,
  patchTemplateBody,
  previewQuery,
  startExperimentBody,
} from "./schemas.js";

const PARTIAL_PARAM_TEXT = TEXT ? "Partial name (`[a-z0-9_-]{1,64}`)" : "";

export const templateApi = {
  "GET /api/templates": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: listTemplatesQuery,
    success: { list: "Template" },
    doc: TEXT && {
      summary: "List templates",
      success: "A page",
    },
  },
  "POST /api/templates": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: createTemplateBody,
    success: { status: 201, item: "TemplateDetail" },
    doc: TEXT && {
      summary: "Create a template",
      description: "`content` makes version 1, active at once. A template that does not compile is a 400.",
      success: "The new template",
    },
  },
  "GET /api/templates/preview/:issueId": {
    auth: "bearer",
    scope: "read",
    reach: "issue",
    query: previewQuery,
    success: { item: "TemplatePreview" },
    doc: TEXT && {
      summary: "Preview the prompt an issue would get",
      description: "Which template would be chosen and the rendered text, without claiming anything.",
      params: { issueId: ISSUE_REF },
      success: "The chosen template and rendered text (nulls when none matches)",
    },
  },
  "GET /api/templates/:id": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    success: { item: "TemplateDetail" },
    doc: TEXT && {
      summary: "Get a template with its active version",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "The template",
    },
  },
  "PATCH /api/templates/:id": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: patchTemplateBody,
    ifMatch: true,
    success: { item: "TemplateDetail" },
    doc: TEXT && {
      summary: "Update a template",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "The updated template",
    },
  },
  "DELETE /api/templates/:id": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    ifMatch: true,
    success: { status: 204 },
    doc: TEXT && {
      summary: "Delete a template",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "Deleted",
    },
  },
  "GET /api/templates/:id/versions": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: pageQuery,
    success: { list: "Version" },
    doc: TEXT && {
      summary: "List a template's versions",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "A page",
    },
  },
  "POST /api/templates/:id/versions": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: createVersionBody,
    success: { status: 201, item: "Version", location: false },
    doc: TEXT && {
      summary: "Add a draft version",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "The new draft",
    },
  },
  "POST /api/templates/:id/versions/:versionId/promote": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    success: { item: "TemplateDetail" },
    doc: TEXT && {
      summary: "Make a version active",
      description: "The previously active version is retired in the same transaction.",
      params: { id: "Template id (`tpl_…`) or slug", versionId: "Version id (`ver_…`)" },
      success: "The template with its new active version",
    },
  },
  "GET /api/templates/:id/reviews": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: pageQuery,
    success: { list: "Review" },
    doc: TEXT && {
      summary: "List the reviews of a template's prompts",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "A page",
    },
  },
  "GET /api/templates/:id/experiments": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: pageQuery,
    success: { list: "Experiment" },
    doc: TEXT && {
      summary: "List a template's experiments",
      description: "Newest first, each with its arms' figures now and its decision, if taken.",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "A page",
    },
  },
  "POST /api/templates/:id/experiments": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: startExperimentBody,
    success: { status: 201, item: "Experiment" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Start an experiment",
      description:
        "A draft version (`candidateVersionId`) takes `trafficPercent` % of the template's claims, chosen per issue, " +
        "against the active version. When both arms have `minSamples` finished dispatches and the candidate is better " +
        "on completion rate or review score (95 % intervals apart) and worse on neither, it is promoted (`autoPromote`) " +
        "or marked `winner`; worse in the same sense, it is marked `loser`. 409 while another experiment runs, " +
        "without an active version, or for a candidate that is not a draft.",
      params: { id: "Template id (`tpl_…`) or slug" },
      success: "The experiment, running",
    },
  },
  "GET /api/templates/:id/experiments/:experimentId": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    success: { item: "Experiment" },
    doc: TEXT && {
      summary: "Get an experiment",
      params: { id: "Template id (`tpl_…`) or slug", experimentId: "Experiment id (`exp_…`)" },
      success: "The experiment with its arms' figures",
    },
  },
  "DELETE /api/templates/:id/experiments/:experimentId": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    ifMatch: true,
    success: { item: "Experiment" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Stop an experiment",
      description:
        "Ends a running experiment as `stopped` (its record and figures stay); the template's claims all get its " +
        'active version again. 409 once it has ended. Its `ETag` is `"1"` while it runs, `"2"` once it ended.',
      params: { id: "Template id (`tpl_…`) or slug", experimentId: "Experiment id (`exp_…`)" },
      success: "The experiment, stopped",
    },
  },
  "GET /api/partials": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: pageQuery,
    success: { list: "Partial" },
    doc: TEXT && {
      summary: "List partials",
      description: "By name.",
      success: "A page",
    },
  },
  "POST /api/partials": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: createPartialBody,
    success: { status: 201, item: "Partial" },
    errors: [409],
    doc: TEXT && {
      summary: "Create a partial",
      description:
        "Content a version includes with `{{> name}}`. Content that does not compile, or includes a partial that " +
        "does not exist or would include itself, is a 400; a name taken is a 409.",
      success: "The new partial",
    },
  },
  "GET /api/partials/:name": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    success: { item: "Partial" },
    doc: TEXT && {
      summary: "Get a partial",
      params: { name: PARTIAL_PARAM_TEXT },
      success: "The partial",
    },
  },
  "PATCH /api/partials/:name": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: patchPartialBody,
    ifMatch: true,
    success: { item: "Partial" },
    doc: TEXT && {
      summary: "Update a partial",
      description:
        "`content` and `description`; the name is the partial's id and never changes. Prompts rendered from " +
        "now on include the new content; prompts already rendered keep their text.",
      params: { name: PARTIAL_PARAM_TEXT },
      success: "The updated partial",
    },
  },
  "DELETE /api/partials/:name": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    ifMatch: true,
    success: { status: 204 },
    errors: [409],
    doc: TEXT && {
      summary: "Delete a partial",
      description:
        "A 409 names the active or draft versions (of live templates) and the partials that include it; retired " +
        "versions do not hold it.",
      params: { name: PARTIAL_PARAM_TEXT },
      success: "Deleted",
    },
  },
} satisfies Declarations;
