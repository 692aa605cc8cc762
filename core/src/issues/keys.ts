/**
 * @module issues/keys — the issue entity's items and keys (pure functions, no I/O).
 *
 * Access patterns:
 * - issue by id ............ GetItem   pk=$kaizen#issue_1#<id>          sk=$kaizen#issue_1
 * - issue by number ........ Query     gsi1pk=$kaizen#issue_1#number    gsi1sk=<number, padded>
 *                            (fallback: GetItem on the `all` listing entry, which is strongly consistent)
 * - next number ............ GetItem   pk=$kaizen#counter_1#issue       sk=$kaizen#counter_1
 * - list, one listing ...... Query     pk=$kaizen#issuelist_1#<listing> sk=<number, padded>
 *                            narrow entries (id + filterable fields), one per issue per listing
 * - page offsets, totals ... Query     pk=$kaizen#issuecount_1#<listing> sk=<bucket, padded>
 *                            a live-entry count per bucket of BUCKET_SIZE numbers
 *
 * A listing is `all`, or one value of a filterable field: `status=todo`, `type=task`,
 * `priority=2`, `project=prj_…`, `label=bug`. Entries sort by `number`; `createdAt` is
 * non-decreasing in `number` (the create transaction guarantees it), so number order is
 * creation order.
 */
import type { Key } from "../db/client.js";

export const ISSUE_ENTITY = "$kaizen#issue_1";
const COUNTER_ENTITY = "$kaizen#counter_1";
const LISTING_ENTITY = "$kaizen#issuelist_1";
const COUNT_ENTITY = "$kaizen#issuecount_1";

/** Issue numbers per count bucket: the most entries a page walk reads before its page. */
export const BUCKET_SIZE = 100;

export function issueKey(id: string): Key {
  return { pk: `${ISSUE_ENTITY}#${id}`, sk: ISSUE_ENTITY };
}

/** gsi1 attributes of an issue item: looked up by number for `KZN-<n>`. */
export function issueNumberIndexKey(number: number): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: `${ISSUE_ENTITY}#number`, gsi1sk: padNumber(number) };
}

export function issueCounterKey(): Key {
  return { pk: `${COUNTER_ENTITY}#issue`, sk: COUNTER_ENTITY };
}

export type Listing =
  | { field: "all" }
  | { field: "status" | "type" | "priority" | "project" | "label"; value: string | number };

export function listingName(listing: Listing): string {
  return listing.field === "all" ? "all" : `${listing.field}=${listing.value}`;
}

export function listingPk(listing: Listing): string {
  return `${LISTING_ENTITY}#${listingName(listing)}`;
}

export function listingEntryKey(listing: Listing, number: number): Key {
  return { pk: listingPk(listing), sk: padNumber(number) };
}

export function countPk(listing: Listing): string {
  return `${COUNT_ENTITY}#${listingName(listing)}`;
}

export function bucketOf(number: number): number {
  return Math.floor(number / BUCKET_SIZE);
}

export function countKey(listing: Listing, bucket: number): Key {
  return { pk: countPk(listing), sk: padBucket(bucket) };
}

/** Sort key of the first number in `bucket` (inclusive lower bound of its entries). */
export function bucketStartSk(bucket: number): string {
  return padNumber(bucket * BUCKET_SIZE);
}

/** Every listing an issue with these fields appears in. */
export function listingsOf(issue: {
  status: string;
  type: string;
  priority: number;
  projectId: string | null;
  labels: string[];
}): Listing[] {
  return [
    { field: "all" },
    { field: "status", value: issue.status },
    { field: "type", value: issue.type },
    { field: "priority", value: issue.priority },
    ...(issue.projectId ? [{ field: "project" as const, value: issue.projectId }] : []),
    ...issue.labels.map((label) => ({ field: "label" as const, value: label })),
  ];
}

export function padNumber(number: number): string {
  return String(number).padStart(12, "0");
}

export function padBucket(bucket: number): string {
  return String(bucket).padStart(10, "0");
}

/** `KZN-12` → 12; undefined for anything else. */
export function parseIssueRef(ref: string): number | undefined {
  const match = /^KZN-([1-9][0-9]{0,11})$/i.exec(ref);
  return match ? Number(match[1]) : undefined;
}

export function issueRef(number: number): string {
  return `KZN-${number}`;
}
