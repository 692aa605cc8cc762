/**
 * @module openapi/answers — what the OpenAPI document says a route answers (docs/api.md#status-codes):
 * its successes with their bodies and headers, the error statuses it can answer, and the shared
 * error responses and response headers under `components`.
 */
import { IDEMPOTENT_REPLAYED_HEADER, takesIdempotencyKey } from "../http/idempotency.js";
import { takesNoBody } from "../http/validation.js";
import type { RouteSpec } from "../routes.js";
import { type Declaration, type Doc, namesLocation, type Success, successStatus } from "./declare.js";

export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Json) => ({ "application/json": { schema } });

/** Why each error status is answered, for the shared `components.responses`. */
export const ERRORS = {
  400: ["BadRequest", "Validation error: malformed JSON, a wrong type, an out-of-range or unknown field"],
  401: ["Unauthorized", "Missing or malformed Authorization header, or an invalid webhook signature"],
  403: ["Forbidden", "A dispatch token used outside its own dispatch"],
  404: ["NotFound", "No such resource"],
  409: ["Conflict", "Conflict with the resource's state, or an Idempotency-Key reused with another body"],
  412: ["PreconditionFailed", "If-Match given and the resource's ETag differs"],
  413: ["PayloadTooLarge", "Body over the limit (1 MiB, 5 MiB for webhook receivers)"],
  415: ["UnsupportedMediaType", "The body is not of a media type this endpoint takes"],
  429: [
    "TooManyRequests",
    "A limit was reached (a claim by an agent holding its project's `limits.maxActivePerAgent` dispatches); retry after `Retry-After` seconds",
  ],
  500: ["InternalError", "Internal error, or this receiver's secret is not configured"],
  503: [
    "Unavailable",
    "The database is unreachable or throttling, or the same change is still in progress elsewhere (concurrent changes that keep conflicting, a copy of a delivery still being stored); retry after `Retry-After` seconds",
  ],
} as const;
export type ErrorStatus = keyof typeof ERRORS;

/** The response headers the document names, each described once under `components.headers`. */
export const RESPONSE_HEADERS = {
  RequestId: "The request's id, also on its log lines; every answer carries one",
  ETag: 'The resource\'s version (`"<n>"`, what `If-Match` takes), or a weak tag (`W/"…"`) of a document computed for the request, which `If-Match` never takes',
  Location: "Where the resource the answer carries is read",
  Link: 'Neighbouring pages (`rel="next"`, `rel="prev"`)',
  IdempotentReplayed: "`true` on the first answer given again for a repeated `Idempotency-Key`",
  RetryAfter: "Seconds to wait before trying again",
  WWWAuthenticate: "`Bearer`, on a bearer credential missing or refused (not on a webhook's signature)",
} as const;

/** The headers of an error answer: its `X-Request-Id`, and what it asks of a retry or a credential. */
export function errorHeaders(status: ErrorStatus): Json {
  return {
    "X-Request-Id": header("RequestId"),
    ...(status === 401 ? { "WWW-Authenticate": header("WWWAuthenticate") } : {}),
    ...(status === 429 || status === 503 ? { "Retry-After": header("RetryAfter") } : {}),
  };
}

export const header = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

/**
 * The headers of a success (docs/api.md#concurrency-and-idempotency): every answer's `X-Request-Id`;
 * an item's `ETag`, and its `Location` where the declaration says the answer names one; a list's
 * `Link`; a 204's own; and on a route that takes an `Idempotency-Key`, the mark of a replay.
 */
function successHeaders(success: Success, doc: Doc, replayable: boolean): Json {
  const own =
    "status" in success && success.status === 204
      ? Object.entries(success.headers ?? {}).map(([name, values]) => [
          name,
          { description: doc.headers?.[name] ?? name, schema: { type: "string", enum: values } },
        ])
      : [];
  return {
    "X-Request-Id": header("RequestId"),
    ...("item" in success ? { ETag: header("ETag") } : {}),
    ...(namesLocation(success) ? { Location: header("Location") } : {}),
    ...("list" in success ? { Link: header("Link") } : {}),
    ...Object.fromEntries(own),
    ...(replayable ? { [IDEMPOTENT_REPLAYED_HEADER]: header("IdempotentReplayed") } : {}),
  };
}

