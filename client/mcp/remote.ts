/**
 * @module client/mcp/remote — the remote MCP endpoint, `POST /mcp` (docs/api.md#remote-mcp): the tools of
 * `kaizen mcp` (./server.ts, ./tools.ts) over the official SDK's Streamable HTTP transport, stateless (no
 * session ids) and answering JSON, with a server and a transport of their own for each request.
 *
 * The route is declared in core (core/src/mcp/api.ts) with the other families; its handler lives here,
 * beside the MCP server, because core does not import the client the tools are built on.
 *
 * Who calls is what the app's bearer auth made of the credential (`c.get("caller")`): the root key and
 * API keys get the tools their scopes allow (client/mcp/access.ts), a dispatch token its dispatch's
 * tools. Each tool call is a request to the API in this same process (the API families' app, built once
 * on the same deps, so it shares their services: key checks, revocations, clocks), sent with the
 * caller's own `Authorization`, `User-Agent` and the `/mcp` request's id: every check, scope, reach,
 * audit record and idempotency rule of the API applies exactly as over HTTP. Every family, `mcp` included, is in ./all-families.ts.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context, Hono } from "hono";
import { dispatchFamily } from "../../core/src/dispatch/routes.js";
import { UnauthorizedError } from "../../core/src/errors.js";
import { type AppEnv, type FamilyModules, familyModule, REQUEST_ID_HEADER } from "../../core/src/http/app.js";
import { BEARER_CHALLENGE, BEARER_FAILURE_MESSAGE, presentedCredential } from "../../core/src/http/auth.js";
import { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP_MESSAGE } from "../../core/src/http/body.js";
import { JSON_CONTENT_TYPE, withHeader } from "../../core/src/http/respond.js";
import { issueFamily } from "../../core/src/issues/routes.js";
import { mcpApi } from "../../core/src/mcp/api.js";
import { promptFamily } from "../../core/src/prompts/routes.js";
import { createApp } from "../../core/src/services.js";
import { signalFamily } from "../../core/src/signals/routes.js";
import { templateFamily } from "../../core/src/templates/routes.js";
import { createMcpServer, type McpConnection } from "./server.js";

/** The families a remote MCP server's tools call in process: every one but `mcp` itself. */
export type ApiFamilies = Omit<FamilyModules, "mcp">;

/**
 * The `mcp` family, its tools calling `apiFamilies` in process (those serving every tool's route).
 * @example export const handler = lambdaHandler({ mcp: remoteMcpFamily(TOOL_FAMILIES) });
 */
export function remoteMcpFamily(apiFamilies: ApiFamilies) {
  return familyModule(mcpApi, (deps) => {
    let api: Hono<AppEnv> | undefined;
    return {
      "POST /mcp": async (c) => {
        const request = await checkedRequest(c);
        if (request instanceof Response) return request;
        api ??= createApp(apiFamilies, deps);
        const inner = api;
        const server = createMcpServer({
          ...credentialsOf(c),
          url: new URL(c.req.url).origin,
          fetch: async (sent) => inner.fetch(asPartOf(c, sent)),
          stateless: true,
        });
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        try {
          // With JSON answers, the transport answers once every request of the message has its answer.
          const answer = await transport.handleRequest(request);
          // The API's JSON media type on every JSON answer, as on every other route.
          return answer.headers.get("Content-Type")?.startsWith("application/json")
            ? withHeader(answer, "Content-Type", JSON_CONTENT_TYPE)
            : answer;
        } finally {
          await server.close();
        }
      },
    };
  });
}

/**
 * A tool call's request to the API as part of the `/mcp` request `c`: with its `User-Agent` (or none,
 * as it came) and its request id, so the call's audit record and log line carry them as a request
 * over HTTP would (docs/api.md#remote-mcp), and its id is the one the `/mcp` answer carries.
 */
function asPartOf(c: Context<AppEnv>, sent: Request): Request {
  const headers = new Headers(sent.headers);
  headers.set(REQUEST_ID_HEADER, c.get("requestId"));
  const userAgent = c.req.header("User-Agent");
  if (userAgent === undefined) headers.delete("User-Agent");
  else headers.set("User-Agent", userAgent);
  return new Request(sent, { headers });
}

/** Bytes that are not UTF-8 are refused, never turned into U+FFFD (as http/body reads the API's bodies). */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The request for the transport, its body held to the API's rules first (docs/api.md#remote-mcp): bytes
 * that are not UTF-8, or JSON nested deeper than the API takes, are JSON-RPC's parse error (400) with
 * the API's message. Everything else (`Accept`, `Content-Type`, the JSON and JSON-RPC themselves) is
 * the transport's to check, with the SDK's answers.
 */
async function checkedRequest(c: Context<AppEnv>): Promise<Request | Response> {
  let text: string;
  try {
    text = UTF8.decode(await c.req.arrayBuffer());
  } catch {
    return parseError("Request body is not valid UTF-8");
  }
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return parseError(TOO_DEEP_MESSAGE);
  return new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers, body: text });
}

/** JSON-RPC's parse error, as the transport answers a body that is not JSON. */
function parseError(message: string): Response {
  const body = { jsonrpc: "2.0", error: { code: -32700, message: `Parse error: ${message}` }, id: null };
  return new Response(JSON.stringify(body), { status: 400, headers: { "Content-Type": JSON_CONTENT_TYPE } });
}

/**
 * The MCP connection's credentials for the request's caller: a key (the root key or an API key) with
 * its scopes, or a dispatch token. Bearer auth has let only a valid credential this far.
 */
function credentialsOf(c: Context<AppEnv>): Pick<McpConnection, "apiKey" | "dispatchToken" | "scopes"> {
  const caller = c.get("caller");
  const credential = presentedCredential(c.req.header("Authorization"));
  if (!caller || credential === undefined) throw new UnauthorizedError(BEARER_FAILURE_MESSAGE, { ...BEARER_CHALLENGE });
  return caller.kind === "dispatch"
    ? { apiKey: undefined, dispatchToken: credential }
    : { apiKey: credential, dispatchToken: undefined, scopes: caller.scopes };
}

/**
 * The families whose routes the tools call (tests/unit/mcp/remote.test.ts holds every tool's route to
 * them): what a remote MCP server needs in process, and no more, so the `mcp` function bundles only these.
 */
export const TOOL_FAMILIES = {
  issues: issueFamily,
  signals: signalFamily,
  templates: templateFamily,
  prompts: promptFamily,
  dispatch: dispatchFamily,
} satisfies ApiFamilies;

/** The `mcp` family as the local server and the `mcp` function serve it. */
export const mcpFamily = remoteMcpFamily(TOOL_FAMILIES);
