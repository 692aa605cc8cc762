/**
 * @module client/mcp/tools — the Kaizen MCP tools: each names the one API route it calls and takes an
 * input schema made from the zod schema that validates that route's body or query (plus the path id
 * the route needs), and answers with the JSON of the API's `data`.
 */
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/mini";
import { createCommentBody } from "../../core/src/comments/schemas.js";
import { DISPATCH_ID } from "../../core/src/dispatch/keys.js";
import { claimBody, completeBody } from "../../core/src/dispatch/schemas.js";
import { createIssueBody, listIssuesQuery, updateIssueBody } from "../../core/src/issues/schemas.js";
import { PROMPT_ID } from "../../core/src/prompts/keys.js";
import { createReviewBody } from "../../core/src/prompts/schemas.js";
import { listSignalsQuery, manualSignalBody } from "../../core/src/signals/schemas.js";
import { EXPERIMENT_ID, SLUG, TEMPLATE_ID } from "../../core/src/templates/keys.js";
import { pageQuery } from "../../core/src/templates/schemas.js";
import { claimStopped, type paths, type Schema } from "../client.js";
import type { ApiRouteKey } from "./access.js";
import type { McpSession } from "./mcp-session.js";

/** An object schema of any shape and strictness: what a tool's input is. */
type ObjectSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$ZodObjectConfig>;

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

function defineTool<S extends ObjectSchema>(tool: KaizenTool<S>): KaizenTool<S> {
  return tool;
}

// Path ids. The API takes them in the URL, not in a body, so no request schema holds them: the issue
// reference comes from the signals list's `issueId` filter (the same `iss_…`/`KZN-<n>` rule), the
// dispatch and prompt ids from the patterns their keys are built with.
const issueRef = z.required(z.pick(listSignalsQuery(), { issueId: true })).shape.issueId;
const dispatchId = z
  .string()
  .check(
    z.regex(DISPATCH_ID, "must be a dispatch id (dsp_…)"),
    z.describe("The dispatch (dsp_…); defaults to this session's: its latest claim, else the dispatch token's."),
  );
const promptId = z
  .string()
  .check(
    z.regex(PROMPT_ID, "must be a prompt id (prm_…)"),
    z.describe("The prompt (prm_…); defaults to the prompt of this session's dispatch."),
  );
// Templates are named by id or slug, as every template path takes them.
const templateRef = z
  .string()
  .check(
    z.regex(new RegExp(`${TEMPLATE_ID.source}|${SLUG.source}`), "must be a template id (tpl_…) or slug"),
    z.describe("The template: its id (tpl_…) or its slug (e.g. task-execution)."),
  );
const experimentId = z
  .string()
  .check(
    z.regex(EXPERIMENT_ID, "must be an experiment id (exp_…)"),
    z.describe("The experiment (exp_…), as list_experiments names it."),
  );
const defaultIssue = issueRef.check(
  z.describe("The issue (iss_… or KZN-<n>); defaults to the issue of this session's dispatch."),
);

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

