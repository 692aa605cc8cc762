/**
 * The Kaizen MCP server as a coding agent meets it: spawned over stdio and driven by the official
 * SDK's own `Client`, against a real local stack (HTTP server and DynamoDB Local). The loop runs
 * signal → triage → todo → claim → heartbeat → comment → complete → review, and the outcome is
 * checked over HTTP; a server holding only a dispatch token offers exactly what the API lets that
 * token do; a person's server answers, decides on the plan of and stops an agent holding its token.
 */
import { execFile, spawnSync } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeSpec, tokenMayCall } from "../../client/mcp/access.js";
import { TOOLS } from "../../client/mcp/tools.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";
import { TOKEN_TOOLS } from "../helpers/mcp-tools.js";

const ROOT = join(import.meta.dirname, "..", "..");
const KAIZEN = join(ROOT, "bin", "kaizen.js");

let server: TestServer;
let url: string;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer("mcp");
  url = server.url;
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.stop();
});

/** An MCP client connected to a fresh `kaizen mcp` process with exactly these credentials. */
async function mcp(credentials: {
  KAIZEN_API_KEY?: string;
  KAIZEN_DISPATCH_TOKEN?: string;
  KAIZEN_PROJECT?: string;
}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [KAIZEN, "mcp"],
    env: { KAIZEN_URL: url, ...credentials },
    cwd: ROOT,
    stderr: "inherit",
  });
  const client = new Client({ name: "kaizen-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError: boolean;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the tools answer with the API's JSON; each test reads the fields it checks.
  data: any;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    text: content.map((part) => part.text ?? "").join("\n"),
    data: result.structuredContent,
  };
}

/** Asserts a tool answered without error, naming its message when it did not. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const answer = await call(client, name, args);
  expect(answer.isError, `${name}: ${answer.text}`).toBe(false);
  return answer;
}

/** A plain HTTP request to the stack, as any client would make it. */
async function http(method: string, path: string, body?: unknown, token = TEST_API_KEY) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON envelope; each test reads the fields it checks.
  const json: any = text ? JSON.parse(text) : undefined;
  return { status: response.status, json };
}

/** A project of its own per test, so each claim takes only the issues its test made. */
async function project(name: string): Promise<string> {
  const { status, json } = await http("POST", "/api/projects", { name });
  expect(status).toBe(201);
  return json.data.id;
}

/** A `todo` task in `projectId`, claimed over HTTP with the key: the dispatch a token-only server works for. */
async function claimOverHttp(projectId: string, title: string) {
  const created = await http("POST", "/api/issues", { title, type: "task", status: "todo", projectId });
  expect(created.status).toBe(201);
  const claim = await http("POST", "/api/dispatch/claim", { agent: "http-agent", projectId });
  expect(claim.status).toBe(201);
  expect(claim.json.data.issue.id).toBe(created.json.data.id);
  return claim.json.data as {
    dispatch: { id: string; token: string; promptId: string };
    issue: { id: string; identifier: string };
  };
}

