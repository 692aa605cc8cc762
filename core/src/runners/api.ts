/**
 * @module runners/api — the `runners` family's routes (docs/api.md#hosted-runners): hosted runners that
 * Kaizen hands dispatches to through GitHub Actions, each declared once: guard, request schemas,
 * answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import { createRunnerBody, listRunnersQuery, patchRunnerBody } from "./schemas.js";

const RUNNER_PARAM = TEXT ? "Runner id (`run_…`)" : "";

export const runnerApi = {
  "GET /api/runners": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    query: listRunnersQuery,
    success: { list: "Runner" },
    doc: TEXT && {
      summary: "List hosted runners",
      description: "Oldest first; never their GitHub tokens.",
      success: "A page",
    },
  },
  "POST /api/runners": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    body: createRunnerBody,
    success: { status: 201, item: "Runner" },
    errors: [409],
    doc: TEXT && {
      summary: "Add a hosted runner",
      description:
        "For each active runner Kaizen keeps up to `concurrency` dispatches going: it claims issues that match " +
        "`filters` for `agent` (default: the runner's name) and hands each to GitHub Actions as a repository " +
        "dispatch of `eventType` (default `kaizen-dispatch`) to `repository`, authorised by `githubToken`. The " +
        "token is write-only: answers show `githubTokenConfigured`. At most 20 runners (409 beyond).",
      success: "The new runner",
    },
  },
  "GET /api/runners/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    success: { item: "Runner" },
    errors: [404],
    doc: TEXT && {
      summary: "Get a hosted runner",
      params: { id: RUNNER_PARAM },
      success: "The runner",
    },
  },
  "PATCH /api/runners/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    body: patchRunnerBody,
    ifMatch: true,
    success: { item: "Runner" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Change a hosted runner",
      description:
        "Any of `name`, `repository`, `eventType`, `concurrency`, `filters`, `agent`, `active`, `githubToken` " +
        "(replaces the stored token). `active: true` on a runner Kaizen switched off after 10 refused hand-offs " +
        "in a row turns it back on with its count of refusals at 0 and no backoff.",
      params: { id: RUNNER_PARAM },
      success: "The changed runner",
    },
  },
  "DELETE /api/runners/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    ifMatch: true,
    success: { status: 204 },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Delete a hosted runner",
      description: "Its token is deleted with it. Dispatches it handed over go on until their agents end them.",
      params: { id: RUNNER_PARAM },
      success: "Deleted",
    },
  },
} satisfies Declarations;