/** The text and structured answer for a piece of the API's `data`. */
function dataResult(data: unknown, lead?: string): CallToolResult {
  const json = JSON.stringify(data, null, 2);
  return {
    content: [{ type: "text", text: lead === undefined ? json : `${lead}\n\n${json}` }],
    structuredContent: isRecord(data) ? data : { data },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
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

type IssueListQuery = NonNullable<paths["/api/issues"]["get"]["parameters"]["query"]>;
type ExperimentListQuery = NonNullable<paths["/api/templates/{id}/experiments"]["get"]["parameters"]["query"]>;

const claimNextIssue = defineTool({
  name: "claim_next_issue",
  title: "Claim the next issue",
  description:
    "Take the highest-ranked issue waiting in `todo` and start working on it: Kaizen moves it to in_progress, " +
    "records a dispatch with a lease (leaseSeconds, default 1800) and answers with the prompt (what to do and how " +
    "to report back), the dispatch (its id and token) and the issue. Use it when you are ready for new work. " +
    "Afterwards heartbeat before the lease ends, comment as you go, review the prompt, and finish with " +
    "complete_dispatch (or release_dispatch); those tools default to this dispatch. Nothing is claimed when no " +
    "issue is eligible. In a repository connected with `kaizen connect`, only its project's issues are claimed " +
    "unless projectId names another. A project's limits may hold its issues back: an error 429 says you hold as " +
    "many of its dispatches as it allows one agent (finish one, then try again after the time it names); " +
    "`stopped: daily-cost-budget` says its agents spent today's budget (UTC).",
  route: "POST /api/dispatch/claim",
  inputSchema: claimBody(),
  annotations: WRITE,
  async run(args, session) {
    const { data, response } = await session.call("service", (kaizen) =>
      // In a connected repository, its project's issues unless the agent names another.
      kaizen.POST("/api/dispatch/claim", { body: { ...args, projectId: args.projectId ?? session.projectId } }),
    );
    if (response.status === 204 || !data) {
      const stopped = claimStopped(response);
      const text = stopped
        ? "Nothing to claim: the issues left are in projects whose agents spent today's cost budget " +
          `(limits.dailyCostBudgetUsd; ${stopped}). Claims of them resume the next day (UTC).`
        : "Nothing to claim: no issue in todo is eligible for these filters.";
      return {
        content: [{ type: "text", text }],
        structuredContent: { dispatch: null, issue: null, prompt: null, ...(stopped ? { stopped } : {}) },
      };
    }
    const claim = data.data;
    session.adopt(claim);
    const { dispatch, issue, prompt } = claim;
    const lead =
      `Claimed ${issue.identifier} "${issue.title}" as dispatch ${dispatch.id} (lease until ${dispatch.leaseExpiresAt}). ` +
      "heartbeat, add_comment, review_prompt, complete_dispatch and release_dispatch now default to this dispatch.";
    return {
      content: [
        { type: "text", text: lead },
        { type: "text", text: prompt ? prompt.text : "No prompt template matched this issue: work from the issue." },
        { type: "text", text: JSON.stringify(claim, null, 2) },
      ],
      structuredContent: claim,
    };
  },
});

const getIssue = defineTool({
  name: "get_issue",
  title: "Read an issue",
  description:
    "Read one issue by id (iss_…) or identifier (KZN-<n>): its fields, parent, children, relations and its latest " +
    "10 signals (the evidence that opened it or grouped into it). Use it to triage an issue or to re-read the one " +
    "you are working on.",
  route: "GET /api/issues/:id",
  inputSchema: z.required(z.pick(listSignalsQuery(), { issueId: true })),
  annotations: READ,
  async run({ issueId }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.GET("/api/issues/{id}", { params: { path: { id: issueId } } }),
    );
    return dataResult(data?.data);
  },
});

const heartbeat = defineTool({
  name: "heartbeat",
  title: "Extend the lease",
  description:
    "Extend your dispatch's lease by its length from now. Call it during long work, well before leaseExpiresAt: " +
    "a dispatch whose lease runs out expires and its issue goes back to the queue. Answers with the dispatch.",
  route: "POST /api/dispatch/:id/heartbeat",
  inputSchema: z.strictObject({ dispatchId: z.optional(dispatchId) }),
  annotations: { ...WRITE, idempotentHint: true },
  async run(args, session) {
    const id = session.dispatchId(args.dispatchId);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/heartbeat", { params: { path: { id } } }),
    );
    if (data) session.remember(data.data);
    return dataResult(data?.data);
  },
});

const addComment = defineTool({
  name: "add_comment",
  title: "Comment on an issue",
  description:
    "Post a comment (Markdown) on an issue: what you found, decided, are blocked on, or want a human to know. " +
    "authorType is `agent` for you; parentId makes it a reply. issueId defaults to your dispatch's issue.",
  route: "POST /api/issues/:id/comments",
  inputSchema: z.extend(createCommentBody(), { issueId: z.optional(defaultIssue) }),
  annotations: WRITE,
  async run({ issueId, ...body }, session) {
    const id = await session.issueId(issueId);
    const { data } = await session.call({ issue: id }, (kaizen) =>
      kaizen.POST("/api/issues/{id}/comments", { params: { path: { id } }, body }),
    );
    return dataResult(data?.data);
  },
});

