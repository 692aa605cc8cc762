/**
 * @module issues/api — the `issues` family's routes (docs/api.md#issue-endpoints): issues, their relations and
 * comments, each declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { createCommentBody, listCommentsQuery } from "../comments/schemas.js";
import { type Declarations, ISSUE_REF, TEXT } from "../openapi/declare.js";
import { createRelationBody } from "./relation-schemas.js";
import { createIssueBody, listIssuesQuery, updateIssueBody } from "./schemas.js";

export const issueApi = {
  "GET /api/issues": {
    auth: "bearer",
    scope: "read",
    reach: "handler",
    query: listIssuesQuery,
    success: { list: "Issue" },
    doc: TEXT && {
      summary: "List issues",
      success: "A page of issues",
    },
  },
  "POST /api/issues": {
    auth: "bearer",
    scope: "write",
    reach: "handler",
    body: createIssueBody,
    success: { status: 201, item: "Issue" },
    errors: [404],
    doc: TEXT && {
      summary: "Create an issue",
      success: "The new issue",
    },
  },
  "GET /api/issues/:id": {
    auth: "bearer",
    scope: "read",
    token: "issue",
    reach: "issue",
    success: { item: "IssueDetail" },
    doc: TEXT && {
      summary: "Get an issue with its parent, children, relations and latest signals",
      params: { id: ISSUE_REF },
      success: "The issue",
    },
  },
  "PATCH /api/issues/:id": {
    auth: "bearer",
    scope: "write",
    reach: "issue",
    body: updateIssueBody,
    ifMatch: true,
    success: { item: "Issue" },
    errors: [409],
    doc: TEXT && {
      summary: "Update an issue",
      description:
        "Partial update; status changes follow the transitions of docs/api.md#states-and-transitions (409 otherwise).",
      params: { id: ISSUE_REF },
      success: "The updated issue",
    },
  },
  "DELETE /api/issues/:id": {
    auth: "bearer",
    scope: "write",
    reach: "issue",
    ifMatch: true,
    success: { status: 204 },
    doc: TEXT && {
      summary: "Delete an issue (soft delete)",
      params: { id: ISSUE_REF },
      success: "Deleted",
    },
  },
  "GET /api/issues/:id/comments": {
    auth: "bearer",
    scope: "read",
    reach: "issue",
    query: listCommentsQuery,
    success: { list: "Comment" },
    doc: TEXT && {
      summary: "List an issue's comments",
      params: { id: ISSUE_REF },
      success: "A page of comments",
    },
  },
  "POST /api/issues/:id/comments": {
    auth: "bearer",
    scope: "write",
    reach: "issue",
    token: "issue",
    body: createCommentBody,
    success: { status: 201, item: "Comment", location: false },
    doc: TEXT && {
      summary: "Comment on an issue",
      description:
        "Also allowed with the dispatch token of this issue's open dispatch, or with the `dispatch` key that claimed it.",
      params: { id: ISSUE_REF },
      success: "The new comment",
    },
  },
  "POST /api/issues/:id/relations": {
    auth: "bearer",
    scope: "write",
    reach: "issue",
    body: createRelationBody,
    success: { status: 201, item: "Relation" },
    doc: TEXT && {
      summary: "Relate two issues",
      description: "A relation and its inverse are one fact; a cycle of `blocks` is a 409.",
      params: { id: ISSUE_REF },
      success: "The new relation",
    },
  },
  "DELETE /api/relations/:id": {
    auth: "bearer",
    scope: "write",
    reach: "relation",
    ifMatch: true,
    success: { status: 204 },
    doc: TEXT && {
      summary: "Remove a relation",
      params: { id: "Relation id (`rel_…`)" },
      success: "Removed",
    },
  },
} satisfies Declarations;
