/** @module http/env — what every request of the app carries in its context (Hono's `Env`). */
import type { Family, Scope } from "../routes.js";
import type { ProjectReach } from "./reach.js";

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