const completeDispatch = defineTool({
  name: "complete_dispatch",
  title: "Complete the dispatch",
  description:
    "Report the end of your work: result `done` moves the issue to done with your summary, commits and pull " +
    "requests; `failed` puts it back in todo and your summary reaches the next attempt's prompt (the third failed " +
    "attempt cancels it). Give `usage` (inputTokens, outputTokens, costUsd, model: what you know of them) so prompt " +
    "versions can be compared on cost. Review the prompt (review_prompt) before this if you hold only a dispatch " +
    "token: it stops working when the dispatch ends. Answers with the dispatch and the issue.",
  route: "POST /api/dispatch/:id/complete",
  inputSchema: z.extend(completeBody(), { dispatchId: z.optional(dispatchId) }),
  annotations: WRITE,
  async run({ dispatchId: given, ...body }, session) {
    const id = session.dispatchId(given);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/complete", { params: { path: { id } }, body }),
    );
    if (data) session.remember(data.data.dispatch);
    return dataResult(data?.data);
  },
});

const releaseDispatch = defineTool({
  name: "release_dispatch",
  title: "Release the dispatch",
  description:
    "Give the issue back to the queue untouched (it returns to todo, the dispatch becomes released) when you cannot " +
    "or should not work on it. When you tried and failed, use complete_dispatch with result `failed` instead, so " +
    "the next attempt learns from your summary.",
  route: "POST /api/dispatch/:id/release",
  inputSchema: z.strictObject({ dispatchId: z.optional(dispatchId) }),
  annotations: WRITE,
  async run(args, session) {
    const id = session.dispatchId(args.dispatchId);
    const { data } = await session.call({ dispatchId: id }, (kaizen) =>
      kaizen.POST("/api/dispatch/{id}/release", { params: { path: { id } } }),
    );
    if (data) session.remember(data.data.dispatch);
    return dataResult(data?.data);
  },
});

const reviewPrompt = defineTool({
  name: "review_prompt",
  title: "Review the prompt",
  description:
    "Rate the prompt you were given, each from 1 to 5: clarity (could you tell what to do), completeness (did it " +
    "hold what you needed), relevance (did it fit the issue), with feedback on what was unclear or missing. " +
    "Reviews score the prompt's template version; low scores open an issue to improve it. authorType is `agent` " +
    "for you. promptId defaults to your dispatch's prompt.",
  route: "POST /api/prompts/:id/reviews",
  inputSchema: z.extend(createReviewBody(), { promptId: z.optional(promptId) }),
  annotations: WRITE,
  async run({ promptId: given, ...body }, session) {
    const id = await session.promptId(given);
    const { data } = await session.call({ prompt: id }, (kaizen) =>
      kaizen.POST("/api/prompts/{id}/reviews", { params: { path: { id } }, body }),
    );
    return dataResult(data?.data);
  },
});

const listIssues = defineTool({
  name: "list_issues",
  title: "List issues",
  description:
    "List issues, newest first unless `sort` says otherwise, with their total. Filters: status and type (one value " +
    "or a comma list, e.g. `triage` or `todo,backlog`), priority (`0`..`4`; 1 urgent, 4 low, 0 none), projectId, " +
    "parentId, label, fingerprint, q (a substring of the title, any case). page and limit are digits as text " +
    "(limit at most 100). Use it to find issues to triage (status `triage`) or to check for duplicates.",
  route: "GET /api/issues",
  inputSchema: listIssuesQuery(),
  annotations: READ,
  async run(args, session) {
    // The schema's output, written back as the query it was parsed from (its enum values checked).
    const query = queryString(args) as IssueListQuery;
    const { data } = await session.call("service", (kaizen) => kaizen.GET("/api/issues", { params: { query } }));
    return dataResult({ total: data?.total, data: data?.data });
  },
});

const createIssue = defineTool({
  name: "create_issue",
  title: "Create an issue",
  description:
    "Open an issue (title and type required; type is signal, hypothesis, plan, task or monitor). It starts in " +
    "triage unless status says backlog, todo (straight into the claim queue), done or canceled; priority 1 is " +
    "urgent, 4 low, 0 none. Use it for work you find that is not yet tracked; search with list_issues first.",
  route: "POST /api/issues",
  inputSchema: createIssueBody(),
  annotations: WRITE,
  async run(args, session) {
    const { data } = await session.call("service", (kaizen) => kaizen.POST("/api/issues", { body: args }));
    return dataResult(data?.data);
  },
});

