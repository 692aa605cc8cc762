/**
 * @module catalog/api — the `catalog` family's routes (docs/api.md#projects-goals-and-labels), each declared
 * once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import {
  createGoalBody,
  createLabelBody,
  createProjectBody,
  listGoalsQuery,
  listLabelsQuery,
  listProjectsQuery,
  patchGoalBody,
  patchProjectBody,
} from "./schemas.js";

const PROJECT_LIMITS = TEXT
  ? "`limits` (all `null`, no limit, by default): `maxActivePerAgent` (an integer 1..100: active dispatches one agent may " +
    "hold of the project's issues), `dailyCostBudgetUsd` (a number > 0: US dollars its agents may report in a UTC day " +
    "before claims of its issues stop), `maxInReview` (an integer 1..100: issues of the project waiting in review " +
    "before claims of its issues stop) and `maxCostPerDispatchUsd` (a number > 0: US dollars one dispatch may report " +
    "before Kaizen stops it). Sent, the object replaces the project's limits whole: a key left out is `null`; " +
    "unknown keys are a 400. `autonomy.planApproval` (default false): agents post a plan and wait for a person's " +
    "approval before they may complete."
  : "";

export const catalogApi = {
  "GET /api/projects": {
    auth: "bearer",
    scope: "read",
    reach: "handler",
    query: listProjectsQuery,
    success: { list: "Project" },
    doc: TEXT && {
      summary: "List projects",
      success: "A page",
    },
  },
  "POST /api/projects": {
    auth: "bearer",
    scope: "write",
    reach: "global",
    body: createProjectBody,
    success: { status: 201, item: "Project" },
    errors: [404],
    doc: TEXT && {
      summary: "Create a project",
      description: PROJECT_LIMITS,
      success: "The new project",
    },
  },
  "GET /api/projects/:id": {
    auth: "bearer",
    scope: "read",
    reach: "project",
    success: { item: "ProjectDetail" },
    doc: TEXT && {
      summary: "Get a project with its issue counts by status and today's usage",
      description:
        "`usage` sums what its dispatches (of issues in it when claimed) reported they cost today (UTC): the figure " +
        "`limits.dailyCostBudgetUsd` is held against.",
      params: { id: "Project id (`prj_…`)" },
      success: "The project",
    },
  },
  "PATCH /api/projects/:id": {
    auth: "bearer",
    scope: "write",
    reach: "project",
    body: patchProjectBody,
    ifMatch: true,
    success: { item: "Project" },
    doc: TEXT && {
      summary: "Update a project",
      description: PROJECT_LIMITS,
      params: { id: "Project id (`prj_…`)" },
      success: "The updated project",
    },
  },
  "DELETE /api/projects/:id": {
    auth: "bearer",
    scope: "write",
    reach: "project",
    ifMatch: true,
    success: { status: 204 },
    errors: [409],
    doc: TEXT && {
      summary: "Delete a project",
      params: { id: "Project id (`prj_…`)" },
      success: "Deleted",
    },
  },
  "GET /api/goals": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: listGoalsQuery,
    success: { list: "Goal" },
    doc: TEXT && {
      summary: "List goals",
      success: "A page",
    },
  },
  "POST /api/goals": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: createGoalBody,
    success: { status: 201, item: "Goal" },
    errors: [404],
    doc: TEXT && {
      summary: "Create a goal",
      success: "The new goal",
    },
  },
  "GET /api/goals/:id": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    success: { item: "Goal" },
    doc: TEXT && {
      summary: "Get a goal",
      params: { id: "Goal id (`gol_…`)" },
      success: "The goal",
    },
  },
  "PATCH /api/goals/:id": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: patchGoalBody,
    ifMatch: true,
    success: { item: "Goal" },
    doc: TEXT && {
      summary: "Update a goal",
      params: { id: "Goal id (`gol_…`)" },
      success: "The updated goal",
    },
  },
  "DELETE /api/goals/:id": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    ifMatch: true,
    success: { status: 204 },
    errors: [409],
    doc: TEXT && {
      summary: "Delete a goal",
      params: { id: "Goal id (`gol_…`)" },
      success: "Deleted",
    },
  },
  "GET /api/labels": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: listLabelsQuery,
    success: { list: "Label" },
    doc: TEXT && {
      summary: "List labels",
      success: "A page",
    },
  },
  "POST /api/labels": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    body: createLabelBody,
    success: { status: 201, item: "Label" },
    doc: TEXT && {
      summary: "Create a label",
      description: "Names are unique regardless of case (409).",
      success: "The new label",
    },
  },
  "DELETE /api/labels/:id": {
    auth: "bearer",
    scope: "write",
    reach: "shared",
    ifMatch: true,
    success: { status: 204 },
    errors: [409],
    doc: TEXT && {
      summary: "Delete a label",
      params: { id: "Label id (`lbl_…`)" },
      success: "Deleted",
    },
  },
} satisfies Declarations;
