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
 * caller's own `Authorization`: every check, scope, reach, audit record and idempotency rule of the
 * API applies exactly as over HTTP.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context, Hono } from "hono";
import { UnauthorizedError } from "../../core/src/errors.js";
import { API_FAMILIES } from "../../core/src/families.js";
import { type AppEnv, type FamilyModules, familyModule } from "../../core/src/http/app.js";
import { BEARER_CHALLENGE, BEARER_FAILURE_MESSAGE, presentedCredential } from "../../core/src/http/auth.js";
import { mcpApi } from "../../core/src/mcp/api.js";
import { createApp } from "../../core/src/services.js";
import { createMcpServer, type McpConnection } from "./server.js";

/** The families a remote MCP server's tools call in process: every one but `mcp` itself. */
export type ApiFamilies = Omit<FamilyModules, "mcp">;

/**
 * The `mcp` family, its tools calling `apiFamilies` in process (every API family, so each tool's route
 * is served).
 * @example export const handler = lambdaHandler({ mcp: remoteMcpFamily(API_FAMILIES) });
 */
export function remoteMcpFamily(apiFamilies: ApiFamilies) {
  return familyModule(mcpApi, (deps) => {
    let api: Hono<AppEnv> | undefined;
    return {
      "POST /mcp": async (c) => {
        api ??= createApp(apiFamilies, deps);
        const inner = api;
        const server = createMcpServer({
          ...credentialsOf(c),
          url: new URL(c.req.url).origin,
          fetch: async (request) => inner.fetch(request),
          stateless: true,
        });
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        try {
          // With JSON answers, the transport answers once every request of the message has its answer.
          return await transport.handleRequest(c.req.raw);
        } finally {
          await server.close();
        }
      },
    };
  });
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

/** The `mcp` family as the local server and the `mcp` function serve it: every API family in process. */
export const mcpFamily = remoteMcpFamily(API_FAMILIES);

/** Every family, `mcp` included: what the local server mounts. */
export const ALL_FAMILIES = { ...API_FAMILIES, mcp: mcpFamily } satisfies Required<FamilyModules>;
