/** @module errors — the one error hierarchy: every failure a client can see is an AppError with its HTTP status. */

import * as z from "zod/mini";
import { type Output, onFirstUse } from "./schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** One problem with one field of a request. */
export const fieldProblemSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    /** Dotted path of the field (`title`, `hypothesis.confidence`, `limit`). */
    path: z.string(),
    message: z.string(),
  }),
);
export type FieldProblem = Output<typeof fieldProblemSchema>;

/** The error envelope of docs/api.md#envelopes: `error` always, `details` when there are field problems. */
export const errorBodySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ error: z.string(), details: z.optional(z.array(fieldProblemSchema())) }),
);
export type ErrorBody = Output<typeof errorBodySchema>;

/**
 * Base of every error the API answers with; knows its status and JSON body.
 * @example throw new NotFoundError("Issue not found");
 */
export class AppError extends Error {
  readonly status: number;
  readonly details: FieldProblem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    options: { cause?: unknown; details?: FieldProblem[]; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  /** The error envelope of docs/api.md#envelopes: `error` always, `details` when there are field problems. */
  toJSON(): ErrorBody {
    return this.details ? { error: this.message, details: this.details } : { error: this.message };
  }
}

/** 400: the request is malformed or a value is out of range. */
export class ValidationError extends AppError {
  constructor(message: string, details?: FieldProblem[]) {
    super(400, message, { details });
  }
}

/**
 * The 400 of a problem with one field, in the envelope a schema's refusal has (docs/api.md#envelopes):
 * `error` names the field and the problem, `details` lists it, once per problem given.
 * @example fieldError("projectId", "project prj_… does not exist") // 400 {"error": "projectId: project prj_… does not exist", "details": [{"path": "projectId", …}]}
 */
export function fieldError(path: string, problems: string | readonly string[]): ValidationError {
  const each = typeof problems === "string" ? [problems] : problems;
  return new ValidationError(
    `${path}: ${each.join("; ")}`,
    each.map((message) => ({ path, message })),
  );
}

/** 401: credentials missing or wrong. */
export class UnauthorizedError extends AppError {
  /** `headers`: a bearer route's challenge (`WWW-Authenticate: Bearer`, http/auth.ts). */
  constructor(message: string, headers: Record<string, string> = {}) {
    super(401, message, { headers });
  }
}

/** 403: the credentials are valid but do not reach this resource. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 404: no such resource or route. */
export class NotFoundError extends AppError {
  constructor(message = "Not found") {
    super(404, message);
  }
}

/** 405: the path exists, the method does not; carries the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  constructor(allowed: string[]) {
    super(405, "Method not allowed", { headers: { Allow: allowed.join(", ") } });
  }
}

/** 409: the change conflicts with the resource's state; may carry the item that won. */
export class ConflictError extends AppError {
  readonly existing: unknown;
  /** `retryAfterSeconds`: when the conflict passes on its own (a request still in progress), said in `Retry-After`. */
  constructor(message: string, options: { cause?: unknown; existing?: unknown; retryAfterSeconds?: number } = {}) {
    super(409, message, {
      cause: options.cause,
      ...(options.retryAfterSeconds === undefined
        ? {}
        : { headers: { "Retry-After": String(options.retryAfterSeconds) } }),
    });
    this.existing = options.existing;
  }
}

/** 412: `If-Match` did not match the current `ETag`. */
export class PreconditionFailedError extends AppError {
  constructor(message = "Resource has changed (ETag mismatch)") {
    super(412, message);
  }
}

/** 413: the body is larger than the limit. */
export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, `Request body exceeds the ${formatBytes(limitBytes)} limit`);
  }
}

/** 415: the body is not of a media type this endpoint takes. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(expected: string) {
    super(415, `Content-Type must be ${expected}`);
  }
}

/** 500 with a message safe to show: configuration the operator must fix. */
export class ConfigurationError extends AppError {
  constructor(message: string) {
    super(500, message);
  }
}

/** 429: the caller reached a limit; it may try again after `Retry-After` seconds. */
export class TooManyRequestsError extends AppError {
  constructor(message: string, options: { retryAfterSeconds: number }) {
    super(429, message, { headers: { "Retry-After": String(options.retryAfterSeconds) } });
  }
}

/** 503: the database cannot be reached or is throttling; the client should retry. */
export class UnavailableError extends AppError {
  constructor(
    message = "Service temporarily unavailable",
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(503, message, { cause: options.cause, headers: { "Retry-After": String(options.retryAfterSeconds ?? 1) } });
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
