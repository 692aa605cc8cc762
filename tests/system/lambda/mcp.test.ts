/**
 * The built mcp bundle (docs/api.md#remote-mcp), invoked as Lambda would with API Gateway HTTP API v2
 * events against DynamoDB Local: MCP's initialize, tools/list and tools/call answered as JSON, each tool
 * call served by the API families bundled in the same function; a wrong key is the API's 401 with
 * `WWW-Authenticate: Bearer`; GET and DELETE, which the gateway sends to `$default`, are the service
 * function's 405.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../../client/mcp/tools.js";
import { apiGatewayEvent, authorizedEvent } from "../../helpers/apigw.js";
import { deployedEnv, type Handler, invoke, loadHandler } from "../../helpers/lambda.js";

const ACCEPT = { Accept: "application/json, text/event-stream" };

function rpc(id: number, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return authorizedEvent("POST /mcp", {
    path: "/mcp",
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    headers: { ...ACCEPT, ...headers },
  });
}

describe("mcp Lambda bundle", () => {
  let handler: Handler;
  beforeAll(async () => {
    handler = await loadHandler("mcp", (await deployedEnv()).env);
  });

  it("initializes, lists every tool and calls them against the API in the same function", async () => {
    const init = await invoke(
      handler,
      rpc(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "lambda-test", version: "1.0.0" },
      }),
    );
    expect(init.statusCode, init.text).toBe(200);
    expect(init.headers["content-type"]).toMatch(/^application\/json/);
    expect(init.headers["mcp-session-id"]).toBeUndefined();
    expect(init.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "kaizen" } } });

    const listed = await invoke(handler, rpc(2, "tools/list"));
    const tools = (listed.json.result as { tools: { name: string }[] }).tools;
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));

    const created = await invoke(
      handler,
      rpc(3, "tools/call", { name: "create_issue", arguments: { title: "From the mcp function", type: "task" } }),
    );
    const made = created.json.result as { isError?: boolean; structuredContent: { id: string } };
    expect(made.isError ?? false, created.text).toBe(false);
    const read = await invoke(
      handler,
      rpc(4, "tools/call", { name: "get_issue", arguments: { issueId: made.structuredContent.id } }),
    );
    expect(read.json.result).toMatchObject({
      structuredContent: { id: made.structuredContent.id, title: "From the mcp function" },
    });
  });

  it("leaves GET and DELETE /mcp to the gateway's $default, whose service function answers 405 Allow: POST", async () => {
    const service = await loadHandler("service", (await deployedEnv()).env);
    for (const method of ["GET", "DELETE"]) {
      const answer = await invoke(
        service,
        apiGatewayEvent({ method, path: "/mcp", routeKey: "$default", headers: { Accept: "text/event-stream" } }),
      );
      expect({ status: answer.statusCode, allow: answer.headers.allow, body: answer.json }, method).toEqual({
        status: 405,
        allow: "POST",
        body: { error: "Method not allowed" },
      });
    }
  });

  it("answers a wrong key with the API's 401 and a Bearer challenge", async () => {
    const refused = await invoke(
      handler,
      rpc(1, "tools/list", {}, { Authorization: `Bearer kaizen_${"0".repeat(64)}` }),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    expect(refused.json).toEqual({ error: "Missing or malformed Authorization header" });
  });
});
