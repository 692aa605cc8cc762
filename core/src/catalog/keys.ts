/**
 * @module catalog/keys — items and keys of projects, goals and labels (pure functions, no I/O).
 *
 * Access patterns:
 * - project by id .......... GetItem   pk=$kaizen#project_1#<id>     sk=$kaizen#project_1
 * - goal by id ............. GetItem   pk=$kaizen#goal_1#<id>        sk=$kaizen#goal_1
 * - label by id ............ GetItem   pk=$kaizen#label_1#<id>       sk=$kaizen#label_1
 * - label by name .......... GetItem / BatchGetItem  pk=$kaizen#labelname_1#<folded name>
 *                            (the name claim: written only if absent, in the label's transaction,
 *                            so two labels never share a name whatever the concurrency)
 * - source by provider and name  GetItem / BatchGetItem  pk=$kaizen#projectsource_1#<kind>#<folded name>
 *                            (the claim a project holds on a source it owns, with the routing a
 *                            signal from it needs: written only by its project's writes, so a source
 *                            belongs to one project whatever the concurrency; read by the receivers
 *                            beside the fingerprint's pointer)
 * - lists .................. listings of db/listing-index.ts, entities `project`, `goal`, `label`, sort
 *                            key = the id's ULID (creation order), buckets of one day; listings
 *                            `all`, `status=` (projects, goals), `project=` (goals)
 *
 * Pointers: a project's `goalId` and a goal's `projectId` are counted on the item they point
 * at (`refCount`), in the same transaction that sets or clears them, so a delete conditioned on
 * that count being zero never leaves a pointer dangling.
 */
import { decodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";
import { ulidFloor, ulidListingScheme } from "../db/listing-index.js";

const PROJECT_ENTITY = keyPrefix("project");
const GOAL_ENTITY = keyPrefix("goal");
const LABEL_ENTITY = keyPrefix("label");
const LABEL_NAME_ENTITY = keyPrefix("labelname");
const PROJECT_SOURCE_ENTITY = keyPrefix("projectsource");
const DAY_MS = 86_400_000;

/** Shape of each catalog id: type prefix + ULID. */
export const PROJECT_ID = /^prj_[0-9A-HJKMNP-TV-Z]{26}$/;
export const GOAL_ID = /^gol_[0-9A-HJKMNP-TV-Z]{26}$/;
export const LABEL_ID = /^lbl_[0-9A-HJKMNP-TV-Z]{26}$/;

// Records made in the same millisecond still list in creation order (db/ids.ts).
const nextUlid = ulidSource();

export type CatalogPrefix = "prj" | "gol" | "lbl";

/**
 * A new id of the given kind, and the instant it names (its `createdAt`): `now`, or the instant
 * of the previous id when the clock stepped back a little (db/ids.ts), so ids and times never go
 * backwards together.
 */
export function newCatalogId(prefix: CatalogPrefix, now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `${prefix}_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

export function projectKey(id: string): Key {
  return { pk: `${PROJECT_ENTITY}#${id}`, sk: PROJECT_ENTITY };
}

export function goalKey(id: string): Key {
  return { pk: `${GOAL_ENTITY}#${id}`, sk: GOAL_ENTITY };
}

export function labelKey(id: string): Key {
  return { pk: `${LABEL_ENTITY}#${id}`, sk: LABEL_ENTITY };
}

/** The claim on a label name; names compare case-insensitively, so the key holds the folded name. */
export function labelNameKey(name: string): Key {
  return { pk: `${LABEL_NAME_ENTITY}#${foldLabelName(name)}`, sk: LABEL_NAME_ENTITY };
}

/** The form two label names share when they are "the same name": `Bug` and `bug` fold alike. */
export function foldLabelName(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

/** The claim on a source of `kind`; source names compare case-insensitively, so the key holds the folded name. */
export function projectSourceKey(kind: string, name: string): Key {
  return { pk: `${PROJECT_SOURCE_ENTITY}#${kind}#${foldSourceName(name)}`, sk: PROJECT_SOURCE_ENTITY };
}

/** The form two source names share when they name the same source: `Acme/Shop` and `acme/shop` fold alike. */
export function foldSourceName(name: string): string {
  return name.toLowerCase();
}

/** Sort key of a catalog record in its listings: the ULID of its id. */
export function catalogSortKey(id: string): string {
  return id.slice(id.indexOf("_") + 1);
}

export const PROJECT_LISTINGS = ulidListingScheme("project", DAY_MS, 6);
export const GOAL_LISTINGS = ulidListingScheme("goal", DAY_MS, 6);
export const LABEL_LISTINGS = ulidListingScheme("label", DAY_MS, 6);

export { ulidFloor };

/** Name of the listing of records whose `field` has `value`; `all` lists every record. */
export function listingName(field: "status" | "project", value: string): string {
  return `${field}=${value}`;
}

export function projectListings(project: { status: string }): string[] {
  return ["all", listingName("status", project.status)];
}

export function goalListings(goal: { status: string; projectId: string | null }): string[] {
  return [
    "all",
    listingName("status", goal.status),
    ...(goal.projectId ? [listingName("project", goal.projectId)] : []),
  ];
}

export function labelListings(): string[] {
  return ["all"];
}