describe("kaizen MCP server over stdio", () => {
  it("offers every tool with the service key, each with a title, a description and an object input schema", async () => {
    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        "claim_next_issue",
        ...TOKEN_TOOLS,
        "list_issues",
        "create_issue",
        "update_issue",
        "merge_issue",
        "send_signal",
        "list_experiments",
        "get_experiment",
      ]),
    );
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
    }
    const complete = tools.find((tool) => tool.name === "complete_dispatch");
    expect(complete?.inputSchema.required).toEqual(["result", "summary"]);
    expect(client.getInstructions()).toContain("claim_next_issue");
  });

  it("runs the loop: signal → triage → todo → claim → heartbeat → comment → complete → review", async () => {
    const projectId = await project("mcp loop");
    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });

    const signal = await ok(client, "send_signal", {
      source: "mcp-test",
      type: "checkout.timeout",
      title: "Checkout times out under load",
      severity: "high",
      payload: { p99Ms: 4200 },
      projectId,
    });
    expect(signal.data.signal.action).toBe("opened");
    expect(signal.data.issue).toMatchObject({ status: "triage", type: "signal", projectId, priority: 2 });
    const issueId: string = signal.data.issue.id;
    const identifier: string = signal.data.issue.identifier;

    // The same problem reported again under another name: merged into the first.
    const duplicate = await ok(client, "send_signal", {
      source: "mcp-test",
      type: "checkout.slow",
      title: "Checkout is slow",
      severity: "medium",
      projectId,
    });
    const merged = await ok(client, "merge_issue", { issueId: duplicate.data.issue.identifier, intoId: identifier });
    expect(merged.data).toMatchObject({
      id: issueId,
      signalCount: 2,
      fingerprints: ["manual:mcp-test:checkout.timeout", "manual:mcp-test:checkout.slow"],
    });
    expect(merged.text).toContain(`Merged ${duplicate.data.issue.identifier} into ${identifier}.`);

    const triage = await ok(client, "list_issues", { status: "triage", projectId });
    expect(triage.data.total).toBe(1);
    expect(triage.data.data[0].id).toBe(issueId);

    const read = await ok(client, "get_issue", { issueId: identifier });
    expect(read.data.id).toBe(issueId);
    expect(read.data.signals.map((s: { id: string }) => s.id)).toEqual([
      duplicate.data.signal.id,
      signal.data.signal.id,
    ]);

    const queued = await ok(client, "update_issue", { issueId: identifier, status: "todo", priority: 1 });
    expect(queued.data).toMatchObject({ id: issueId, status: "todo", priority: 1 });

    const claim = await ok(client, "claim_next_issue", { agent: "mcp-agent", projectId, leaseSeconds: 600 });
    const dispatchId: string = claim.data.dispatch.id;
    expect(claim.data.issue).toMatchObject({ id: issueId, status: "in_progress" });
    expect(claim.data.dispatch.token).toMatch(/^kzd_/);
    expect(claim.data.prompt.text).toContain(dispatchId);
    // The prompt itself is one of the text parts, for the agent to read as its instructions.
    expect(claim.text).toContain(claim.data.prompt.text);
    const promptId: string = claim.data.prompt.id;

    const beat = await ok(client, "heartbeat");
    expect(beat.data).toMatchObject({ id: dispatchId, status: "active" });
    expect(beat.data.heartbeatAt).not.toBeNull();

    const comment = await ok(client, "add_comment", {
      body: "Found it: the payment client has no timeout.",
      authorName: "mcp-agent",
      authorType: "agent",
    });
    expect(comment.data).toMatchObject({ issueId, authorType: "agent" });

    const done = await ok(client, "complete_dispatch", {
      result: "done",
      summary: "Added a 2 s timeout and a retry with backoff to the payment client",
      commits: [{ sha: "0123abcd", message: "Time out payment calls" }],
      pullRequests: [{ number: 42, title: `${identifier}: time out payment calls` }],
      usage: { inputTokens: 51_000, costUsd: 0.18, model: "mcp-model" },
    });
    expect(done.data.dispatch).toMatchObject({ id: dispatchId, status: "completed" });
    expect(done.data.dispatch.usage).toEqual({
      inputTokens: 51_000,
      outputTokens: null,
      costUsd: 0.18,
      model: "mcp-model",
    });
    // The pull request is open: the issue waits in review.
    expect(done.data.issue).toMatchObject({ id: issueId, status: "in_review" });

    // After completion the dispatch's token is dead: the review goes out with the key.
    const review = await ok(client, "review_prompt", {
      clarity: 5,
      completeness: 4,
      relevance: 5,
      feedback: "Clear; the payload could name the endpoint.",
      authorType: "agent",
      authorName: "mcp-agent",
    });
    expect(review.data).toMatchObject({ promptId, clarity: 5, completeness: 4, relevance: 5 });

    const issue = await http("GET", `/api/issues/${issueId}`);
    expect(issue.json.data).toMatchObject({
      status: "in_review",
      agentSummary: "Added a 2 s timeout and a retry with backoff to the payment client",
      commits: [expect.objectContaining({ sha: "0123abcd" })],
      pullRequests: [expect.objectContaining({ number: 42 })],
    });
    const dispatch = await http("GET", `/api/dispatch/${dispatchId}`);
    expect(dispatch.json.data).toMatchObject({ status: "completed", agent: "mcp-agent" });
    const reviews = await http("GET", `/api/prompts/${promptId}/reviews`);
    expect(reviews.json.total).toBe(1);
    expect(reviews.json.data[0]).toMatchObject({ clarity: 5, completeness: 4, relevance: 5, authorType: "agent" });
    const comments = await http("GET", `/api/issues/${issueId}/comments`);
    expect(comments.json.data.map((c: { body: string }) => c.body)).toEqual([
      "Found it: the payment client has no timeout.",
    ]);

    const empty = await ok(client, "claim_next_issue", { agent: "mcp-agent", projectId });
    expect(empty.data).toEqual({ dispatch: null, issue: null, prompt: null });
  });

  it("claims within the connected repository's project (KAIZEN_PROJECT) unless the agent names another", async () => {
    const [mine, other] = [await project("mcp connected"), await project("mcp elsewhere")];
    const urgentElsewhere = await http("POST", "/api/issues", {
      title: "Urgent, in another project",
      type: "task",
      status: "todo",
      priority: 1,
      projectId: other,
    });
    const ours = await http("POST", "/api/issues", {
      title: "Ours, less urgent",
      type: "task",
      status: "todo",
      priority: 4,
      projectId: mine,
    });
    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY, KAIZEN_PROJECT: mine });
    const claimed = await ok(client, "claim_next_issue", { agent: "connected-agent" });
    expect(claimed.data.issue.id).toBe(ours.json.data.id);
    const named = await ok(client, "claim_next_issue", { agent: "connected-agent", projectId: other });
    expect(named.data.issue.id).toBe(urgentElsewhere.json.data.id);
  });

  it("reads a template's experiments with read-only tools, exactly as the API shows them", async () => {
    // A template no other test's issue matches: version 1 active, a draft 2 tried on 20 % of its claims.
    const created = await http("POST", "/api/templates", {
      slug: "mcp-experimented",
      name: "Experimented over MCP",
      conditions: { labels: ["mcp-experiment"] },
      content: "Control",
    });
    expect(created.status).toBe(201);
    const draft = await http("POST", "/api/templates/mcp-experimented/versions", { content: "Candidate" });
    expect(draft.status).toBe(201);
    const started = await http("POST", "/api/templates/mcp-experimented/experiments", {
      candidateVersionId: draft.json.data.id,
      trafficPercent: 20,
      minSamples: 5,
    });
    expect(started.status).toBe(201);
    const experimentId: string = started.json.data.id;

    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });
    expect(client.getInstructions()).toContain("list_experiments and get_experiment");
    const { tools } = await client.listTools();
    for (const name of ["list_experiments", "get_experiment"]) {
      const tool = tools.find((each) => each.name === name);
      expect(tool?.annotations?.readOnlyHint, name).toBe(true);
      // The arms' figures an agent reads, the outcomes of their work among them.
      for (const figure of ["completionRate", "verifiedRate", "reviewScore", "costUsd", "merged", "reworked"])
        expect(tool?.description, `${name}: ${figure}`).toContain(figure);
    }
    expect(tools.find((tool) => tool.name === "get_experiment")?.description).toContain(
      "completion rate, review score or verified rate",
    );
    const listed = await ok(client, "list_experiments", { templateId: "mcp-experimented" });
    const overHttp = await http("GET", "/api/templates/mcp-experimented/experiments");
    expect(listed.data).toEqual({ total: 1, data: overHttp.json.data });
    expect(listed.data.data[0]).toMatchObject({ id: experimentId, status: "running", trafficPercent: 20 });

    const one = await ok(client, "get_experiment", { templateId: created.json.data.id, experimentId });
    expect(one.data).toEqual(
      (await http("GET", `/api/templates/mcp-experimented/experiments/${experimentId}`)).json.data,
    );
    expect(one.data.arms.candidate).toMatchObject({
      versionId: draft.json.data.id,
      versionNumber: 2,
      claims: 0,
      merged: 0,
      verifiedRate: null,
    });

    const stopped = await http("DELETE", `/api/templates/mcp-experimented/experiments/${experimentId}`);
    expect(stopped.status).toBe(200);
    const after = await ok(client, "get_experiment", { templateId: "mcp-experimented", experimentId });
    expect(after.data).toMatchObject({ status: "stopped", decision: { outcome: "stopped" } });

    const missing = await call(client, "get_experiment", {
      templateId: "mcp-experimented",
      experimentId: "exp_01JAAAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(
      "Kaizen API 404: Experiment exp_01JAAAAAAAAAAAAAAAAAAAAAAA of template mcp-experimented not found",
    );
    const noTemplate = await call(client, "list_experiments", { templateId: "no-such-template" });
    expect(noTemplate.isError).toBe(true);
    expect(noTemplate.text).toContain("Kaizen API 404: Template no-such-template not found");
  });

  it("says why a claim took nothing when a project's limits held its issues back", async () => {
    const limited = (await http("POST", "/api/projects", { name: "mcp limited", limits: { maxActivePerAgent: 1 } }))
      .json.data.id as string;
    for (const title of ["Limited one", "Limited two"])
      await http("POST", "/api/issues", { title, type: "task", status: "todo", projectId: limited });
    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });
    await ok(client, "claim_next_issue", { agent: "mcp-limited", projectId: limited });
    const refused = await call(client, "claim_next_issue", { agent: "mcp-limited", projectId: limited });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      `Kaizen API 429: Agent mcp-limited holds 1 active dispatch of project ${limited} (limits.maxActivePerAgent is 1)`,
    );
    expect(refused.text).toContain("Try again in 30 s.");
    expect(refused.data).toMatchObject({ status: 429, retryAfterSeconds: 30 });

    const budgeted = (await http("POST", "/api/projects", { name: "mcp budget", limits: { dailyCostBudgetUsd: 0.2 } }))
      .json.data.id as string;
    for (const title of ["Paid", "Unpaid"])
      await http("POST", "/api/issues", { title, type: "task", status: "todo", projectId: budgeted });
    const paid = await ok(client, "claim_next_issue", { agent: "mcp-payer", projectId: budgeted });
    await ok(client, "complete_dispatch", { result: "done", summary: "Paid for", usage: { costUsd: 0.25 } });
    expect(paid.data.issue.title).toBe("Paid");
    const stopped = await ok(client, "claim_next_issue", { agent: "mcp-payer", projectId: budgeted });
    expect(stopped.data).toEqual({ dispatch: null, issue: null, prompt: null, stopped: "daily-cost-budget" });
    expect(stopped.text).toContain("spent today's cost budget");
  });

  it("answers API failures as error results with the API's message and details, and keeps serving", async () => {
    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });
    const missing = await call(client, "get_issue", { issueId: "KZN-99999" });
    const overHttp = await http("GET", "/api/issues/KZN-99999");
    expect(overHttp.status).toBe(404);
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(`Kaizen API 404: ${overHttp.json.error}`);
    expect(missing.data).toMatchObject({ status: 404, error: overHttp.json.error });

    const badLabel = await call(client, "create_issue", { title: "Labelled", type: "task", labels: ["no-such"] });
    expect(badLabel.isError).toBe(true);
    expect(badLabel.text).toMatch(/^Kaizen API 400: /);
    expect(badLabel.text).toContain("labels");

    // The tool's own schema (the API's) refuses what the API would, before any request.
    const badRating = await call(client, "review_prompt", {
      promptId: "prm_01JD0000000000000000000000",
      clarity: 6,
      completeness: 1,
      relevance: 1,
      authorType: "agent",
    });
    expect(badRating.isError).toBe(true);
    expect(badRating.text).toContain("must be an integer from 1 to 5");

    // Without a dispatch there is nothing to default to.
    const noDispatch = await call(client, "heartbeat");
    expect(noDispatch.isError).toBe(true);
    expect(noDispatch.text).toContain("No dispatch in this session");

    const stillServing = await ok(client, "list_issues", { limit: "1" });
    expect(stillServing.data.total).toBeGreaterThanOrEqual(0);
  });

  it("with only a dispatch token offers exactly the tools whose routes take one, all of which work", async () => {
    const projectId = await project("mcp token");
    const first = await claimOverHttp(projectId, "Token-only agent's task");
    const client = await mcp({ KAIZEN_DISPATCH_TOKEN: first.dispatch.token });

    const { tools } = await client.listTools();
    const offered = tools.map((tool) => tool.name);
    expect(offered.sort()).toEqual([...TOKEN_TOOLS].sort());
    expect(client.getInstructions()).toContain(first.dispatch.id);

    // Offering nothing it would be refused: every tool it leaves out names a route that answers the token 403,
    // even on the token's own issue.
    for (const tool of TOOLS.filter((tool) => !offered.includes(tool.name))) {
      expect(tokenMayCall(tool.route), tool.name).toBe(false);
      const [method = "", path = ""] = tool.route.split(" ");
      const answer = await http(
        method,
        path.replace(":id", first.issue.id),
        method === "GET" ? undefined : {},
        first.dispatch.token,
      );
      expect(answer.status, tool.route).toBe(403);
      expect(answer.json.error).toBe("Token not allowed for this resource");
    }

    // Refusing nothing it offers: each tool, on the token's own dispatch with ids left to default.
    const read = await ok(client, "get_issue", { issueId: first.issue.identifier });
    expect(read.data).toMatchObject({ id: first.issue.id });
    const beat = await ok(client, "heartbeat");
    expect(beat.data).toMatchObject({ id: first.dispatch.id, status: "active" });
    const said = await ok(client, "post_activity", { type: "thought", body: "Reading the trace" });
    expect(said.data).toMatchObject({ dispatchId: first.dispatch.id, sequence: 1, authorType: "agent" });
    const heard = await ok(client, "list_activities", { after: "0" });
    expect(heard.data).toMatchObject({ data: [{ sequence: 1, body: "Reading the trace" }], total: 1 });
    const comment = await ok(client, "add_comment", {
      body: "Working on it",
      authorName: "token-agent",
      authorType: "agent",
    });
    expect(comment.data.issueId).toBe(first.issue.id);
    const review = await ok(client, "review_prompt", {
      clarity: 4,
      completeness: 4,
      relevance: 3,
      authorType: "agent",
    });
    expect(review.data.promptId).toBe(first.dispatch.promptId);
    // The token is scoped by the API: another issue is a 403.
    const other = await http("POST", "/api/issues", { title: "Someone else's", type: "task" });
    const outside = await call(client, "add_comment", {
      issueId: other.json.data.id,
      body: "Not mine",
      authorName: "token-agent",
      authorType: "agent",
    });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain("Kaizen API 403: Token not allowed for this resource");
    const failed = await ok(client, "complete_dispatch", { result: "failed", summary: "The sandbox has no network" });
    expect(failed.data.dispatch.status).toBe("failed");
    expect(failed.data.issue.status).toBe("todo");

    // Once its dispatch ended, the token is refused, and the answer says why.
    const late = await call(client, "heartbeat");
    expect(late.isError).toBe(true);
    expect(late.text).toContain("Kaizen API 401");
    expect(late.text).toContain("stops working when its dispatch ends");

    // release_dispatch, with the token of the next attempt at the same issue.
    const second = await http("POST", "/api/dispatch/claim", { agent: "http-agent", projectId });
    expect(second.json.data.issue.id).toBe(first.issue.id);
    const releaser = await mcp({ KAIZEN_DISPATCH_TOKEN: second.json.data.dispatch.token });
    const released = await ok(releaser, "release_dispatch");
    expect(released.data.dispatch).toMatchObject({ id: second.json.data.dispatch.id, status: "released" });
    expect(released.data.issue.status).toBe("todo");

    const comments = await http("GET", `/api/issues/${first.issue.id}/comments`);
    expect(comments.json.data.map((c: { body: string }) => c.body)).toEqual(["Working on it"]);
    const reviews = await http("GET", `/api/prompts/${first.dispatch.promptId}/reviews`);
    expect(reviews.json.total).toBe(1);
  });

  it("lets a person steer an agent: answer its question, send its plan back, approve the next, stop it", async () => {
    const projectId = (
      await http("POST", "/api/projects", {
        name: "mcp steering",
        autonomy: { planApproval: true },
        limits: { maxCostPerDispatchUsd: 1 },
      })
    ).json.data.id as string;
    const held = await claimOverHttp(projectId, "Steered over MCP");
    const id = held.dispatch.id;
    const agent = await mcp({ KAIZEN_DISPATCH_TOKEN: held.dispatch.token });
    const person = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });
    expect(agent.getInstructions()).toContain("post_activity type elicitation");
    expect(person.getInstructions()).toContain("send_message answers a question");
    const dispatchNow = async () => (await http("GET", `/api/dispatch/${id}`)).json.data;

    // The agent asks, with its running usage; the dispatch waits, and a heartbeat only records the usage.
    const question = await ok(agent, "post_activity", {
      type: "elicitation",
      body: "Keep the v1 endpoint?",
      usage: { costUsd: 0.1, model: "mcp-model" },
    });
    expect(question.data).toMatchObject({ sequence: 1, type: "elicitation", authorType: "agent" });
    expect(await dispatchNow()).toMatchObject({ status: "waiting", waitingFor: "input", planApproved: false });
    const beat = await ok(agent, "heartbeat", { usage: { costUsd: 0.2, inputTokens: 900 } });
    expect(beat.data).toMatchObject({
      status: "waiting",
      costBudgetUsd: 1,
      usage: { costUsd: 0.2, inputTokens: 900, model: "mcp-model" },
    });

    // The person answers; the agent reads the answer after its question and works again.
    const answer = await ok(person, "send_message", { dispatchId: id, body: "Yes, keep it" });
    expect(answer.data).toMatchObject({ sequence: 2, type: "message", authorType: "human", dispatchId: id });
    expect(answer.text).toContain(`Sent message 2 to ${id}.`);
    const heard = await ok(agent, "list_activities", { after: "1" });
    expect(heard.data).toMatchObject({ total: 1, data: [{ sequence: 2, body: "Yes, keep it" }] });
    expect(await dispatchNow()).toMatchObject({ status: "active", waitingFor: null });

    // A plan waits for approval: done is refused until a person approves the latest one.
    await ok(agent, "post_activity", { type: "plan", body: "1. Retry the call\n2. Test it" });
    expect(await dispatchNow()).toMatchObject({ status: "waiting", waitingFor: "approval" });
    const early = await call(agent, "complete_dispatch", { result: "done", summary: "Done" });
    expect(early.isError).toBe(true);
    expect(early.text).toContain("Kaizen API 409: Plan approval required: post a plan activity and wait for approval");
    const rejected = await ok(person, "reject_plan", { dispatchId: id, feedback: "Test it first" });
    expect(rejected.data).toMatchObject({
      dispatch: { id, status: "active", planApproved: false },
      activity: { type: "message", body: "Test it first", data: { decision: "rejected" } },
    });
    const twice = await call(person, "reject_plan", { dispatchId: id, feedback: "Again" });
    expect(twice.isError).toBe(true);
    expect(twice.text).toContain(`Kaizen API 409: Dispatch ${id} is not waiting for approval`);
    await ok(agent, "post_activity", { type: "plan", body: "1. Test it\n2. Retry the call" });
    const approved = await ok(person, "approve_plan", { dispatchId: id, comment: "Go ahead" });
    expect(approved.data).toMatchObject({
      dispatch: { id, status: "active", planApproved: true },
      activity: { sequence: 6, body: "Go ahead", data: { decision: "approved" } },
    });
    const decisions = await ok(agent, "list_activities", { after: "5" });
    expect(decisions.data.data).toMatchObject([{ type: "message", data: { decision: "approved" } }]);

    // The person stops it (the body as JSON text: the linter keeps a `then` key out of object literals).
    const stopped = await ok(
      person,
      "stop_dispatch",
      JSON.parse(`{"dispatchId": "${id}", "reason": "Enough for today", "then": "backlog"}`),
    );
    expect(stopped.data).toMatchObject({
      dispatch: { id, status: "stopped", stopReason: "Enough for today" },
      issue: { id: held.issue.id, status: "backlog" },
    });
    const late = await call(agent, "heartbeat");
    expect(late.isError).toBe(true);
    expect(late.text).toContain("Kaizen API 409: Dispatch was stopped: Enough for today");
    // A stopped dispatch's token still reads what was said.
    expect((await ok(agent, "list_activities", {})).data.total).toBe(6);
    const again = await call(person, "stop_dispatch", { dispatchId: id, reason: "Twice" });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("Kaizen API 409");

    // A cost past the budget per dispatch stops the next dispatch on the call that reports it.
    const next = await claimOverHttp(projectId, "Costly over MCP");
    const costly = await mcp({ KAIZEN_DISPATCH_TOKEN: next.dispatch.token });
    const over = await call(costly, "post_activity", { type: "action", body: "Ran it all", usage: { costUsd: 1.5 } });
    expect(over.isError).toBe(true);
    expect(over.text).toContain("Kaizen API 409: Dispatch was stopped: Cost budget passed: $1.5 reported");
    expect((await http("GET", `/api/dispatch/${next.dispatch.id}`)).json.data).toMatchObject({
      status: "stopped",
      usage: { costUsd: 1.5 },
    });
  });

  it("with the key and a token offers every tool, defaults to the token's dispatch, and falls back to the key once the token ends", async () => {
    const projectId = await project("mcp both");
    const held = await claimOverHttp(projectId, "Both credentials");
    const client = await mcp({ KAIZEN_API_KEY: TEST_API_KEY, KAIZEN_DISPATCH_TOKEN: held.dispatch.token });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));

    const beat = await ok(client, "heartbeat");
    expect(beat.data.id).toBe(held.dispatch.id);

    // The dispatch ends behind the server's back; its token is refused, the key takes over.
    const completed = await http("POST", `/api/dispatch/${held.dispatch.id}/complete`, {
      result: "done",
      summary: "Finished elsewhere",
    });
    expect(completed.status).toBe(200);
    const review = await ok(client, "review_prompt", {
      clarity: 3,
      completeness: 3,
      relevance: 3,
      authorType: "agent",
    });
    expect(review.data.promptId).toBe(held.dispatch.promptId);
    const late = await call(client, "heartbeat");
    expect(late.isError).toBe(true);
    expect(late.text).toContain(`Kaizen API 409: Dispatch ${held.dispatch.id} is completed`);
  });

  it("refuses to start without a credential, saying which to set", () => {
    const run = spawnSync(process.execPath, [KAIZEN, "mcp"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, KAIZEN_URL: url },
      input: "",
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("No credential: set KAIZEN_API_KEY");
  });
});

