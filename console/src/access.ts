/**
 * @module console/access — what the signed-in key may do, as the console asks it: "may I call POST
 * /api/issues?". The answer comes from the route table (the scope each route declares and whether it
 * spans every project) and the caller `GET /api/me` described, so a page names the call it would make,
 * never a scope. No DOM and no session here: the unit tests call it as it is.
 */
import type { paths, Schema } from "../../client/client.js";
import { allRoutes, type RouteSpec, type Scope, scopeAllows } from "../../core/src/routes.js";

/** Who the key is and what it holds, as `GET /api/me` answers. */
export type Caller = Schema<"Caller">;

/** A path of the API as the typed client spells it: `/api/issues/{id}`. */
export type ApiPath = keyof paths;

/** The methods the typed client knows for `P`, upper case: `"GET" | "PATCH"`. */
export type ApiMethod<P extends ApiPath> = {
  [M in "get" | "post" | "patch" | "put" | "delete"]: paths[P][M] extends undefined ? never : Uppercase<M>;
}["get" | "post" | "patch" | "put" | "delete"];

/** A path's shape, its parameters as `*`: `/api/issues/{id}` and `/api/issues/:id` are both `/api/issues/*`. */
function shape(path: string): string {
  return path
    .split("/")
    .map((part) => (part.startsWith(":") || part.startsWith("{") ? "*" : part))
    .join("/");
}

let byShape: Map<string, RouteSpec> | undefined;

/** The route of the table that `method` and `path` (either spelling of its parameters) name, if any. */
export function routeFor(method: string, path: string): RouteSpec | undefined {
  byShape ??= new Map(allRoutes().map((route) => [`${route.method} ${shape(route.path)}`, route]));
  return byShape.get(`${method} ${shape(path)}`);
}

/** Whether `caller` holds a scope that allows what `needed` names (`admin` allows all, `write` also `read`). */
export function holds(caller: Caller | null, needed: Scope): boolean {
  return caller?.scopes.some((held) => scopeAllows(held, needed)) ?? false;
}

/**
 * Whether `caller` may call `method` `path`: a public route always; a route open to every
 * credential (`anyCaller`) with any caller; another bearer route when the caller holds the scope
 * the route declares and, for a key narrowed to projects, the route does not span every project
 * (those answer such a key 403). A route the table does not have: no.
 * @example allows(readKey, "GET", "/api/issues") // true; allows(readKey, "POST", "/api/issues") // false
 */
export function allows<P extends ApiPath>(caller: Caller | null, method: ApiMethod<P>, path: P): boolean {
  const route = routeFor(method, path);
  if (!route) return false;
  if (route.auth !== "bearer") return true;
  // Open to every credential (the remote MCP endpoint): what it may do is decided call by call.
  if (route.anyCaller) return caller !== null;
  if (!route.scope || !holds(caller, route.scope)) return false;
  return !(route.reach === "global" && caller?.projectIds != null);
}

/**
 * The caller a key is when `GET /api/me` refused it (403 "Key <name> lacks the read scope"): a key
 * without `read` holds neither `write` nor `admin` (both include it), so it holds `dispatch` alone.
 * @example refusedCaller("Key fleet lacks the read scope") // { kind: "key", name: "fleet", scopes: ["dispatch"], … }
 */
export function refusedCaller(message: string): Caller {
  const name = /^Key (.+) lacks the read scope$/.exec(message)?.[1] ?? "";
  return { kind: "key", id: "", name, scopes: ["dispatch"], projectIds: null };
}
