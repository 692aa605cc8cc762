/**
 * @module http/route-misses — what a request no route takes is answered (docs/api.md#status-codes):
 * 405 with `Allow` naming the methods its path serves (`HEAD` beside `GET`), else 404. A static path
 * that a parameter route of its family also matches (`/api/dispatch/claim` and `/api/dispatch/:id`)
 * is judged by its static routes alone, before the parameter route can take it.
 */
import type { Context, MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { type AppError, MethodNotAllowedError, NotFoundError } from "../errors.js";
import type { HttpMethod, RouteSpec } from "../routes.js";
import type { AppEnv } from "./env.js";
import { errorResponse } from "./respond.js";

/** Whether a route's path names no parameter (`/api/dispatch/claim`, not `/api/dispatch/:id`). */
function isStaticPath(path: string): boolean {
  return !path.includes("/:");
}

/**
 * The methods `Allow` names for each path of `routes`, sorted: `HEAD` beside every `GET`, which
 * answers it (docs/api.md#status-codes).
 */
function methodsByPath(routes: readonly Pick<RouteSpec, "method" | "path">[]): Map<string, string[]> {
  const grouped = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    const methods = grouped.get(path) ?? new Set();
    methods.add(method);
    if (method === "GET") methods.add("HEAD");
    grouped.set(path, methods);
  }
  return new Map([...grouped].map(([path, methods]) => [path, [...methods].sort()]));
}

/**
 * The static paths of the app's routes that a parameter route of the same family also matches
 * (`/api/dispatch/claim` and `/api/dispatch/:id`), each with the methods its static routes take.
 * Within a family only: behind the gateway, a family's function is sent what its own routes match.
 */
export function shadowedStaticPaths(
  families: Readonly<Record<string, { readonly routes: object }>>,
): Map<string, string[]> {
  const shadowed = new Map<string, string[]>();
  for (const module of Object.values(families)) {
    const routes = Object.keys(module.routes).map((key) => {
      const [method, path] = key.split(" ") as [HttpMethod, string];
      return { method, path };
    });
    const patterns = routes.filter(({ path }) => !isStaticPath(path)).map(({ path }) => path.split("/"));
    for (const [path, methods] of methodsByPath(routes.filter(({ path }) => isStaticPath(path)))) {
      const segments = path.split("/");
      const matched = patterns.some(
        (pattern) =>
          pattern.length === segments.length &&
          pattern.every((part, i) => part === segments[i] || (part.startsWith(":") && segments[i] !== "")),
      );
      if (matched) shadowed.set(path, methods);
    }
  }
  return shadowed;
}

/**
 * At a static path of {@link shadowedStaticPaths}, a method its static routes do not take is a 405
 * naming theirs, as a miss there is: `GET /api/dispatch/claim` is not the `:id` route's.
 */
export function staticRoutesOnly(allowed: string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!allowed.includes(c.req.method)) return errorResponse(c, new MethodNotAllowedError(allowed));
    await next();
  };
}

/**
 * A request no route took: 405 with `Allow` when another method of `routes` serves its path, else 404.
 * A path a static route declares is judged by the static routes alone: `DELETE /api/dispatch/claim`
 * names `POST`, not also the `GET` of `/api/dispatch/:id` (docs/api.md#status-codes).
 */
export function routeMisses(routes: readonly Pick<RouteSpec, "method" | "path">[]): (c: Context) => AppError {
  const byPath = new TrieRouter<{ methods: string[]; isStatic: boolean }>();
  for (const [path, methods] of methodsByPath(routes))
    byPath.add("ALL", path, { methods, isStatic: isStaticPath(path) });
  return (c) => {
    const matched = byPath.match("ALL", c.req.path)[0].map(([route]) => route);
    const statics = matched.filter(({ isStatic }) => isStatic);
    const allowed = new Set((statics.length > 0 ? statics : matched).flatMap(({ methods }) => methods));
    if (allowed.size > 0 && !allowed.has(c.req.method)) return new MethodNotAllowedError([...allowed].sort());
    return new NotFoundError(`No route for ${c.req.method} ${c.req.path}`);
  };
}