describe("kaizen MCP server with a key of its own", () => {
  /** A key holding `scopes`, made with the service key: its text and id. */
  async function apiKey(name: string, scopes: string[]): Promise<{ id: string; key: string }> {
    const { status, json } = await http("POST", "/api/keys", { name, scopes });
    expect(status).toBe(201);
    return { id: json.data.id, key: json.data.key };
  }

  const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

  it("offers a read key only tools that change nothing, a write key no claim, and the root key every tool", async () => {
    const reader = await apiKey("mcp-reader", ["read"]);
    const client = await mcp({ KAIZEN_API_KEY: reader.key });
    const { tools } = await client.listTools();
    expect(names(tools)).toEqual(["get_issue", "list_activities", "list_issues", "list_experiments", "get_experiment"]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    expect(names(tools)).not.toContain("create_issue");
    expect(client.getInstructions()).toContain("holds the scopes read");
    expect(client.getInstructions()).not.toContain("claim_next_issue");

    // Offering nothing it would be refused: each tool it leaves out names a route that answers the key
    // 403, naming the scope the route table declares for it.
    for (const tool of TOOLS.filter((tool) => !names(tools).includes(tool.name))) {
      const [method = "", path = ""] = tool.route.split(" ");
      const answer = await http(method, path.replace(":id", "KZN-1"), method === "GET" ? undefined : {}, reader.key);
      expect(answer.status, tool.route).toBe(403);
      expect(answer.json.error, tool.route).toBe(`Key mcp-reader lacks the ${routeSpec(tool.route).scope} scope`);
    }
    // Refusing nothing it offers.
    const listed = await ok(client, "list_issues", { limit: "1" });
    expect(listed.data.total).toBeGreaterThanOrEqual(0);

    const writer = await apiKey("mcp-writer", ["write"]);
    const written = names((await (await mcp({ KAIZEN_API_KEY: writer.key })).listTools()).tools);
    expect(written).toEqual(expect.arrayContaining(["create_issue", "update_issue", "send_message", "add_comment"]));
    for (const name of ["claim_next_issue", "heartbeat", "complete_dispatch", "release_dispatch"]) {
      expect(written, name).not.toContain(name);
    }

    const root = await mcp({ KAIZEN_API_KEY: TEST_API_KEY });
    const everything = names((await root.listTools()).tools);
    expect(everything).toEqual(names(TOOLS));
    expect(everything).toContain("create_issue");
    expect(root.getInstructions()).not.toContain("holds the scopes");
  });

  it("offers a dispatch key, refused by GET /api/me, the claim and its dispatch's tools, which work; a 403 is the tool's error", async () => {
    const fleet = await apiKey("mcp-fleet", ["dispatch"]);
    const me = await http("GET", "/api/me", undefined, fleet.key);
    expect(me).toEqual({ status: 403, json: { error: "Key mcp-fleet lacks the read scope" } });

    const client = await mcp({ KAIZEN_API_KEY: fleet.key });
    const offered = names((await client.listTools()).tools);
    expect(offered).toEqual(names(TOOLS).filter((name) => name === "claim_next_issue" || TOKEN_TOOLS.includes(name)));
    expect(offered).toContain("get_issue");
    expect(offered).not.toContain("create_issue");
    expect(client.getInstructions()).toContain("holds the scopes dispatch");

    // The loop, with the key's claim and the claimed dispatch's token.
    const projectId = await project("mcp fleet");
    const created = await http("POST", "/api/issues", {
      title: "Fleet's task",
      type: "task",
      status: "todo",
      projectId,
    });
    const claim = await ok(client, "claim_next_issue", { agent: "fleet-agent", projectId });
    expect(claim.data.issue.id).toBe(created.json.data.id);
    const dispatchId: string = claim.data.dispatch.id;
    expect((await ok(client, "heartbeat")).data).toMatchObject({ id: dispatchId, status: "active" });
    // Its claimed issue is read with the claim's token, which the key (no read scope) could not.
    expect((await ok(client, "get_issue", { issueId: claim.data.issue.identifier })).data.id).toBe(
      created.json.data.id,
    );
    await ok(client, "post_activity", { type: "thought", body: "On it" });
    expect((await ok(client, "list_activities", {})).data.total).toBe(1);
    const comment = await ok(client, "add_comment", {
      body: "Fleet was here",
      authorName: "fleet",
      authorType: "agent",
    });
    expect(comment.data.issueId).toBe(created.json.data.id);
    await ok(client, "review_prompt", { clarity: 4, completeness: 4, relevance: 4, authorType: "agent" });
    const done = await ok(client, "complete_dispatch", { result: "done", summary: "Done by the fleet" });
    expect(done.data.dispatch).toMatchObject({ id: dispatchId, status: "completed" });

    // Another's dispatch: the API's 403, word for word, as the tool's error.
    const other = await claimOverHttp(await project("mcp not the fleet's"), "Someone else's dispatch");
    const overHttp = await http("POST", `/api/dispatch/${other.dispatch.id}/heartbeat`, {}, fleet.key);
    expect(overHttp.status).toBe(403);
    const refused = await call(client, "heartbeat", { dispatchId: other.dispatch.id });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`Kaizen API 403: ${overHttp.json.error}`);
    expect(refused.data).toMatchObject({ status: 403, error: overHttp.json.error });
  });

  it("offers every tool, and says why, when the service cannot tell what the key may do", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [KAIZEN, "mcp"],
      // Nothing listens on port 9: GET /api/me cannot be asked.
      env: { KAIZEN_URL: "http://127.0.0.1:9", KAIZEN_API_KEY: `kaizen_${"ab".repeat(32)}` },
      cwd: ROOT,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "kaizen-mcp-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    expect(names((await client.listTools()).tools)).toEqual(names(TOOLS));
    // Written before the server answered anything; read as the pipe delivers it.
    await expect.poll(() => stderr).toContain("could not learn the key's scopes");
    expect(stderr).toContain("offering every tool");
  });

  it("refuses to start with a key the API refuses, saying so", async () => {
    // Asynchronously: the server answering GET /api/me runs in this process.
    const run = await new Promise<{ code: number | string | null | undefined; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          [KAIZEN, "mcp"],
          {
            cwd: ROOT,
            env: { PATH: process.env.PATH, KAIZEN_URL: url, KAIZEN_API_KEY: `kaizen_${"0".repeat(64)}` },
            timeout: 30_000,
          },
          (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
        );
        child.stdin?.end();
      },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("The API key was refused (401 Missing or malformed Authorization header)");
  });
});
