/**
 * @module http/resource-fields — the fields schemas are made of. They are functions, called
 * inside the schema definitions (../schema.ts), so nothing is built until a schema is asked for.
 */
import * as z from "zod/mini";
import { utcTimestamp } from "./timestamps.js";

/** A resource id: `prefix_` and a ULID (docs/api.md#identifiers-and-fields). */
export const resourceId = (prefix: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`)));

/** An issue as a client names it: its id or `KZN-<number>` (docs/api.md#issue-endpoints). */
export const issueRef = () =>
  z
    .string()
    .check(
      z.regex(/^(iss_[0-9A-HJKMNP-TV-Z]{26}|KZN-[1-9][0-9]{0,11})$/i, "must be an issue id (iss_…) or KZN-<number>"),
    );

/** A timestamp as the API writes it: ISO-8601 UTC with `Z`. */
export const timestamp = () => z.iso.datetime();

/** An optional timestamp: `null` when absent (docs/api.md#identifiers-and-fields). */
export const nullableTimestamp = () => z.nullable(z.iso.datetime());

/** The message of a request timestamp that is none. */
export const TIMESTAMP_MESSAGE = "must be an ISO-8601 timestamp";

/**
 * A timestamp a client sends, in a body or a query: ISO-8601 with `Z` or any offset, taken as the
 * instant it names in the form the API answers with, UTC with milliseconds
 * (docs/api.md#identifiers-and-fields), so what is stored and echoed compares and sorts as text.
 * @example z.strictObject({ expiresAt: z.optional(timestampGiven()) }) // "2030-01-01T02:00:00+02:00" → "2030-01-01T00:00:00.000Z"
 */
export const timestampGiven = () =>
  z.pipe(
    z.iso.datetime({ offset: true, message: TIMESTAMP_MESSAGE }),
    // The output is a timestamp again, so the OpenAPI document can show what the API answers.
    z.pipe(z.transform(utcTimestamp), z.iso.datetime()),
  );

/** An optional text: `null` when absent (docs/api.md#identifiers-and-fields). */
export const nullableText = () => z.nullable(z.string());

/** A count: an integer, 0 or more. */
export const count = () => z.int().check(z.gte(0));
