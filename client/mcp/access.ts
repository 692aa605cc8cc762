/**
 * @module client/mcp/access — which MCP tools a credential may use, read from the route table
 * (core/src/routes.ts), so the tools offered cannot drift from what the API accepts:
 * - a key offers the tools whose route its scopes allow (each route's declared `scope`, with
 *   `scopeAllows`); a key that may claim also offers the tools whose route takes a dispatch token,
 *   as each claim's token serves them on its own dispatch, issue and prompt;
 * - a dispatch token offers the tools whose route takes a token (a `token` scope);
 * - a key whose scopes are not known (the service could not say) offers every tool, and the API
 *   still refuses what the key may not do.
 * The key's scopes come from `GET /api/me` ({@link keyScopes}).
 */
import {
  allRoutes,
  type Family,
  type RouteKey,
  type RouteSpec,
  routeKey,
  type Scope,
  scopeAllows,
} from "../../core/src/routes.js";
import { createKaizenClient, KaizenApiError } from "../client.js";
import { SessionError } from "./mcp-session.js";

/** `"POST /api/dispatch/:id/heartbeat"`: a route of the table, checked at compile time. */
export type ApiRouteKey = { [F in Family]: RouteKey<F> }[Family];

/** The credentials an MCP server was started with. */
export interface Credentials {
  apiKey?: string | undefined;
  dispatchToken?: string | undefined;
  /** What the key may do, as `GET /api/me` told it ({@link keyScopes}); undefined when not known. */
  scopes?: readonly Scope[] | undefined;
}

/** What access needs to know of a tool: the route it calls. */
export interface RoutedTool {
  readonly name: string;
  readonly route: ApiRouteKey;
}

/** The claim: a key allowed it gets each claimed dispatch's token, and with it that dispatch's token routes. */
const CLAIM_ROUTE: ApiRouteKey = "POST /api/dispatch/claim";

/** What a key lacking `read` holds, as far as the 403 of `GET /api/me` tells: `write` and `admin` include `read`. */
const WITHOUT_READ: readonly Scope[] = ["dispatch"];

/** Longest wait for `GET /api/me` at start, before the server offers its tools. */
const ME_TIMEOUT_MS = 10_000;

const ROUTES = new Map<string, RouteSpec>(allRoutes().map((route) => [routeKey(route), route]));

/**
 * The route table's entry for `key`; throws for a key the table lacks (a tool naming a route that
 * does not exist is a bug, not a request).
 * @example routeSpec("POST /api/dispatch/:id/heartbeat").token // "dispatch"
 */
export function routeSpec(key: string): RouteSpec {
  const route = ROUTES.get(key);
  if (!route) throw new Error(`No route ${key} in the route table`);
  return route;
}

/**
 * Whether a dispatch token may call `route`: the route carries a `token` scope.
 * @example tokenMayCall("POST /api/dispatch/:id/complete") // true; tokenMayCall("GET /api/issues/:id") // false
 */
export function tokenMayCall(route: string): boolean {
  return routeSpec(route).token !== undefined;
}

/**
 * Whether a key holding `scopes` may call `route`: one of them allows the scope the route declares.
 * @example scopesMayCall(["read"], "GET /api/issues") // true; scopesMayCall(["read"], "POST /api/issues") // false
 */
export function scopesMayCall(scopes: readonly Scope[], route: string): boolean {
  const needed = routeSpec(route).scope;
  return needed !== undefined && scopes.some((held) => scopeAllows(held, needed));
}

/**
 * Whether a key holding `scopes` may use a tool calling `route`: its scopes allow the route, or they
 * allow a claim and the route takes the claimed dispatch's token. Unknown scopes allow every tool.
 * @example keyMayUse(["dispatch"], "POST /api/issues/:id/comments") // true: a claim's token comments on its issue
 */
export function keyMayUse(scopes: readonly Scope[] | undefined, route: string): boolean {
  if (scopes === undefined) return true;
  return scopesMayCall(scopes, route) || (tokenMayCall(route) && scopesMayCall(scopes, CLAIM_ROUTE));
}

/**
 * The tools `credentials` allow, in their given order: with a key, those its scopes allow (every tool
 * when they are not known); with a dispatch token, the token-scoped ones too; none without either.
 * @example toolsAllowed(TOOLS, { dispatchToken }).map((tool) => tool.name) // ["heartbeat", "add_comment", …]
 */
export function toolsAllowed<T extends RoutedTool>(tools: readonly T[], credentials: Credentials): T[] {
  return tools.filter(
    (tool) =>
      (Boolean(credentials.apiKey) && keyMayUse(credentials.scopes, tool.route)) ||
      (Boolean(credentials.dispatchToken) && tokenMayCall(tool.route)),
  );
}

/** What {@link keyScopes} learnt of a key: its scopes, or why they are not known. */
export type KeyAccess = { scopes: readonly Scope[]; name: string | undefined } | { scopes: undefined; reason: string };

/**
 * What `apiKey` may do, from `GET /api/me`: its scopes (the root key holds them all); a key refused
 * there (403: it lacks `read`) holds `dispatch` alone, as `write` and `admin` include `read`. A key
 * the API refuses (401) is an error; a service that cannot answer leaves the scopes unknown.
 * @example await keyScopes({ url: "http://localhost:4242", apiKey }) // { scopes: ["read"], name: "ci-reader" }
 */
export async function keyScopes(connection: { url: string; apiKey: string }): Promise<KeyAccess> {
  const kaizen = createKaizenClient({ baseUrl: connection.url, token: connection.apiKey });
  try {
    const { data } = await kaizen.GET("/api/me", { signal: AbortSignal.timeout(ME_TIMEOUT_MS) });
    if (!data) return { scopes: undefined, reason: "GET /api/me answered nothing" };
    return { scopes: data.data.scopes, name: data.data.name };
  } catch (error) {
    if (!(error instanceof KaizenApiError)) throw error;
    if (error.status === 403) return { scopes: WITHOUT_READ, name: undefined };
    if (error.status === 401) {
      throw new SessionError(`The API key was refused (401 ${error.error}): it is wrong, revoked or expired`, {
        cause: error,
      });
    }
    return { scopes: undefined, reason: error.status === 0 ? error.error : `${error.status} ${error.error}` };
  }
}
