/**
 * @module client/mcp/tools — every Kaizen MCP tool: the loop's (./loop-tools.ts), a person's side of
 * an agent at work (./steering-tools.ts), triage's (issues and signals), and the read-only prompt experiment tools, whose descriptions say what each arm's
 * figures mean (completion, what became of the work, verified rate, review score, cost).
 */
import * as z from "zod/mini";
import { createIssueBody, listIssuesQuery, updateIssueBody } from "../../core/src/issues/schemas.js";
import { manualSignalBody, mergeIssueBody } from "../../core/src/signals/schemas.js";
import { pageQuery } from "../../core/src/templates/schemas.js";
import type { paths, Schema } from "../client.js";
import {
  addComment,
  claimNextIssue,
  completeDispatch,
  getIssue,
  heartbeat,
  listActivities,
  postActivity,
  releaseDispatch,
  reviewPrompt,
} from "./loop-tools.js";
import { approvePlan, rejectPlan, sendMessage, stopDispatch } from "./steering-tools.js";
import {
  dataResult,
  defineTool,
  experimentId,
  issueRef,
  type KaizenTool,
  queryString,
  READ,
  templateRef,
  WRITE,
} from "./tool-kit.js";

type IssueListQuery = NonNullable<paths["/api/issues"]["get"]["parameters"]["query"]>;
type ExperimentListQuery = NonNullable<paths["/api/templates/{id}/experiments"]["get"]["parameters"]["query"]>;

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
    "answer 409 when not allowed; in_progress is reached only by a claim, in_review only by a completion naming an open pull request). Also priority, title, description, " +
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

const mergeIssue = defineTool({
  name: "merge_issue",
  title: "Merge a duplicate issue",
  description:
    "Fold a duplicate (issueId) into the issue that stays (intoId): the duplicate is canceled with a duplicate " +
    "relation, and the one that stays takes its fingerprints (later signals of either group there), its signal " +
    "count, its signals and the more urgent priority. Use it when two issues are the same problem, e.g. an " +
    "error-tracker error and the issue a user filed about it. 409 says why a merge is refused (an issue at work, " +
    "or one already finished).",
  route: "POST /api/issues/:id/merge",
  inputSchema: z.extend(mergeIssueBody(), {
    issueId: issueRef.check(z.describe("The duplicate, which is canceled (iss_… or KZN-<n>).")),
  }),
  annotations: WRITE,
  async run({ issueId, intoId }, session) {
    const { data } = await session.call("service", (kaizen) =>
      kaizen.POST("/api/issues/{id}/merge", { params: { path: { id: issueId } }, body: { intoId } }),
    );
    const stayed = data?.data;
    return dataResult(stayed, stayed ? `Merged ${issueId} into ${stayed.identifier}.` : undefined);
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
  "has claims, finished dispatches, completions, failures and reviews; what became of the completed work: merged " +
  "(its pull request merged), reworked (review sent it back at least once), regressed (the problem came back " +
  "within the merged fix's watch) and verified (the watch ended quiet); and completionRate, verifiedRate " +
  "(verified ÷ (verified + regressed)), reviewScore (mean composite 1..5) and costUsd (mean reported cost), each " +
  "{value, low, high, samples} with a 95 % interval (low/high null under two samples; the measure null without " +
  "data). status is running, promoted, winner, loser or stopped; decision holds the outcome, its reason and the " +
  "figures it was taken on.";

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
    "The rule decides once both arms have minSamples finished dispatches: a candidate better on completion rate, " +
    "review score or verified rate (intervals apart) and worse on none wins; worse on one and better on none loses.",
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
 * Every tool, in the order an agent meets them: its loop, a person's answers to an agent at work, then triage, then
 * prompt experiments. Which of them a server offers depends on its credentials (access.ts).
 */
export const TOOLS: readonly KaizenTool[] = [
  claimNextIssue,
  getIssue,
  heartbeat,
  postActivity,
  listActivities,
  addComment,
  reviewPrompt,
  completeDispatch,
  releaseDispatch,
  sendMessage,
  approvePlan,
  rejectPlan,
  stopDispatch,
  listIssues,
  createIssue,
  updateIssue,
  mergeIssue,
  sendSignal,
  listExperiments,
  getExperiment,
];
