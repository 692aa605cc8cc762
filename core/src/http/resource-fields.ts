/**
 * @module http/resource-fields — the fields response schemas are made of. They are functions, called
 * inside the schema definitions (../schema.ts), so nothing is built until a schema is asked for.
 */
import * as z from "zod/mini";

/** A resource id: `prefix_` and a ULID (docs/api.md#identifiers-and-fields). */
export const resourceId = (prefix: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`)));

/** A timestamp as the API writes it: ISO-8601 UTC with `Z`. */
export const timestamp = () => z.iso.datetime();

/** An optional timestamp: `null` when absent (docs/api.md#identifiers-and-fields). */
export const nullableTimestamp = () => z.nullable(z.iso.datetime());

/** An optional text: `null` when absent (docs/api.md#identifiers-and-fields). */
export const nullableText = () => z.nullable(z.string());

/** A count: an integer, 0 or more. */
export const count = () => z.int().check(z.gte(0));
