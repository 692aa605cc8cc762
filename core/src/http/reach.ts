/**
 * @module http/reach — a key narrowed to projects (docs/security.md#projects) reaches only what those
 * projects hold: a route's `:id` outside them answers the same 404 as one that does not exist, a route
 * that spans every project is refused (403), and a handler that lists, claims or creates narrows by
 * {@link ProjectReach.within} and checks what a body names with {@link ProjectReach.require}. A caller
 * that is not narrowed (the root key, an unnarrowed key, a dispatch token) passes untouched, at no cost.
 */
import type { Context, MiddlewareHandler } from "hono";
import { ForbiddenError, fieldError, NotFoundError } from "../errors.js";
import type { Reach, ResourceReach } from "../routes.js";
import type { DispatchLookups } from "./auth.js";
import type { AppEnv, ProjectReach } from "./env.js";

export type { ProjectReach } from "./env.js";

/** A reach whose resource belongs to a project the domain must read (a project's own id is its project). */
export type LookedUpReach = Exclude<ResourceReach, "project">;

/**
 * How a family reads where the resources its routes reach belong, one read per kind: each lookup
 * answers the project of the resource `ref` names (null when it has none, undefined when there is
 * no such resource). Each family names only the kinds its routes and handlers reach, so a function
 * carries only those stores (docs/contributing.md#budgets). `dispatchOf` reads, for each kind of
 * resource beside a dispatch that its routes let a dispatch token take, which dispatch works the one
 * `ref` names, so a `dispatch` key reaches it as that dispatch's token (http/auth `DispatchLookups`).
 */
export type ReachLookups = Partial<Record<LookedUpReach, (ref: string) => Promise<string | null | undefined>>> & {
  readonly dispatchOf?: DispatchLookups;
};

/** Whether the route's reach needs a lookup, and which. */
export function lookedUpReach(reach: Reach | undefined): LookedUpReach | undefined {
  return reach === undefined || reach === "project" || reach === "handler" || reach === "shared" || reach === "global"
    ? undefined
    : reach;
}

/** What a resource's id or reference looks like: `<prefix>_<ULID>`, or an issue's `KZN-<n>`. */
const RESOURCE_REF = /^([a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}|KZN-[1-9][0-9]{0,9})$/;

const NOUN: Readonly<Record<ResourceReach, string>> = {
  issue: "Issue",
  dispatch: "Dispatch",
  prompt: "Prompt",
  signal: "Signal",
  relation: "Relation",
  project: "Project",
};

/** The 403 of a route that spans every project, for a key narrowed to some. */
export function narrowedKeyMessage(name: string): string {
  return `Key ${name} is limited to projects; this route spans every project`;
}

/** The project of `ref` by the family's lookup of `reach`; a kind without one is a programming error (the app checks every route's reach when it is built). */
function projectOf(lookups: ReachLookups, reach: LookedUpReach, ref: string): Promise<string | null | undefined> {
  const lookup = lookups[reach];
  if (!lookup) throw new Error(`No lookup of where a ${reach} belongs`);
  return lookup(ref);
}

function reachOf(within: readonly string[] | null, lookups: ReachLookups): ProjectReach {
  return {
    within,
    async require(reach, ref) {
      if (!within) return;
      // Not the shape of any id (`<prefix>_<ULID>`, `KZN-<n>`): nothing is read, and the handler
      // answers as it answers for an id it does not know.
      if (!RESOURCE_REF.test(ref)) return;
      const projectId = reach === "project" ? ref : await projectOf(lookups, reach, ref);
      if (projectId === undefined) return;
      if (projectId === null || !within.includes(projectId)) throw new NotFoundError(`${NOUN[reach]} ${ref} not found`);
    },
    requireProject(projectId, field = "projectId") {
      if (!within) return;
      if (projectId === undefined || projectId === null) {
        throw fieldError(field, "is required for a key limited to projects");
      }
      if (!within.includes(projectId)) throw new NotFoundError(`Project ${projectId} not found`);
    },
  };
}

/**
 * Holds the route's `:id` (or `:issueId`) to the caller's projects as its declaration's `reach` says,
 * and hands the handler what it may reach (`c.get("reach")`).
 * @example app.get("/api/issues/:id", bearerAuth(options), projectReach("issue", lookups), handler)
 */
export function projectReach(reach: Reach | undefined, lookups: ReachLookups): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    const within = caller?.projectIds ?? null;
    const granted = reachOf(within, lookups);
    c.set("reach", granted);
    if (within && caller) {
      if (reach === "global") throw new ForbiddenError(narrowedKeyMessage(caller.name));
      if (reach !== undefined && reach !== "shared" && reach !== "handler") {
        await granted.require(reach, c.req.param("id") ?? c.req.param("issueId") ?? "");
      }
    }
    return next();
  };
}

/** What the request may reach; every project when no middleware narrowed it (a route outside the table). */
export function reachOfRequest(c: Context<AppEnv>): ProjectReach {
  return c.get("reach") ?? reachOf(null, {});
}
