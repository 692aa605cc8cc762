/** @module http/conditional — `If-Match` against an item's version (docs/api.md#concurrency-and-idempotency). */
import type { Context } from "hono";
import { PreconditionFailedError } from "../errors.js";

/**
 * The version `If-Match` requires, `undefined` when the header is absent or `*` (any version).
 * A value that names no version of ours (weak or malformed tags) can never match: 412.
 * @example const expected = expectedVersion(c); // then write under `version = expected`
 */
export function expectedVersion(c: Context): number | undefined {
  const header = c.req.header("If-Match")?.trim();
  if (header === undefined || header === "" || header === "*") return undefined;
  const [only, ...rest] = header.split(",").map(versionOfTag);
  if (only === undefined || rest.length > 0) throw new PreconditionFailedError();
  return only;
}

/**
 * The version a strong entity tag names (`"7"` → 7), the only tags `If-Match` accepts; undefined
 * for a weak, malformed or out-of-range one.
 * @example versionOfTag('"3"') // 3; versionOfTag('W/"3"') // undefined
 */
export function versionOfTag(tag: string): number | undefined {
  const digits = /^"([1-9][0-9]{0,15})"$/.exec(tag.trim())?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/** Throws 412 when `If-Match` named a version other than `current`. */
export function checkVersion(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) throw new PreconditionFailedError();
}
