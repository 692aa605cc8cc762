/**
 * @module issues/issue-values — the values of an issue's types, statuses and list orders (docs/api.md#issues),
 * without zod: ./schemas.ts validates against them, and the CLI offers them as choices without
 * loading a schema.
 */

export const ISSUE_TYPES = ["signal", "hypothesis", "plan", "task", "monitor"] as const;
export const ISSUE_STATUSES = ["triage", "backlog", "todo", "in_progress", "in_review", "done", "canceled"] as const;
export const ISSUE_SORTS = ["-createdAt", "createdAt", "priority", "-updatedAt", "number"] as const;
/**
 * Statuses an issue may be created in: `in_progress` is reached only through a dispatch claim, and
 * `in_review` only through a completion that names an open pull request.
 */
export const CREATABLE_STATUSES = ["triage", "backlog", "todo", "done", "canceled"] as const;

export type IssueType = (typeof ISSUE_TYPES)[number];
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export type IssueSort = (typeof ISSUE_SORTS)[number];
