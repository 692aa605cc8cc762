/** @module http/env — what every request of the app carries in its context (Hono's `Env`). */
import type { Family } from "../routes.js";

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
    /** Set when an API key of its own (not the root key) authenticated the request. */
    keyId?: string;
    servedBy?: { family: Family; path: string };
    /** Problems that did not stop the request (http/logger.ts `noteProblem`), said in its log line. */
    problems?: { what: string; error: unknown }[];
  };
};
