/** @module http/env — what every request of the app carries in its context (Hono's `Env`). */
import type { Family, ResourceReach, Scope } from "../routes.js";

/**
 * Who made a request, as its credential says (docs/security.md): the root key (`id` `root`, or
 * `root-previous` during a rotation), an API key of its own, or a dispatch's token. `projectIds`
 * null: every project.
 */
export interface Caller {
  readonly kind: "root" | "key" | "dispatch";
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly projectIds: readonly string[] | null;
}

/** What a request may reach, for its handler. */
export interface ProjectReach {
  /** The projects the caller is narrowed to; null: every project. */
  readonly within: readonly string[] | null;
  /** Refuses (404, as for one that does not exist) a resource outside `within`; a missing one is the handler's to answer. */
  require(reach: ResourceReach, ref: string): Promise<void>;
  /**
   * Refuses a project a created resource would belong to outside `within` (404), or none at all
   * for a narrowed caller (400 naming `field`).
   */
  requireProject(projectId: string | null | undefined, field?: string): void;
}

/**
 * `dispatchId`: set when a dispatch token, not the service key, authenticated the request;
 * `dispatchRead`: what the token's check read of that dispatch, for its handler to start from
 * instead of reading it again (opaque here; the dispatch domain knows its shape).
 * `servedBy`: the route of the table that matched, for the request's log line.
 */
export type AppEnv = {
  Variables: {
    requestId: string;
    dispatchId?: string;
    dispatchRead?: unknown;
    /** Who authenticated the request (every bearer route sets it). */
    caller?: Caller;
    /** What the caller may reach of the projects (http/reach). */
    reach?: ProjectReach;
    servedBy?: { family: Family; path: string };
    /** Problems that did not stop the request (http/logger.ts `noteProblem`), said in its log line. */
    problems?: { what: string; error: unknown }[];
  };
};
