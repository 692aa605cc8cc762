/**
 * @module client/mcp/server — the Kaizen MCP server (`kaizen mcp`): the tools of client/mcp/tools.ts
 * over the official SDK's stdio transport, offered as far as its credentials allow.
 *
 * Credentials (from `KAIZEN_API_KEY` and `KAIZEN_DISPATCH_TOKEN`, see client/config.ts):
 * - a key alone: at start the server asks `GET /api/me` what the key may do, and offers the tools
 *   whose routes its scopes allow (the route table's declared scopes, client/mcp/access.ts): every
 *   tool with the service key or an `admin` key; with a key that may claim, also the tools its
 *   claims' tokens serve. A key lacking `read` (the 403 of `GET /api/me`) is taken to hold `dispatch`
 *   alone; a service that cannot answer leaves every tool offered, and a refused key (401) stops the
 *   server from starting;
 * - a dispatch token alone: only the tools whose route takes a token (get_issue, heartbeat, post_activity,
 *   list_activities, add_comment, review_prompt, complete_dispatch, release_dispatch — read from the
 *   route table, client/mcp/access.ts), never a person's (send_message, approve_plan, reject_plan,
 *   stop_dispatch), whose routes refuse a dispatch's own token;
 *   the dispatch id comes from the token, and its issue and prompt are learnt from the dispatch's own
 *   heartbeat answer when the agent does not name them;
 * - both: what the key offers and what the token offers; the token serves its own dispatch, the key
 *   everything else.
 * A dispatch this server claims with the key is then worked with that dispatch's token; a token the
 * API refuses (its dispatch ended) gives way to the key (client/mcp/mcp-session.ts).
 *
 * API failures (a 403 of a scope the key lacks among them) come back as tool results with
 * `isError: true` carrying the API's status, message and details; the server keeps running.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Scope } from "../../core/src/routes.js";
import pkg from "../../package.json" with { type: "json" };
import { KaizenApiError } from "../client.js";
import type { Connection } from "../config.js";
import { keyScopes, toolsAllowed } from "./access.js";
import { McpSession, SessionError } from "./mcp-session.js";
import type { KaizenTool } from "./tool-kit.js";
import { TOOLS } from "./tools.js";

/**
 * What the server needs of a connection: where the API is, the credentials it holds and, when known,
 * the key's scopes (undefined: every tool the credentials allow, as for the service key).
 */
export type McpConnection = Pick<Connection, "url" | "apiKey" | "dispatchToken"> & {
  scopes?: readonly Scope[] | undefined;
  /** Sends each API request (the remote MCP endpoint hands them to the API in its own process); the network when unset. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * Served statelessly (the remote MCP endpoint, docs/api.md#remote-mcp): every request is a server
   * of its own, so nothing is remembered from one to the next, and the instructions say so.
   */
  stateless?: boolean | undefined;
};

/**
 * An MCP server (not yet connected) offering the tools `connection`'s credentials allow. Throws a
 * `SessionError` when it holds no credential or a malformed dispatch token.
 * @example const server = createMcpServer({ url: "http://localhost:4242", apiKey, dispatchToken: undefined });
 */
export function createMcpServer(connection: McpConnection): McpServer {
  const tools = toolsAllowed(TOOLS, connection);
  if (tools.length === 0) {
    throw new SessionError(
      "No credential: set KAIZEN_API_KEY (the service key) or KAIZEN_DISPATCH_TOKEN (a claimed dispatch's token)",
    );
  }
  const session = new McpSession(connection);
  const server = new McpServer(
    { name: "kaizen", title: "Kaizen", version: pkg.version },
    { instructions: instructions(connection, session, tools) },
  );
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description}\n\nCalls ${tool.route}.`,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
      },
      (args) => runTool(tool, args, session),
    );
  }
  return server;
}

/**
 * Serves `connection` over stdio until the client closes stdin; what `kaizen mcp` runs. With a key,
 * it first asks `GET /api/me` what the key may do, and offers only the tools that allows; `warn`
 * hears why, when the service could not say (every tool is offered then, and the API still refuses
 * what the key may not do).
 * @example await runMcpServer(resolveConnection(process.env, process.cwd()), (text) => process.stderr.write(`${text}\n`));
 */
export async function runMcpServer(connection: McpConnection, warn: (text: string) => void = () => {}): Promise<void> {
  let scopes = connection.scopes;
  if (connection.apiKey && scopes === undefined) {
    const access = await keyScopes({ url: connection.url, apiKey: connection.apiKey });
    scopes = access.scopes;
    if (access.scopes === undefined) {
      warn(`kaizen mcp: could not learn the key's scopes (${access.reason}); offering every tool`);
    }
  }
  const server = createMcpServer({ ...connection, scopes });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  // The transport does not watch for the end of its input; a client that goes away ends it.
  process.stdin.once("end", () => void server.close());
  await closed;
}

