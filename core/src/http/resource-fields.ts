/**
 * @module http/resource-fields — the fields response schemas are made of.
 *
 * Schema modules (each domain's schemas.ts, http/pagination) are imported by every bundle that needs
 * one of their schemas or types, but a bundle reads few of their schemas and only the OpenAPI generator
 * reads the response ones. So every schema is built in an arrow function called at once and annotated
 * `@__PURE__`: esbuild drops such a call when nothing uses its result, where a plain top-level
 * `z.object(…)` (and every call in its arguments) would stay. These fields are functions for the same reason.
 */
import * as z from "zod/mini";

/** A resource id: `prefix_` and a ULID (API.md 1.4). */
export const resourceId = (prefix: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`)));

/** A timestamp as the API writes it: ISO-8601 UTC with `Z`. */
export const timestamp = () => z.iso.datetime();

/** An optional timestamp: `null` when absent (API.md 1.4). */
export const nullableTimestamp = () => z.nullable(z.iso.datetime());

/** An optional text: `null` when absent (API.md 1.4). */
export const nullableText = () => z.nullable(z.string());

/** A count: an integer, 0 or more. */
export const count = () => z.int().check(z.gte(0));
