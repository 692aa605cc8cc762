import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { queryString } from "../../../client/mcp/tool-kit.js";
import { TOOLS } from "../../../client/mcp/tools.js";
import { createCommentBody } from "../../../core/src/comments/schemas.js";
import {
  activitiesQuery,
  activityBody,
  approveBody,
  claimBody,
  completeBody,
  heartbeatBody,
  messageBody,
  rejectBody,
  stopBody,
} from "../../../core/src/dispatch/schemas.js";
import { createIssueBody, listIssuesQuery, updateIssueBody } from "../../../core/src/issues/schemas.js";
import { createReviewBody } from "../../../core/src/prompts/schemas.js";
import { listSignalsQuery, manualSignalBody, mergeIssueBody } from "../../../core/src/signals/schemas.js";
import { pageQuery } from "../../../core/src/templates/schemas.js";

const DSP = "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V30";

interface JsonObjectSchema {
  type: string;
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
}

/** A schema as `tools/list` shows it: the SDK's own conversion with the options its server uses. */
function jsonSchema(schema: z.ZodMiniType): JsonObjectSchema {
  return toJsonSchemaCompat(schema, { strictUnions: true, pipeStrategy: "input" }) as unknown as JsonObjectSchema;
}

function tool(name: string) {
  const found = TOOLS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** Each tool, the API schema its input is made from, and the path ids it adds (required or not). */
const DERIVED: { tool: string; api: z.ZodMiniType | undefined; pathIds?: { name: string; required: boolean }[] }[] = [
  { tool: "claim_next_issue", api: claimBody() },
  { tool: "get_issue", api: undefined, pathIds: [{ name: "issueId", required: true }] },
  { tool: "heartbeat", api: heartbeatBody(), pathIds: [{ name: "dispatchId", required: false }] },
  { tool: "post_activity", api: activityBody(), pathIds: [{ name: "dispatchId", required: false }] },
  { tool: "list_activities", api: activitiesQuery(), pathIds: [{ name: "dispatchId", required: false }] },
  { tool: "add_comment", api: createCommentBody(), pathIds: [{ name: "issueId", required: false }] },
  { tool: "review_prompt", api: createReviewBody(), pathIds: [{ name: "promptId", required: false }] },
  { tool: "complete_dispatch", api: completeBody(), pathIds: [{ name: "dispatchId", required: false }] },
  { tool: "release_dispatch", api: undefined, pathIds: [{ name: "dispatchId", required: false }] },
  { tool: "send_message", api: messageBody(), pathIds: [{ name: "dispatchId", required: true }] },
  { tool: "approve_plan", api: approveBody(), pathIds: [{ name: "dispatchId", required: true }] },
  { tool: "reject_plan", api: rejectBody(), pathIds: [{ name: "dispatchId", required: true }] },
  { tool: "stop_dispatch", api: stopBody(), pathIds: [{ name: "dispatchId", required: true }] },
  { tool: "list_issues", api: listIssuesQuery() },
  { tool: "create_issue", api: createIssueBody() },
  { tool: "update_issue", api: updateIssueBody(), pathIds: [{ name: "issueId", required: true }] },
  { tool: "merge_issue", api: mergeIssueBody(), pathIds: [{ name: "issueId", required: true }] },
  { tool: "send_signal", api: manualSignalBody() },
  { tool: "list_experiments", api: pageQuery(), pathIds: [{ name: "templateId", required: true }] },
  {
    tool: "get_experiment",
    api: undefined,
    pathIds: [
      { name: "templateId", required: true },
      { name: "experimentId", required: true },
    ],
  },
];

describe("tool input schemas", () => {
  it("cover every tool", () => {
    expect(DERIVED.map((entry) => entry.tool).sort()).toEqual(TOOLS.map((entry) => entry.name).sort());
  });

  it.each(DERIVED)("$tool takes the API's fields as the API states them, and requires what it requires", (entry) => {
    const schema = jsonSchema(tool(entry.tool).inputSchema);
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    const api = entry.api ? jsonSchema(entry.api) : { properties: {}, required: [] };
    for (const [field, property] of Object.entries(api.properties)) {
      expect(schema.properties[field], `${entry.tool}.${field}`).toEqual(property);
    }
    const extra = Object.keys(schema.properties).filter((field) => !(field in api.properties));
    const pathIds = entry.pathIds ?? [];
    expect(extra).toEqual(pathIds.map((pathId) => pathId.name));
    const required = [...(api.required ?? []), ...pathIds.filter((id) => id.required).map((id) => id.name)];
    expect([...(schema.required ?? [])].sort()).toEqual(required.sort());
  });

  it("states the requirements an agent must meet, e.g. a completion's result and summary", () => {
    expect(jsonSchema(tool("complete_dispatch").inputSchema).required).toEqual(["result", "summary"]);
    expect(jsonSchema(tool("claim_next_issue").inputSchema).required).toEqual(["agent"]);
    expect([...(jsonSchema(tool("review_prompt").inputSchema).required ?? [])].sort()).toEqual(
      ["authorType", "clarity", "completeness", "relevance"].sort(),
    );
    expect([...(jsonSchema(tool("send_signal").inputSchema).required ?? [])].sort()).toEqual(
      ["severity", "source", "title", "type"].sort(),
    );
  });

  it("names issues as the API does: iss_… or KZN-<n>, the signals filter's rule", () => {
    const issueId = jsonSchema(tool("get_issue").inputSchema).properties.issueId;
    expect(issueId).toEqual(jsonSchema(listSignalsQuery()).properties.issueId);
    expect(z.safeParse(tool("get_issue").inputSchema, { issueId: "KZN-12" }).success).toBe(true);
    expect(z.safeParse(tool("get_issue").inputSchema, { issueId: "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V2W" }).success).toBe(
      true,
    );
    expect(z.safeParse(tool("get_issue").inputSchema, { issueId: "12" }).success).toBe(false);
  });

  it("refuses what the API refuses, refinements JSON Schema cannot state included", () => {
    const refused: [string, Record<string, unknown>][] = [
      ["send_signal", { source: "codehost", type: "push", title: "Reserved source", severity: "low" }],
      ["create_issue", { title: "Twice", type: "task", labels: ["bug", "Bug"] }],
      ["add_comment", { body: "   ", authorName: "agent", authorType: "agent" }],
      ["complete_dispatch", { result: "maybe", summary: "Unsure" }],
      ["review_prompt", { clarity: 0, completeness: 3, relevance: 3, authorType: "agent" }],
      ["claim_next_issue", { agent: "a", leaseSeconds: 30 }],
      ["heartbeat", { dispatchId: "dsp_not-an-id" }],
      ["review_prompt", { promptId: "prm_1", clarity: 3, completeness: 3, relevance: 3, authorType: "agent" }],
      ["update_issue", { status: "todo" }],
      ["merge_issue", { issueId: "KZN-1" }],
      ["merge_issue", { issueId: "KZN-1", intoId: "issue two" }],
      ["list_issues", { status: "todo,nowhere" }],
      ["get_issue", { issueId: "KZN-1", extra: true }],
      ["list_experiments", { templateId: "Task Execution" }],
      ["list_experiments", { templateId: "task-execution", limit: "500" }],
      ["get_experiment", { templateId: "task-execution", experimentId: "exp_1" }],
      ["get_experiment", { templateId: "task-execution" }],
      ["post_activity", { type: "question", body: "Keep v1?" }],
      ["post_activity", { type: "thought", body: "Costly", usage: {} }],
      ["heartbeat", { usage: { costUsd: -1 } }],
      ["send_message", { body: "Yes" }],
      ["send_message", { dispatchId: DSP, body: "" }],
      ["reject_plan", { dispatchId: DSP }],
      ["stop_dispatch", { dispatchId: DSP, reason: "" }],
      // As JSON text: the linter keeps a `then` key out of object literals.
      ["stop_dispatch", JSON.parse(`{"dispatchId": "${DSP}", "reason": "Wrong way", "then": "done"}`)],
    ];
    for (const [name, args] of refused) {
      expect(z.safeParse(tool(name).inputSchema, args).success, `${name} ${JSON.stringify(args)}`).toBe(false);
    }
  });

  it("takes the new kinds of activity with usage, and a heartbeat with usage or without a body", () => {
    for (const type of ["elicitation", "plan"]) {
      expect(
        z.parse(tool("post_activity").inputSchema, { type, body: "Keep v1?", usage: { costUsd: 0.2, model: "m" } }),
      ).toEqual({ type, body: "Keep v1?", usage: { costUsd: 0.2, model: "m" } });
    }
    expect(z.parse(tool("heartbeat").inputSchema, {})).toEqual({});
    expect(z.parse(tool("heartbeat").inputSchema, { usage: { inputTokens: 1200 } })).toEqual({
      usage: { inputTokens: 1200 },
    });
  });

  it("names the dispatch a person acts on, and sends a stopped issue to todo unless told", () => {
    expect(z.parse(tool("stop_dispatch").inputSchema, { dispatchId: DSP, reason: "Wrong way" })).toEqual({
      dispatchId: DSP,
      reason: "Wrong way",
      ...JSON.parse('{"then": "todo"}'),
    });
    expect(z.parse(tool("approve_plan").inputSchema, { dispatchId: DSP })).toEqual({ dispatchId: DSP });
  });

  it("accepts a complete call and leaves the path id out of the body it parses", () => {
    const parsed = z.parse(tool("complete_dispatch").inputSchema, {
      result: "done",
      summary: "Shipped",
      commits: [{ sha: "0123abc", message: "Fix" }],
    });
    // A commit's optional fields left out are null, as the API takes them (docs/api.md#identifiers-and-fields).
    expect(parsed).toEqual({
      result: "done",
      summary: "Shipped",
      commits: [{ sha: "0123abc", message: "Fix", url: null, author: null, timestamp: null }],
    });
  });
});

describe("read and write", () => {
  it("marks a tool read-only exactly when its route only reads (a GET), and destructive only to stop an agent", () => {
    for (const entry of TOOLS) {
      const reads = entry.route.startsWith("GET ");
      expect(entry.annotations.readOnlyHint, entry.name).toBe(reads);
      expect(entry.annotations.destructiveHint ?? false, entry.name).toBe(entry.name === "stop_dispatch");
    }
  });

  it("offers the experiments as read-only tools", () => {
    expect(tool("list_experiments")).toMatchObject({
      route: "GET /api/templates/:id/experiments",
      annotations: { readOnlyHint: true },
    });
    expect(tool("get_experiment")).toMatchObject({
      route: "GET /api/templates/:id/experiments/:experimentId",
      annotations: { readOnlyHint: true },
    });
  });

  it("names templates by id or slug, experiments by id", () => {
    for (const templateId of ["tpl_01J2ZQ5K8Y3M4N6P7R9S0T1V2W", "task-execution"]) {
      expect(z.safeParse(tool("list_experiments").inputSchema, { templateId }).success, templateId).toBe(true);
    }
    expect(
      z.parse(tool("get_experiment").inputSchema, {
        templateId: "task-execution",
        experimentId: "exp_01J2ZQ5K8Y3M4N6P7R9S0T1V2W",
      }),
    ).toEqual({ templateId: "task-execution", experimentId: "exp_01J2ZQ5K8Y3M4N6P7R9S0T1V2W" });
  });
});

describe("queryString", () => {
  it("writes a parsed list query back as the URL carries it", () => {
    const parsed = z.parse(tool("list_issues").inputSchema, { status: "todo,backlog", priority: "1", limit: "5" });
    expect(queryString(parsed)).toEqual({
      status: "todo,backlog",
      priority: "1",
      limit: "5",
      page: "1",
      sort: "-createdAt",
    });
  });

  it("drops absent values", () => {
    expect(queryString({ q: undefined, label: "bug" })).toEqual({ label: "bug" });
  });
});
