/** @module http/pagination — `page`/`limit` per docs/api.md#pagination: validation, offsets and the `Link` header. */
import * as z from "zod/mini";
import { onFirstUse } from "../schema.js";

export const MAX_LIMIT = 100;
export const MAX_PAGE = 10_000;
export const DEFAULT_LIMIT = 20;

function boundedInteger(name: string, max: number) {
  const message = `${name} must be an integer between 1 and ${max}`;
  return z.pipe(
    z.string().check(z.regex(/^[0-9]+$/, message)),
    z.pipe(z.transform(Number), z.number().check(z.gte(1, message), z.lte(max, message))),
  );
}

/** The two query parameters every list takes; spread into each list's query schema. */
export const paginationQuery = /* @__PURE__ */ onFirstUse(() => ({
  page: z._default(boundedInteger("page", MAX_PAGE), 1),
  limit: z._default(boundedInteger("limit", MAX_LIMIT), DEFAULT_LIMIT),
}));

export interface PageRequest {
  page: number;
  limit: number;
}

/** Items to skip before the requested page. */
export function pageOffset({ page, limit }: PageRequest): number {
  return (page - 1) * limit;
}

/**
 * `Link` header value with `rel="next"`/`rel="prev"` where they exist, keeping every other query
 * parameter of `url`; undefined when there is neither.
 */
export function linkHeader(url: string, { page, limit }: PageRequest, total: number): string | undefined {
  const links: string[] = [];
  const lastPage = Math.max(1, Math.ceil(total / limit));
  if (page * limit < total) links.push(`<${withPage(url, page + 1, limit)}>; rel="next"`);
  if (page > 1) links.push(`<${withPage(url, Math.min(page - 1, lastPage), limit)}>; rel="prev"`);
  return links.length > 0 ? links.join(", ") : undefined;
}

function withPage(url: string, page: number, limit: number): string {
  const next = new URL(url);
  next.searchParams.set("page", String(page));
  next.searchParams.set("limit", String(limit));
  return next.toString();
}