export function successResponse(success: Success, description: string, doc: Doc, replayable: boolean): Json {
  const headers = successHeaders(success, doc, replayable);
  if ("status" in success && success.status === 204) return { description, headers };
  if ("item" in success) {
    return {
      description,
      headers,
      content: json({ type: "object", required: ["data"], properties: { data: ref(success.item) } }),
    };
  }
  if ("list" in success) {
    return {
      description,
      headers,
      content: json({
        type: "object",
        required: ["data", "total"],
        properties: {
          data: { type: "array", items: ref(success.list) },
          total: { type: "integer", minimum: 0, description: "Count of all matching items" },
        },
      }),
    };
  }
  switch (success.raw) {
    case "health":
      return { description, headers, content: json(ref("Health")) };
    case "openapi":
      return { description, headers, content: json({ type: "object" }) };
    case "html":
      return { description, headers, content: { "text/html": { schema: { type: "string" } } } };
    case "text":
      return { description, headers, content: { "text/plain": { schema: { type: "string" } } } };
    case "jsonrpc":
      return {
        description,
        headers,
        content: json({ type: ["object", "array"], description: "JSON-RPC 2.0 answers" }),
      };
    case "asset":
      return {
        description,
        headers,
        content: {
          "text/javascript": { schema: { type: "string" } },
          "text/css": { schema: { type: "string" } },
        },
      };
  }
}

/** The error statuses a route can answer: from how it is guarded and what it reads, plus its own. */
export function errorStatuses(route: RouteSpec, declaration: Declaration): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(declaration.errors ?? []);
  // A route that takes no body still reads one, to refuse it (http/validation `takesNoBody`).
  const readsBody = declaration.body !== undefined || takesNoBody(route, declaration) || route.auth === "webhook";
  if (declaration.query || readsBody) statuses.add(400);
  if (route.auth !== "none") statuses.add(401);
  if (route.auth === "bearer") statuses.add(403);
  if (route.path.includes("/:")) statuses.add(404);
  if (takesIdempotencyKey(route)) statuses.add(409);
  if (declaration.ifMatch) statuses.add(412);
  if (readsBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.auth === "webhook") statuses.add(500);
  if (declaration.database !== false) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * A route's answers: its success (and second success), the health check's degraded 503, and a
 * reference to the shared response of each error status it can answer.
 */
export function responsesOf(route: RouteSpec, declaration: Declaration, doc: Doc): Json {
  const responses: Json = {};
  const replayable = takesIdempotencyKey(route);
  responses[String(successStatus(declaration.success))] = successResponse(
    declaration.success,
    doc.success,
    doc,
    replayable,
  );
  if (declaration.alsoSuccess) {
    const description = doc.alsoSuccess ?? doc.success;
    responses[String(successStatus(declaration.alsoSuccess))] = successResponse(
      declaration.alsoSuccess,
      description,
      doc,
      replayable,
    );
  }
  if ("raw" in declaration.success && declaration.success.raw === "health") {
    responses["503"] = {
      description: "Degraded: a check failed",
      headers: { "X-Request-Id": header("RequestId"), "Retry-After": header("RetryAfter") },
      content: json(ref("Health")),
    };
  }
  for (const status of errorStatuses(route, declaration)) {
    responses[String(status)] ??= { $ref: `#/components/responses/${ERRORS[status][0]}` };
  }
  return responses;
}

/** The shared error responses, one per status, each with its headers and the error envelope. */
export function componentResponses(): Json {
  return Object.fromEntries(
    Object.entries(ERRORS).map(([status, [name, description]]) => [
      name,
      { description, headers: errorHeaders(Number(status) as ErrorStatus), content: json(ref("Error")) },
    ]),
  );
}

/** The response headers, each described once. */
export function componentHeaders(): Json {
  return Object.fromEntries(
    Object.entries(RESPONSE_HEADERS).map(([name, description]) => [name, { description, schema: { type: "string" } }]),
  );
}
