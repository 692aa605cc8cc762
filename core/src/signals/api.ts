/**
 * @module signals/api — the `signals` family's routes (docs/api.md#signals): manual signals and the reads, each
 * declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, ISSUE_REF, TEXT } from "../openapi/declare.js";
import { issueSignalsQuery, listSignalsQuery, manualSignalBody, mergeIssueBody } from "./schemas.js";

export const signalApi = {
  "GET /api/signals": {
    auth: "bearer",
    scope: "read",
    reach: "handler",
    query: listSignalsQuery,
    success: { list: "Signal" },
    doc: TEXT && {
      summary: "List signals",
      success: "A page",
    },
  },
  "POST /api/signals": {
    auth: "bearer",
    scope: "write",
    reach: "handler",
    body: manualSignalBody,
    success: { status: 201, item: "IngestResult" },
    doc: TEXT && {
      summary: "Record a manual signal",
      success: "The signal and the issue it opened or joined",
    },
  },
  "GET /api/signals/:id": {
    auth: "bearer",
    scope: "read",
    reach: "signal",
    success: { item: "Signal" },
    doc: TEXT && {
      summary: "Get a signal with its whole payload",
      params: { id: "Signal id (`sig_…`)" },
      success: "The signal",
    },
  },
  "GET /api/issues/:id/signals": {
    auth: "bearer",
    scope: "read",
    reach: "issue",
    query: issueSignalsQuery,
    success: { list: "Signal" },
    doc: TEXT && {
      summary: "List an issue's signals",
      params: { id: ISSUE_REF },
      success: "A page",
    },
  },
  "POST /api/issues/:id/merge": {
    auth: "bearer",
    scope: "write",
    reach: "issue",
    body: mergeIssueBody,
    success: { item: "Issue" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Merge a duplicate into the issue that stays",
      description:
        "The issue is canceled with a `duplicate` relation to `intoId`, which takes its fingerprints, signals and priority (docs/api.md#merging-duplicates).",
      params: { id: ISSUE_REF },
      success: "The issue that stays",
    },
  },
} satisfies Declarations;