async function runTool(tool: KaizenTool, args: unknown, session: McpSession): Promise<CallToolResult> {
  try {
    return await tool.run(args as Parameters<KaizenTool["run"]>[0], session);
  } catch (error) {
    return errorResult(error);
  }
}

/**
 * A failed call as a tool result the agent can act on: the API's status, message and field details.
 * @example errorResult(new KaizenApiError({ status: 404, error: "Issue KZN-9 not found", … })) // isError, "Kaizen API 404: Issue KZN-9 not found"
 */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof KaizenApiError || (error instanceof SessionError && error.cause instanceof KaizenApiError)) {
    const api = error instanceof KaizenApiError ? error : (error.cause as KaizenApiError);
    const message = error instanceof SessionError ? error.message : api.error;
    const lines = [
      api.status === 0 ? `Kaizen API unreachable: ${message}` : `Kaizen API ${api.status}: ${message}`,
      ...(api.details ?? []).map((detail) => `- ${detail.path}: ${detail.message}`),
    ];
    if (api.retryAfterSeconds !== undefined) lines.push(`Try again in ${api.retryAfterSeconds} s.`);
    if (api.requestId) lines.push(`(request ${api.requestId})`);
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      structuredContent: {
        status: api.status,
        error: message,
        details: api.details ?? [],
        ...(api.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: api.retryAfterSeconds }),
      },
      isError: true,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: "text", text: message }], structuredContent: { error: message }, isError: true };
}

/** What a stateless server (the remote MCP endpoint) adds: a claim is not remembered for the next call. */
const STATELESS =
  "This server keeps nothing between requests: after claim_next_issue, name its dispatchId, issueId and promptId " +
  "in the calls that act on it.";

/** What the server tells the agent at start: the loop, and what its credentials allow (the tools offered). */
function instructions(connection: McpConnection, session: McpSession, tools: readonly KaizenTool[]): string {
  const offered = new Set(tools.map((tool) => tool.name));
  const loop =
    "Kaizen hands you issues to work on. The loop: claim_next_issue, read its prompt, heartbeat during long " +
    "work (with your running usage), post_activity and add_comment as you go, review_prompt, then " +
    "complete_dispatch (done or failed) or release_dispatch.";
  const asking =
    "To ask a person, post_activity type elicitation and read the answer with list_activities after its sequence; " +
    "on a project with plan approval, post_activity type plan and wait for the approval the same way. A 409 " +
    "`Dispatch was stopped: <reason>` means a person or the budget stopped the dispatch: stop working on it.";
  const steering =
    "People steer agents at work: send_message answers a question, approve_plan and reject_plan decide on a plan, " +
    "stop_dispatch stops one.";
  const triageTools = [
    ["list_issues", "list_issues (status triage)"],
    ["get_issue", "get_issue"],
    ["update_issue", "update_issue (status todo queues an issue)"],
    ["create_issue", "create_issue"],
    ["send_signal", "send_signal"],
  ].filter(([name]) => offered.has(name ?? ""));
  const triage = `Triage: ${triageTools.map(([, text]) => text).join(", ")}.`;
  const experiments =
    "Prompt experiments (read-only): list_experiments and get_experiment show how a candidate template version fares against the active one.";
  if (connection.apiKey) {
    const parts = [
      ...(offered.has("claim_next_issue") ? [loop] : []),
      ...(offered.has("post_activity") ? [asking] : []),
      ...(offered.has("send_message") ? [steering] : []),
      ...(triageTools.length > 0 ? [triage] : []),
      ...(offered.has("list_experiments") ? [experiments] : []),
    ];
    if (connection.scopes !== undefined && offered.size < TOOLS.length) {
      parts.push(
        `This server's key holds the scopes ${connection.scopes.join(", ")}: it offers only the tools they allow ` +
          "(a call the API refuses anyway answers its 403).",
      );
    }
    if (connection.stateless) parts.push(STATELESS);
    return parts.join("\n");
  }
  return (
    `You hold the token of dispatch ${session.current?.id}: heartbeat, post_activity, list_activities, add_comment, ` +
    "review_prompt, complete_dispatch and release_dispatch act on it, its issue and its prompt by default; " +
    "get_issue reads its issue. " +
    `Review and comment before completing: the token stops working when the dispatch ends.\n${asking}`
  );
}