const updateIssue = defineTool({
  name: "update_issue",
  title: "Update an issue",
  description:
    "Change some of an issue's fields; the others stay. Triage is mostly status: triage → todo queues it for " +
    "agents, → backlog parks it, → canceled or done closes it (other moves follow the issue state machine and " +
    "answer 409 when not allowed; in_progress is reached only by a claim). Also priority, title, description, " +
    "labels, parentId, projectId.",
  route: "PATCH /api/issues/:id",
  inputSchema: z.extend(updateIssueBody(), {
    issueId: issueRef.check(z.describe("The issue to change (iss_… or KZN-<n>).")),
  }),
  annotations: { ...WRITE, idempotentHint: true },
  async run({ issueId, ...body }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.PATCH("/api/issues/{id}", { params: { path: { id: issueId } }, body }),
    );
    return dataResult(data?.data);
  },
});

const sendSignal = defineTool({
  name: "send_signal",
  title: "Send a signal",
  description:
    "Report an observation as a manual signal (source, type, title, severity low|medium|high|critical; optional " +
    "payload, fingerprint, projectId). Kaizen groups it into the open issue with the same fingerprint (default " +
    "`manual:<source>:<type>`) or opens a new issue in triage. Use it for something noticed that should be " +
    "tracked and deduplicated, rather than create_issue for work already understood.",
  route: "POST /api/signals",
  inputSchema: manualSignalBody(),
  annotations: WRITE,
  async run(args, session) {
    const { data } = await session.call("service", (kaizen) => kaizen.POST("/api/signals", { body: args }));
    const ingest: Schema<"IngestResult"> | undefined = data?.data;
    const lead = ingest?.issue
      ? `Signal ${ingest.signal.id}: ${ingest.signal.action}; issue ${ingest.issue.identifier} is in ${ingest.issue.status}.`
      : undefined;
    return dataResult(ingest, lead);
  },
});

/** What an experiment's figures say, for both experiment tools' descriptions. */
const EXPERIMENT_FIGURES =
  "Each arm (control: the active version; candidate: a draft taking trafficPercent % of the template's claims) " +
  "has claims, finished dispatches, completions, failures and reviews, and completionRate, reviewScore (mean " +
  "composite 1..5) and costUsd (mean reported cost), each {value, low, high, samples} with a 95 % interval " +
  "(low/high null under two samples; the measure null without data). status is running, promoted, winner, loser " +
  "or stopped; decision holds the outcome, its reason and the figures it was taken on.";

const listExperiments = defineTool({
  name: "list_experiments",
  title: "List a template's experiments",
  description:
    "List the experiments of a prompt template (by id or slug), newest first, with their total: at most one is " +
    `running. ${EXPERIMENT_FIGURES} Use it to see whether a candidate version is being tried and how it fares. ` +
    "page and limit are digits as text (limit at most 100).",
  route: "GET /api/templates/:id/experiments",
  inputSchema: z.extend(pageQuery(), { templateId: templateRef }),
  annotations: READ,
  async run({ templateId, ...page }, session) {
    const query = queryString(page) as ExperimentListQuery;
    const { data } = await session.call("service", (kaizen) =>
      kaizen.GET("/api/templates/{id}/experiments", { params: { path: { id: templateId }, query } }),
    );
    return dataResult({ total: data?.total, data: data?.data });
  },
});

const getExperiment = defineTool({
  name: "get_experiment",
  title: "Read an experiment",
  description:
    `Read one experiment of a prompt template (by id or slug) with both arms' figures now. ${EXPERIMENT_FIGURES} ` +
    "The rule decides once both arms have minSamples finished dispatches: a candidate better on completion rate " +
    "or review score (intervals apart) and worse on neither wins; worse on one and better on neither loses.",
  route: "GET /api/templates/:id/experiments/:experimentId",
  inputSchema: z.strictObject({ templateId: templateRef, experimentId }),
  annotations: READ,
  async run({ templateId, experimentId: id }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.GET("/api/templates/{id}/experiments/{experimentId}", {
        params: { path: { id: templateId, experimentId: id } },
      }),
    );
    return dataResult(data?.data);
  },
});

/**
 * Every tool, in the order an agent meets them: its loop, then triage, then prompt experiments. Which of them a server offers
 * depends on its credentials (access.ts).
 */
export const TOOLS: readonly KaizenTool[] = [
  claimNextIssue,
  getIssue,
  heartbeat,
  addComment,
  reviewPrompt,
  completeDispatch,
  releaseDispatch,
  listIssues,
  createIssue,
  updateIssue,
  sendSignal,
  listExperiments,
  getExperiment,
];
