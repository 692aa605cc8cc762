/** @module http/conditional — `If-Match` against an item's version (docs/api.md#concurrency-and-idempotency). */
import type { Context } from "hono";
import { PreconditionFailedError } from "../errors.js";

/** The versions `If-Match` accepts, any one of which may be current (RFC 9110: it matches when any listed tag does). */
export type ExpectedVersions = readonly number[];

/**
 * One member of an `If-Match` list, weak or strong, then the comma that ends it or the end of the
 * value. Empty members are allowed (RFC 9110 section 5.6.1), and a comma inside a tag is the tag's.
 */
const LIST_MEMBER = /[ \t]*((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")?[ \t]*(?:,|$)/y;

/**
 * The versions `If-Match` accepts, `undefined` when the header is absent or `*` (any version): those
 * its strong tags name. A tag that names no version of ours (weak, `"0"`, `"abc"`) never matches, so
 * a list of only those is a 412; so is a value that is not a list of entity tags, whatever else it lists.
 * @example const expected = expectedVersion(c); // then checkVersion(expected, current.version), and write under the version read
 */
export function expectedVersion(c: Context): ExpectedVersions | undefined {
  const header = c.req.header("If-Match")?.trim();
  if (header === undefined || header === "" || header === "*") return undefined;
  const versions = entityTags(header)?.flatMap((tag) => versionOfTag(tag) ?? []) ?? [];
  if (versions.length === 0) throw new PreconditionFailedError();
  return versions;
}

/** The entity tags of a list, in order; `undefined` when a member is not one. */
function entityTags(list: string): string[] | undefined {
  const member = new RegExp(LIST_MEMBER); // its own position: the pattern is sticky
  const tags: string[] = [];
  while (member.lastIndex < list.length) {
    const found = member.exec(list);
    if (!found) return undefined;
    if (found[1] !== undefined) tags.push(found[1]);
  }
  return tags;
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

/** Throws 412 when `If-Match` named versions and `current` is none of them. */
export function checkVersion(expected: ExpectedVersions | undefined, current: number): void {
  if (expected !== undefined && !expected.includes(current)) throw new PreconditionFailedError();
}
