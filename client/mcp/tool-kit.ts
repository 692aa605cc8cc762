/**
 * @module client/mcp/tool-kit — what every Kaizen MCP tool is made of: its shape over one API
 * route, the path ids the API takes in its URLs, read and write annotations, and the answer made
 * of the API's `data`.
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/mini";
import { DISPATCH_ID } from "../../core/src/dispatch/keys.js";
import { PROMPT_ID } from "../../core/src/prompts/keys.js";
import { listSignalsQuery } from "../../core/src/signals/schemas.js";
import { EXPERIMENT_ID, SLUG, TEMPLATE_ID } from "../../core/src/templates/keys.js";
import type { ApiRouteKey } from "./access.js";
import type { McpSession } from "./mcp-session.js";

/** An object schema of any shape and strictness: what a tool's input is. */
export type ObjectSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$ZodObjectConfig>;

/** One MCP tool over one API route. */
export interface KaizenTool<S extends ObjectSchema = ObjectSchema> {
  readonly name: string;
  readonly title: string;
  /** For the agent: what the tool does and when to use it. */
  readonly description: string;
  /** The route the tool calls; with only a dispatch token, the tool is offered when this route takes tokens. */
  readonly route: ApiRouteKey;
  readonly inputSchema: S;
  readonly annotations: ToolAnnotations;
  /** Calls the API; a failure throws (`KaizenApiError`, `SessionError`) and becomes an `isError` result. */
  run(args: z.output<S>, session: McpSession): Promise<CallToolResult>;
}

export function defineTool<S extends ObjectSchema>(tool: KaizenTool<S>): KaizenTool<S> {
  return tool;
}

// Path ids. The API takes them in the URL, not in a body, so no request schema holds them: the issue
// reference comes from the signals list's `issueId` filter (the same `iss_…`/`KZN-<n>` rule), the
// dispatch and prompt ids from the patterns their keys are built with.
export const issueRef = z.required(z.pick(listSignalsQuery(), { issueId: true })).shape.issueId;
const dispatchIdText = () => z.string().check(z.regex(DISPATCH_ID, "must be a dispatch id (dsp_…)"));
export const dispatchId = dispatchIdText().check(
  z.describe("The dispatch (dsp_…); defaults to this session's: its latest claim, else the dispatch token's."),
);
/** An agent's dispatch a person acts on: named, as it is rarely this session's own. */
export const steeredDispatchId = dispatchIdText().check(
  z.describe("The dispatch (dsp_…) of the agent you answer or stop, as the claim, its events or the queue name it."),
);
export const promptId = z
  .string()
  .check(
    z.regex(PROMPT_ID, "must be a prompt id (prm_…)"),
    z.describe("The prompt (prm_…); defaults to the prompt of this session's dispatch."),
  );
// Templates are named by id or slug, as every template path takes them.
export const templateRef = z
  .string()
  .check(
    z.regex(new RegExp(`${TEMPLATE_ID.source}|${SLUG.source}`), "must be a template id (tpl_…) or slug"),
    z.describe("The template: its id (tpl_…) or its slug (e.g. task-execution)."),
  );
export const experimentId = z
  .string()
  .check(
    z.regex(EXPERIMENT_ID, "must be an experiment id (exp_…)"),
    z.describe("The experiment (exp_…), as list_experiments names it."),
  );
export const defaultIssue = issueRef.check(
  z.describe("The issue (iss_… or KZN-<n>); defaults to the issue of this session's dispatch."),
);

export const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

/** The text and structured answer for a piece of the API's `data`. */
export function dataResult(data: unknown, lead?: string): CallToolResult {
  const json = JSON.stringify(data, null, 2);
  return {
    content: [{ type: "text", text: lead === undefined ? json : `${lead}\n\n${json}` }],
    structuredContent: isRecord(data) ? data : { data },
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A parsed list query back in the form the URL carries: comma lists joined, numbers as digits (the
 * query schema parses `status=todo,backlog` into an array, and the tool receives what it parsed).
 * @example queryString({ status: ["todo", "backlog"], page: 2 }) // { status: "todo,backlog", page: "2" }
 */
export function queryString(parsed: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(parsed).filter(([, value]) => value !== undefined);
  return Object.fromEntries(
    entries.map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : String(value)]),
  );
}
