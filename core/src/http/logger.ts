/** @module http/logger — the structured JSON logger (Powertools), one per process, and what may go into it. */
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context } from "hono";

/** Default logger; level from `POWERTOOLS_LOG_LEVEL` (INFO when unset). */
export const defaultLogger = new Logger({ serviceName: "kaizen" });

export type { Logger };

/**
 * Credentials that may turn up inside text the service logs (a path, an error message): the service
 * API key, dispatch tokens, GitHub tokens (hosted runners'), and the value of a bearer header.
 */
const SECRET_PATTERNS = [
  /kaizen_[0-9a-f]{64}/gi,
  /kzd_[0-9A-Za-z]+_[0-9a-f]+/gi,
  /\b(?:gh[pousr]_[0-9A-Za-z]{20,}|github_pat_[0-9A-Za-z_]{20,})/g,
  /\bBearer\s+\S+/gi,
];

/**
 * Records a problem that did not stop the request (a bookkeeping write that failed) for the
 * request's own log line, which then says it at `WARN` with each problem's error.
 */
export function noteProblem(c: Context, what: string, error: unknown): void {
  const problems = (c.get("problems") as { what: string; error: unknown }[] | undefined) ?? [];
  c.set("problems", [...problems, { what, error: loggedError(error) }]);
}

/**
 * `text` with every credential it holds replaced by `[redacted]`: a guard for text the service does
 * not compose itself, since what it composes never carries a secret.
 * @example redactSecrets(`no dispatch for ${token}`) // "no dispatch for [redacted]"
 */
export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((redacted, pattern) => redacted.replace(pattern, "[redacted]"), text);
}

/** What a log line says about an error: never its other fields (SDK metadata, stored items, payloads). */
export interface LoggedError {
  name: string;
  message: string;
  stack?: string;
  cause?: LoggedError;
}

/** Causes followed at most; a deeper chain is cut. */
const CAUSE_DEPTH = 3;

/**
 * The error and its causes as name, message and stack only, secrets redacted. Powertools would log
 * every enumerable field of an error, which for the SDK's and ours includes the items and
 * cancellation reasons a failed write carried.
 * @example logger.error("request", { error: loggedError(error) });
 */
export function loggedError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { name: typeof error, message: redactSecrets(String(error)) };
  const cause = depth < CAUSE_DEPTH && error.cause !== undefined ? loggedError(error.cause, depth + 1) : undefined;
  return {
    name: error.name,
    message: redactSecrets(error.message),
    ...(error.stack === undefined ? {} : { stack: redactSecrets(error.stack) }),
    ...(cause === undefined ? {} : { cause }),
  };
}
