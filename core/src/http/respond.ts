/** @module http/respond — the response envelopes of docs/api.md#envelopes, with the headers every response carries. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppError } from "../errors.js";
import { linkHeader, type PageRequest } from "./pagination.js";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** `{"data": item}` with the item's `ETag` when it has a version. */
export function itemResponse(
  c: Context,
  data: unknown,
  options: { status?: ContentfulStatusCode; etag?: string } = {},
): Response {
  const headers: Record<string, string> = { "Content-Type": JSON_CONTENT_TYPE };
  if (options.etag) headers.ETag = options.etag;
  return c.json({ data }, options.status ?? 200, headers);
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
