/**
 * @module client/mcp/access — which MCP tools a credential may use, read from the route table: the
 * service key may call every route, a dispatch token only the routes with a `token` scope
 * (core/src/routes.ts), so the tools offered to a token cannot drift from what the API accepts.
 */
import { allRoutes, type Family, type RouteKey, type RouteSpec, routeKey } from "../../core/src/routes.js";

/** `"POST /api/dispatch/:id/heartbeat"`: a route of the table, checked at compile time. */
export type ApiRouteKey = { [F in Family]: RouteKey<F> }[Family];

/** The credentials an MCP server was started with. */
export interface Credentials {
  apiKey?: string | undefined;
  dispatchToken?: string | undefined;
}

/** What access needs to know of a tool: the route it calls. */
export interface RoutedTool {
  readonly name: string;
  readonly route: ApiRouteKey;
}

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
 * The tools `credentials` allow, in their given order: every tool with the service key (alone or with
 * a token), the token-scoped ones with only a dispatch token, none without either.
 * @example toolsAllowed(TOOLS, { dispatchToken }).map((tool) => tool.name) // ["heartbeat", "add_comment", …]
 */
export function toolsAllowed<T extends RoutedTool>(tools: readonly T[], credentials: Credentials): T[] {
  if (credentials.apiKey) return [...tools];
  if (credentials.dispatchToken) return tools.filter((tool) => tokenMayCall(tool.route));
  return [];
}
