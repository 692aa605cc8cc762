/**
 * @module templates/keys — items and keys of templates, their versions and slugs (pure functions, no I/O).
 *
 * Access patterns:
 * - template by id ........ GetItem  pk=$kaizen#template_1#<id>  sk=$kaizen#template_1
 * - version by number ..... GetItem  pk=$kaizen#template_1#<id>  sk=$kaizen#templatever_1#<000042>
 * - versions, a page ...... Query    pk=$kaizen#template_1#<id>  sk BETWEEN two numbers (numbers have
 *                           no gaps, so a page's numbers follow from the template's `versionCount`)
 * - a version's usage ..... spread count at sk=$kaizen#templatever_1#<000042>#usage (sorts right after
 *                           its version, so one query reads versions and their counts together)
 * - a version's reviews ... GetItem  sk=$kaizen#templatever_1#<000042>#reviews: where its reviews stand
 *                           (count, score, fold position, improvement task), an item of a few fields
 *                           that folds rewrite instead of the version and its content
 * - version by id ......... GetItem  pk=$kaizen#version_1#<ver id>  (the template id and number)
 * - slug claim ............ GetItem  pk=$kaizen#templateslug_1#<slug>  (written only if absent, in the
 *                           template's own transaction: two live templates never share a slug)
 * - default seeded? ....... GetItem  pk=$kaizen#templateseed_1#<slug>  (a default is seeded once)
 * - seeding under way ..... PutItem  pk=$kaizen#templateseed_1  (held by the one instance seeding the
 *                           defaults, until a time; the others wait for its marks instead of racing it)
 * - experiment by id ..... GetItem  pk=$kaizen#template_1#<id>  sk=$kaizen#experiment_1#<exp ulid>
 * - its arm counts ........ spread counts at sk=$kaizen#experiment_1#<exp ulid>#<arm>#<count> (sort right
 *                           after it: one query reads an experiment with its counts, or all of a
 *                           template's experiments with theirs)
 * - lists and selection ... listing `all` of db/listing-index.ts, entity `template`, sort key = the id's
 *                           ULID, buckets of one day; entries carry what selection reads, so choosing
 *                           a template for an issue is one query
 * - partial by name ....... GetItem  pk=$kaizen#partial_1#<name>  sk=$kaizen#partial_1 (its name is its id;
 *                           the partials a render names are one BatchGet)
 * - a partial's uses ...... Query    pk=$kaizen#partial_1#<name>  sk begins_with $kaizen#partial_1#use#: a
 *                           version (`v#<ver id>`) or another partial (`p#<name>`) that includes it
 * - partials, a page ...... listing `all`, entity `partial`, sort key = the name, a bucket per first character
 */
import { decodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";
import { type ListingScheme, ulidListingScheme } from "../db/listing-index.js";

const TEMPLATE_ENTITY = keyPrefix("template");
const VERSION_ENTRY = keyPrefix("templatever");
const VERSION_ENTITY = keyPrefix("version");
const SLUG_ENTITY = keyPrefix("templateslug");
const SEED_ENTITY = keyPrefix("templateseed");
const EXPERIMENT_ENTRY = keyPrefix("experiment");
const PARTIAL_ENTITY = keyPrefix("partial");
/** Ends the sort key of a version's reviews item. */
const REVIEWS_SUFFIX = "reviews";
const DAY_MS = 86_400_000;

export const TEMPLATE_ID = /^tpl_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Slugs of the default templates (./defaults.ts, which holds their content): whether each was seeded
 * is read by slug, and their content is loaded only when one is to be written.
 */
export const DEFAULT_TEMPLATE_SLUGS = [
  "signal-triage",
  "hypothesis-planning",
  "plan-decomposition",
  "task-execution",
  "monitor-check",
] as const;
export const VERSION_ID = /^ver_[0-9A-HJKMNP-TV-Z]{26}$/;
export const SLUG = /^[a-z0-9-]{2,64}$/;
export const EXPERIMENT_ID = /^exp_[0-9A-HJKMNP-TV-Z]{26}$/;

// Monotonic within a process, so templates made in the same millisecond still list in creation order.
const nextUlid = ulidSource();

/** A new template id and the instant it names (its `createdAt`). */
export function newTemplateId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `tpl_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

export function newVersionId(now = Date.now()): string {
  return `ver_${nextUlid(now)}`;
}

/** A new experiment id and the instant it names (its `createdAt`). */
export function newExperimentId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `exp_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

export function templateKey(id: string): Key {
  return { pk: `${TEMPLATE_ENTITY}#${id}`, sk: TEMPLATE_ENTITY };
}

/** Version numbers in keys: zero-padded so they sort as numbers. */
export function padVersion(number: number): string {
  return String(number).padStart(6, "0");
}

export function versionKey(templateId: string, number: number): Key {
  return { pk: templateKey(templateId).pk, sk: `${VERSION_ENTRY}#${padVersion(number)}` };
}

/**
 * A version's counts, each a spread count beside it (their sort keys all come after the version's
 * and before the next number's): prompts rendered (`usage`), their dispatches that ended
 * (`finished`) and ended done (`completed`), what became of that work (`merged`, `reworked`,
 * `regressed`, `verified`: docs/api.md#outcomes), people's code-host reviews of its agents' pull
 * requests by verdict (`human-approved`, `human-changes-requested`, `human-commented`), and what those dispatches' agents reported they
 * cost: how many reported usage (`reported`) and a cost (`cost-reported`), and the sums of tokens
 * in and out and of dollars.
 */
export const VERSION_COUNTS = [
  "usage",
  "finished",
  "completed",
  "merged",
  "reworked",
  "regressed",
  "verified",
  "human-approved",
  "human-changes-requested",
  "human-commented",
  "reported",
  "cost-reported",
  "tokens-in",
  "tokens-out",
  "cost",
] as const;
export type VersionCount = (typeof VERSION_COUNTS)[number];

/** Base of one of a version's spread counts. */
export function versionCountKey(templateId: string, number: number, count: VersionCount): Key {
  const key = versionKey(templateId, number);
  return { pk: key.pk, sk: `${key.sk}#${count}` };
}

/**
 * Where a version's reviews stand, beside it (sorted among its counts, so the version range reads it
 * too); versions folded before it existed keep their tally on the version item itself.
 */
export function versionReviewsKey(templateId: string, number: number): Key {
  const key = versionKey(templateId, number);
  return { pk: key.pk, sk: `${key.sk}#${REVIEWS_SUFFIX}` };
}

/** The template and version number a version's reviews item belongs to, from its key; undefined for any other key. */
export function versionOfReviewsKey(key: Key): { templateId: string; number: number } | undefined {
  const sk = String(key.sk);
  const pk = String(key.pk);
  if (!pk.startsWith(`${TEMPLATE_ENTITY}#`) || !isVersionReviewsSortKey(sk)) return undefined;
  return {
    templateId: pk.slice(TEMPLATE_ENTITY.length + 1),
    number: Number(sk.slice(VERSION_ENTRY.length + 1, VERSION_ENTRY.length + 7)),
  };
}

/** Whether a sort key of the template partition is a version's reviews item. */
export function isVersionReviewsSortKey(sk: string): boolean {
  return sk.startsWith(`${VERSION_ENTRY}#`) && suffixOfVersionSortKey(sk) === REVIEWS_SUFFIX;
}

/** Whether a sort key of the template partition is a version item (not one of its counts). */
export function isVersionSortKey(sk: string): boolean {
  return sk.startsWith(`${VERSION_ENTRY}#`) && sk.length === VERSION_ENTRY.length + 7;
}

/** Which of a version's counts a (base) sort key holds. */
export function versionCountOfSortKey(sk: string): VersionCount {
  return suffixOfVersionSortKey(sk) as VersionCount;
}

/** What follows `#<000042>#` in the sort key of an item beside a version (`usage`, `reviews`, …). */
function suffixOfVersionSortKey(sk: string): string {
  return sk.slice(VERSION_ENTRY.length + 8);
}

/** The version number a version or usage sort key belongs to. */
export function versionNumberOfSortKey(sk: string): number {
  return Number(sk.slice(VERSION_ENTRY.length + 1, VERSION_ENTRY.length + 7));
}

/** Where a version id points: its template and number. */
export function versionPointerKey(versionId: string): Key {
  return { pk: `${VERSION_ENTITY}#${versionId}`, sk: VERSION_ENTITY };
}

export function slugKey(slug: string): Key {
  return { pk: `${SLUG_ENTITY}#${slug}`, sk: SLUG_ENTITY };
}

export function seedKey(slug: string): Key {
  return { pk: `${SEED_ENTITY}#${slug}`, sk: SEED_ENTITY };
}

/** Held by the instance seeding the default templates while it does. */
export function seedingKey(): Key {
  return { pk: SEED_ENTITY, sk: SEED_ENTITY };
}

/** Sort key of a template in its listing: the ULID of its id. */
export function templateSortKey(id: string): string {
  return id.slice("tpl_".length);
}

/** Templates are few and made by people: a day per count bucket keeps few count items. */
export const TEMPLATE_LISTINGS = ulidListingScheme("template", DAY_MS, 6);

/** The two arms of an experiment: the active version and the candidate draft. */
export type ExperimentArm = "control" | "candidate";

/**
 * What is counted per arm (templates/experiment-counts.ts): claims, dispatches finished, completed
 * and failed, what became of their work (merged, reworked, regressed, verified), reviews with the
 * sums of their ratings and of their squares, and reported costs with their sum and sum of squares.
 */
export type ArmCount =
  | "claims"
  | "finished"
  | "completed"
  | "failed"
  | "merged"
  | "reworked"
  | "regressed"
  | "verified"
  | "reviews"
  | "ratings"
  | "ratings-sq"
  | "cost-reports"
  | "cost"
  | "cost-sq";

export function experimentKey(templateId: string, experimentId: string): Key {
  return { pk: templateKey(templateId).pk, sk: `${EXPERIMENT_ENTRY}#${experimentId.slice("exp_".length)}` };
}

/** Sort keys of every experiment of a template, with their counts, start with this. */
export const EXPERIMENT_SORT_PREFIX = `${EXPERIMENT_ENTRY}#`;

/** Base of one of an arm's spread counts. */
export function armCountKey(templateId: string, experimentId: string, arm: ExperimentArm, count: ArmCount): Key {
  const key = experimentKey(templateId, experimentId);
  return { pk: key.pk, sk: `${key.sk}#${arm}#${count}` };
}

/** The experiment id a sort key of the template partition belongs to (its item's or one of its counts'). */
export function experimentIdOfSortKey(sk: string): string {
  return `exp_${sk.slice(EXPERIMENT_SORT_PREFIX.length, EXPERIMENT_SORT_PREFIX.length + 26)}`;
}

/** The arm and count a (base) count sort key names; undefined for the experiment item itself. */
export function armCountOfSortKey(sk: string): { arm: ExperimentArm; count: ArmCount } | undefined {
  const rest = sk.slice(EXPERIMENT_SORT_PREFIX.length + 26);
  if (rest === "") return undefined;
  const [, arm, count] = rest.split("#");
  return { arm: arm as ExperimentArm, count: count as ArmCount };
}

/**
 * A partial's name: its id in paths and keys (docs/api.md#partials). `__proto__` is not one: a
 * Handlebars environment keeps partials in a plain object, where that name would set its prototype.
 */
export const PARTIAL_NAME = /^(?!__proto__$)[a-z0-9_-]{1,64}$/;

/** Names of the default partials (./defaults.ts holds their content), seeded with the default templates. */
export const DEFAULT_PARTIAL_NAMES = ["kaizen-reporting"] as const;

export function partialKey(name: string): Key {
  return { pk: `${PARTIAL_ENTITY}#${name}`, sk: PARTIAL_ENTITY };
}

/** What includes a partial: a version (by id, with its template and number), or another partial, by name. */
export type PartialHolder = { versionId: string; templateId: string; versionNumber: number } | { partial: string };

/** Sort keys of a partial's uses start with this. */
export const PARTIAL_USE_PREFIX = `${PARTIAL_ENTITY}#use#`;

/** The record, beside the partial, that `holder` includes it. */
export function partialUseKey(name: string, holder: PartialHolder): Key {
  const tail = "versionId" in holder ? `v#${holder.versionId}` : `p#${holder.partial}`;
  return { pk: partialKey(name).pk, sk: `${PARTIAL_USE_PREFIX}${tail}` };
}

/** Where a default partial was seeded (beside the default templates' marks). */
export function partialSeedKey(name: string): Key {
  return seedKey(`partial#${name}`);
}

/**
 * Partials list by name: a bucket per first character (names are `[a-z0-9_-]`, and the buckets sort
 * as the names do).
 */
export const PARTIAL_LISTINGS: ListingScheme = {
  entity: "partial",
  bucketOf: (sk) => sk.slice(0, 1),
  bucketStart: (bucket) => bucket,
  bucketEnd: (bucket) => String.fromCharCode(bucket.charCodeAt(0) + 1),
};
