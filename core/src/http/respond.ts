/** @module http/respond — the response envelopes of docs/api.md#envelopes, with the headers every response carries. */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppError } from "../errors.js";
import { linkHeader, type PageRequest } from "./pagination.js";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * `response` with header `name` set to `value`: a new `Response`, not the given one changed in place,
 * whose headers a copy made from it may not carry (`@hono/node-server`'s `Response`, which the local
 * server installs as the process's own, keeps its constructor's init).
 */
export function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * `{"data": item}` with its `ETag` (docs/api.md#concurrency-and-idempotency): a stored resource's
 * version ({@link etagOf}; {@link FIRST_ETAG} for one no request changes), or for a document computed
 * for the request, a weak tag of its content ({@link contentEtagOf}).
 */
export function itemResponse(
  c: Context,
  data: unknown,
  options: { status?: ContentfulStatusCode; etag: string },
): Response {
  return c.json({ data }, options.status ?? 200, { "Content-Type": JSON_CONTENT_TYPE, ETag: options.etag });
}

/**
 * A stored resource's answer at `version`: `{"data": item}` with the version as its `ETag`
 * ({@link etagOf}), and `location` (where the resource is read) as its `Location`, as a 201 of one
 * just made, or a claim, carries it.
 * @example storedResponse(c, project, version)
 * @example storedResponse(c, runner, version, { status: 201, location: `/api/runners/${runner.id}` })
 */
export function storedResponse(
  c: Context,
  data: unknown,
  version: number,
  options: { status?: ContentfulStatusCode; location?: string } = {},
): Response {
  if (options.location !== undefined) c.header("Location", options.location);
  return itemResponse(c, data, { status: options.status, etag: etagOf(version) });
}

/** `{"data": [...], "total": N}` with the `Link` header for the neighbouring pages. */
export function listResponse(c: Context, data: unknown[], total: number, page: PageRequest): Response {
  const headers: Record<string, string> = { "Content-Type": JSON_CONTENT_TYPE };
  const link = linkHeader(c.req.url, page, total);
  if (link) headers.Link = link;
  return c.json({ data, total }, 200, headers);
}

/** The error envelope for an {@link AppError}, with its extra headers (`Allow`, `Retry-After`). */
export function errorResponse(c: Context, error: AppError): Response {
  return c.json(error.toJSON(), error.status as ContentfulStatusCode, {
    ...error.headers,
    "Content-Type": JSON_CONTENT_TYPE,
  });
}

/** The weak-free strong ETag of an item version. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The `ETag` of a resource no request changes once it is written (a signal, a prompt, a review, an
 * activity, a template version): its first version, for good (docs/api.md#concurrency-and-idempotency).
 */
export const FIRST_ETAG = etagOf(1);

/**
 * The weak `ETag` of a document computed for the request rather than stored (the service's
 * description, the caller, the dashboard's figures, a preview): a digest of its JSON, so the same
 * content has the same tag. It names no version, so `If-Match` never accepts it.
 * @example contentEtagOf({ total: 3 }) // 'W/"…"', 22 characters between the quotes
 */
export function contentEtagOf(data: unknown): string {
  return `W/"${createHash("sha256").update(JSON.stringify(data)).digest("base64url").slice(0, 22)}"`;
}
