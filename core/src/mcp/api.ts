/**
 * @module mcp/api — the `mcp` family's one route (docs/api.md#remote-mcp): the MCP tools of `kaizen mcp`
 * over MCP Streamable HTTP, stateless, answering JSON. Declared here with the other families, so the
 * route table, the gateway and the OpenAPI document carry it; its handler lives with the MCP server
 * (client/mcp/remote.ts), since core does not import the client the tools are built on.
 */
import { type Declarations, TEXT } from "../openapi/declare.js";

export const mcpApi = {
  "POST /mcp": {
    auth: "bearer",
    // Any valid credential: which tools it gets, and what each call may do, is the API's own answer
    // to the calls the tools make in its name.
    anyCaller: true,
    reach: "handler",
    // Each tool call is a request of its own to the API, audited there; 401s here are still recorded.
    audit: false,
    // A JSON-RPC message or batch, read by the MCP transport: a body that is not JSON is its parse error.
    ownBody: true,
    success: { raw: "jsonrpc" },
    doc: TEXT && {
      summary: "Remote MCP",
      description:
        "The Model Context Protocol over Streamable HTTP, stateless (no `Mcp-Session-Id`) and answering JSON, with " +
        "the tools of `kaizen mcp`: `Accept: application/json, text/event-stream` and a JSON-RPC 2.0 message or " +
        "batch. The root key gets every tool, an API key the tools its scopes allow, a dispatch token its " +
        "dispatch's tools; each tool call is checked, scoped and audited as the same call to the API. Anything " +
        "else is a 401 with `WWW-Authenticate: Bearer`. A body that is not JSON answers JSON-RPC's parse error " +
        "(400, -32700); notifications alone answer 202. `GET` and `DELETE` answer 405: there is no stream or " +
        "session to open or end.",
      success: "The JSON-RPC answer (an array for a batch)",
    },
  },
} satisfies Declarations;
