/**
 * @module http/timestamps — timestamps as the API answers them, ISO-8601 UTC with milliseconds
 * (docs/api.md#identifiers-and-fields), from what clients send, providers report and items hold.
 * Pure and free of zod, so a provider's rules carry no schema library for it.
 */

/** An ISO-8601 date and time with `Z` or a numeric offset, the seconds and their fractions optional. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The instant an ISO-8601 time with an offset names, as the API writes it. For values a schema
 * already accepted (./resource-fields.ts `timestampGiven`).
 * @example utcTimestamp("2026-11-29T02:00:00+02:00") // "2026-11-29T00:00:00.000Z"
 */
export function utcTimestamp(value: string): string {
  return new Date(value).toISOString();
}

/**
 * A provider's time as the API writes it; undefined when it is no ISO-8601 time with an offset
 * (payloads are untrusted: the caller falls back to the time the signal was received).
 * @example providerTimestamp(field(body, "pull_request", "merged_at")) // "2026-11-29T00:00:00.000Z"
 */
export function providerTimestamp(value: unknown): string | undefined {
  if (typeof value !== "string" || !ISO_INSTANT.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/**
 * A time an item holds, as the API writes it. Items written before times were normalised may
 * hold one without milliseconds or with an offset, as the client or provider sent it (always with
 * an offset: the schemas and the code host require one); one that names no instant is answered as
 * stored, and an absent one as null. Every read of an issue carries it, so it is kept small.
 * @example storedTimestamp("2026-11-29T00:00:00Z") // "2026-11-29T00:00:00.000Z"
 */
export const storedTimestamp = (value: unknown): string | null =>
  // Items hold a time as a string or null. toJSON() is toISOString() for a valid date, null for an invalid one.
  value ? (new Date(value as string).toJSON() ?? (value as string)) : null;
