/**
 * The remote MCP endpoint, `POST /mcp` (docs/api.md#remote-mcp), as an MCP client in the cloud meets it:
 * the official SDK's own `Client` over `StreamableHTTPClientTransport` against a real local server on an
 * ephemeral port. The root key (and the previous one, during a rotation) gets every tool of
 * `kaizen mcp`; a `read` key lists and reads only (a write tool is neither listed nor callable); a
 * key narrowed to a project reaches that project only; a dispatch token its dispatch's tools; a tool
 * call is the API's own request in the caller's name (its audit record names the key). Anything but a
 * valid credential is the API's 401 with `WWW-Authenticate: Bearer`, audited; GET and DELETE are 405;
 * the body limit, bodies at the edges and a batch are answered as the API and the SDK answer them.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsAllowed } from "../../client/mcp/access.js";
import { TOOLS } from "../../client/mcp/tools.js";
import { TOO_DEEP_MESSAGE } from "../../core/src/http/body.js";
import { testApp } from "../helpers/app.js";
import { TEST_API_KEY, testConfig } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";
import { TOKEN_TOOLS } from "../helpers/mcp-tools.js";

const UNAUTHORIZED = { error: "Missing or malformed Authorization header" };
const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer("remote_mcp");
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.stop();
});

/** The SDK's client, connected to `POST /mcp` with `credential` as its bearer. */
async function connect(credential: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${credential}` } },
  });
  const client = new Client({ name: "kaizen-remote-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text?: string }[]).map((part) => part.text ?? "").join("\n");
  // biome-ignore lint/suspicious/noExplicitAny: the tools answer with the API's JSON; each test reads what it checks.
  return { isError: result.isError === true, text, data: result.structuredContent as any };
}

/** A plain request to the API with the root key (or `token`), as any HTTP client makes it. */
async function http(method: string, path: string, body?: unknown, token = TEST_API_KEY) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON envelope; each test reads what it checks.
  const json: any = await response.json();
  return { status: response.status, json };
}

async function key(name: string, scopes: string[]): Promise<string> {
  const made = await http("POST", "/api/keys", { name, scopes });
  expect(made.status).toBe(201);
  return made.json.data.key;
}

/** A raw JSON-RPC POST to `/mcp`: what the SDK client sends, written out. */
function post(body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body });
}

const LIST_TOOLS = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

describe("POST /mcp with the root key", () => {
  it("initializes as Kaizen, lists every tool of kaizen mcp and calls them in process", async () => {
    const client = await connect(TEST_API_KEY);
    expect(client.getServerVersion()?.name).toBe("kaizen");
    expect(client.getInstructions()).toContain("keeps nothing between requests");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));

    const created = await call(client, "create_issue", { title: "Remote MCP made this", type: "task" });
    expect(created.isError, created.text).toBe(false);
    expect(created.data.identifier).toMatch(/^KZN-\d+$/);
    const read = await http("GET", `/api/issues/${created.data.id}`);
    expect(read.json.data.title).toBe("Remote MCP made this");
    const listed = await call(client, "list_issues", { q: "remote mcp made" });
    expect(listed.data.data.map((issue: { id: string }) => issue.id)).toEqual([created.data.id]);
  });

  it("records a tool call's change with the /mcp request's User-Agent and request id, as over HTTP", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_issue", arguments: { title: "Made with a user agent", type: "task" } },
    });
    const headers = { Authorization: `Bearer ${TEST_API_KEY}`, "User-Agent": "x/1.0", "X-Request-Id": "rid-1" };
    const answer = await post(body, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("X-Request-Id")).toBe("rid-1");
    const { result } = (await answer.json()) as { result: { structuredContent: { id: string } } };
    const audit = await http("GET", `/api/audit?targetId=${result.structuredContent.id}`);
    expect(audit.json.data).toEqual([
      expect.objectContaining({ method: "POST", path: "/api/issues", userAgent: "x/1.0", requestId: "rid-1" }),
    ]);
  });
});

describe("POST /mcp with the previous root key", () => {
  it("offers every tool during a rotation, and calls the API as the previous root key", async () => {
    const previous = `kaizen_${"9e".repeat(32)}`;
    const base = await testApp();
    const t = await testApp({
      config: {
        ...testConfig({ tableName: base.tableName, endpoint: base.endpoint }),
        serviceApiKeyPrevious: previous,
      },
    });
    const headers = { ...MCP_HEADERS, Authorization: `Bearer ${previous}` };
    const listed = await t.app.request("/mcp", { method: "POST", headers, body: LIST_TOOLS });
    const { result } = (await listed.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "create_issue", arguments: { title: "During a rotation", type: "task" } },
    });
    const created = (await (await t.app.request("/mcp", { method: "POST", headers, body: call })).json()) as {
      result: { structuredContent: { id: string } };
    };
    const audit = await t.app.request(`/api/audit?targetId=${created.result.structuredContent.id}`, {
      headers: { Authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect(((await audit.json()) as { data: { actor: unknown }[] }).data).toEqual([
      expect.objectContaining({ actor: { kind: "root", id: "root-previous", name: "previous root key" } }),
    ]);
  });
});

describe("POST /mcp with an API key", () => {
  it("offers a read key the reads only: a write tool is neither listed nor callable", async () => {
    const reader = await key("remote-reader", ["read"]);
    const client = await connect(reader);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(toolsAllowed(TOOLS, { apiKey: reader, scopes: ["read"] }).map((tool) => tool.name));
    expect(names).toEqual(expect.arrayContaining(["list_issues", "get_issue", "list_experiments", "get_experiment"]));
    for (const write of ["create_issue", "update_issue", "claim_next_issue", "send_signal", "stop_dispatch"]) {
      expect(names).not.toContain(write);
    }
    expect(client.getInstructions()).toContain("holds the scopes read");

    const refused = await call(client, "create_issue", { title: "Not by a reader", type: "task" });
    expect(refused).toMatchObject({ isError: true, text: expect.stringContaining("Tool create_issue not found") });
    const listed = await call(client, "list_issues", { q: "not by a reader" });
    expect(listed).toMatchObject({ isError: false, data: { total: 0 } });
  });

  it("calls the API with the key itself: its change is audited in the key's name", async () => {
    const writer = await key("remote-writer", ["write"]);
    const client = await connect(writer);
    const created = await call(client, "create_issue", { title: "Written remotely", type: "task" });
    expect(created.isError, created.text).toBe(false);
    const audit = await http("GET", `/api/audit?targetId=${created.data.id}`);
    expect(audit.json.data).toEqual([
      expect.objectContaining({
        actor: { kind: "key", id: expect.stringMatching(/^key_/), name: "remote-writer" },
        method: "POST",
        path: "/api/issues",
        status: 201,
      }),
    ]);
  });

  it("lets a dispatch key claim, and work the dispatch it claimed by naming it", async () => {
    const fleet = await key("remote-fleet", ["dispatch"]);
    const projectId = (await http("POST", "/api/projects", { name: "remote fleet" })).json.data.id;
    await http("POST", "/api/issues", { title: "For the remote fleet", type: "task", status: "todo", projectId });
    const client = await connect(fleet);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["claim_next_issue", ...TOKEN_TOOLS]);
    const claim = await call(client, "claim_next_issue", { agent: "remote-agent", projectId });
    expect(claim.isError, claim.text).toBe(false);
    const dispatchId = claim.data.dispatch.id;
    const beat = await call(client, "heartbeat", { dispatchId });
    expect(beat).toMatchObject({ isError: false, data: { id: dispatchId, status: "active" } });
    // On its issue and prompt, the key does what the dispatch's token does.
    const { issue, prompt } = claim.data;
    expect(await call(client, "get_issue", { issueId: issue.id })).toMatchObject({
      isError: false,
      data: { id: issue.id },
    });
    const comment = { body: "Working on it.", authorName: "remote-agent", authorType: "agent" };
    expect(await call(client, "add_comment", { ...comment, issueId: issue.id })).toMatchObject({ isError: false });
    const review = { clarity: 4, completeness: 4, relevance: 4, authorType: "agent", promptId: prompt.id };
    expect(await call(client, "review_prompt", review)).toMatchObject({ isError: false });
    // Stateless: nothing of the claim is remembered, so a dispatch must be named.
    const unnamed = await call(client, "heartbeat");
    expect(unnamed).toMatchObject({ isError: true, text: expect.stringContaining("pass dispatchId") });
  });
});

describe("POST /mcp with a key narrowed to a project", () => {
  it("reaches only that project's issues, as the API holds the key to them", async () => {
    const mine = (await http("POST", "/api/projects", { name: "narrowed mine" })).json.data.id;
    const theirs = (await http("POST", "/api/projects", { name: "narrowed theirs" })).json.data.id;
    const inMine = (await http("POST", "/api/issues", { title: "Narrowed: mine", type: "task", projectId: mine })).json
      .data;
    const inTheirs = (await http("POST", "/api/issues", { title: "Narrowed: theirs", type: "task", projectId: theirs }))
      .json.data;
    const made = await http("POST", "/api/keys", { name: "remote-narrowed", scopes: ["read"], projectIds: [mine] });
    const client = await connect(made.json.data.key);
    const listed = await call(client, "list_issues", { q: "narrowed:" });
    expect(listed.data.data.map((issue: { id: string }) => issue.id)).toEqual([inMine.id]);
    const hidden = await call(client, "get_issue", { issueId: inTheirs.id });
    expect(hidden).toMatchObject({ isError: true, data: { status: 404 } });
  });
});

describe("POST /mcp with a dispatch token", () => {
  it("offers its dispatch's tools only, acting on its own dispatch by default", async () => {
    const projectId = (await http("POST", "/api/projects", { name: "remote token" })).json.data.id;
    await http("POST", "/api/issues", { title: "For a token", type: "task", status: "todo", projectId });
    const claim = await http("POST", "/api/dispatch/claim", { agent: "token-agent", projectId });
    expect(claim.status).toBe(201);
    const { id, token } = claim.json.data.dispatch;
    const client = await connect(token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOKEN_TOOLS);
    expect(client.getInstructions()).toContain(`You hold the token of dispatch ${id}`);
    const beat = await call(client, "heartbeat");
    expect(beat).toMatchObject({ isError: false, data: { id, status: "active" } });
    const comment = await call(client, "add_comment", {
      body: "Working on it, remotely.",
      authorName: "token-agent",
      authorType: "agent",
    });
    expect(comment.isError, comment.text).toBe(false);
    // It reads its own issue; a tool whose route takes no token is not there at all.
    expect(await call(client, "get_issue", { issueId: claim.json.data.issue.id })).toMatchObject({
      isError: false,
      data: { id: claim.json.data.issue.id },
    });
    expect(await call(client, "list_issues", {})).toMatchObject({
      isError: true,
      text: expect.stringContaining("Tool list_issues not found"),
    });
  });
});

describe("POST /mcp refuses what is not a valid credential", () => {
  it("answers the API's 401 with WWW-Authenticate: Bearer, whatever is wrong", async () => {
    const revoked = await key("remote-revoked", ["admin"]);
    const revokedId = (await http("GET", "/api/keys")).json.data.find(
      (made: { name: string }) => made.name === "remote-revoked",
    ).id;
    expect((await http("DELETE", `/api/keys/${revokedId}`)).status).toBe(200);
    const cases: Record<string, Record<string, string>> = {
      "no header": {},
      "wrong key": { Authorization: `Bearer kaizen_${"0".repeat(64)}` },
      "revoked key": { Authorization: `Bearer ${revoked}` },
      "malformed header": { Authorization: `Basic ${TEST_API_KEY}` },
      "ended dispatch's token": { Authorization: `Bearer kzd_01ARZ3NDEKTSV4RRFFQ69G5FAV_${"a".repeat(64)}` },
    };
    for (const [what, headers] of Object.entries(cases)) {
      const response = await post(LIST_TOOLS, headers);
      expect({ status: response.status, challenge: response.headers.get("WWW-Authenticate") }, what).toEqual({
        status: 401,
        challenge: "Bearer",
      });
      expect(await response.json(), what).toEqual(UNAUTHORIZED);
    }
    // Each refusal is recorded like any 401 of the API.
    const refusals = await http("GET", "/api/audit?status=401&limit=100");
    const atMcp = refusals.json.data.filter((record: { path: string }) => record.path === "/mcp");
    expect(atMcp.length).toBeGreaterThanOrEqual(Object.keys(cases).length);
    expect(atMcp[0]).toMatchObject({ method: "POST", status: 401, actor: null });
    // The SDK's client cannot initialize, and says why.
    await expect(connect(`kaizen_${"1".repeat(64)}`)).rejects.toThrow(UNAUTHORIZED.error);
  });
});

describe("/mcp as HTTP", () => {
  it("answers GET and DELETE 405 with Allow: POST: a stateless server has no stream or session", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/mcp`, {
        method,
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, Accept: "text/event-stream" },
      });
      expect({ status: response.status, allow: response.headers.get("Allow") }, method).toEqual({
        status: 405,
        allow: "POST",
      });
      expect(await response.json()).toEqual({ error: "Method not allowed" });
    }
  });

  it("answers a body that is not JSON with JSON-RPC's parse error", async () => {
    const response = await post("{not json", { Authorization: `Bearer ${TEST_API_KEY}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
  });

  it("holds the body to the API's edges, answering JSON-RPC's parse error: not UTF-8, too deep, not a message", async () => {
    const auth = { Authorization: `Bearer ${TEST_API_KEY}` };
    const notUtf8 = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
    const cases: [string, string | Buffer, string][] = [
      ["not UTF-8", notUtf8, "Parse error: Request body is not valid UTF-8"],
      ["10,000 levels deep", deep, `Parse error: ${TOO_DEEP_MESSAGE}`],
    ];
    for (const [what, body, message] of cases) {
      const response = await fetch(`${server.url}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...auth }, body });
      expect(response.status, what).toBe(400);
      expect(response.headers.get("Content-Type"), what).toBe("application/json; charset=utf-8");
      expect(await response.json(), what).toEqual({ jsonrpc: "2.0", error: { code: -32700, message }, id: null });
    }
    for (const text of ["null", "0", '"text"', "true", '{"x":1,"x":2}']) {
      const response = await post(text, auth);
      expect(response.status, text).toBe(400);
      expect(await response.json(), text).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
    }
    // Duplicate keys keep the last, as the API's bodies do.
    const last = await post('{"jsonrpc":"2.0","id":7,"id":8,"method":"tools/list","method":"ping"}', auth);
    expect(await last.json()).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
  });

  it("refuses a body over 1 MiB with the API's 413", async () => {
    // In process: a real socket may be closed on the client still sending the rest of the body.
    const t = await testApp();
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } });
    const response = await t.app.request("/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${TEST_API_KEY}` },
      body: big,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body exceeds the 1 MiB limit" });
    const within = await t.app.request("/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${TEST_API_KEY}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1000 * 1000) } }),
    });
    expect(await within.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("answers a batch with one answer per request, and notifications alone with 202", async () => {
    const batch = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    const response = await post(batch, { Authorization: `Bearer ${TEST_API_KEY}` });
    expect(response.status).toBe(200);
    const answers = (await response.json()) as { id: number; result: { tools?: unknown[] } }[];
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2]);
    expect(answers.find((answer) => answer.id === 1)?.result.tools).toHaveLength(TOOLS.length);
    const notified = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
      Authorization: `Bearer ${TEST_API_KEY}`,
    });
    expect(notified.status).toBe(202);
  });
});
