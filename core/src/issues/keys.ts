/**
 * @module issues/keys — the issue entity's items and keys (pure functions, no I/O).
 *
 * Access patterns:
 * - issue by id ............ GetItem   pk=$kaizen#issue_1#<id>          sk=$kaizen#issue_1
 * - issue with its children and relations, for its detail: Query pk=$kaizen#issue_1#<id>
 *                            (child summaries sk=$kaizen#issuechild_1#<number>, relation edges
 *                            sk=$kaizen#issuerel_1#<relation id>)
 * - issue with its pending signals, for a fold: Query pk=$kaizen#issue_1#<id>, sk begins_with
 *                            $kaizen#issue_1 (the issue item, then sk=$kaizen#issue_1#signal#<signal id>)
 * - issue by number ........ Query     gsi1pk=$kaizen#issue_1#number    gsi1sk=<number, padded>
 *                            (fallback: GetItem on the `all` listing entry, which is strongly consistent)
 * - next number ............ UpdateItem ADD lastNumber on pk=$kaizen#counter_1#issue  sk=$kaizen#counter_1
 *                            (db/sequence.ts; also records lastCreatedAt)
 * - lists by number ........ listings of db/listing-index.ts, entity `issue`, sort key = padded number,
 *                            buckets of BUCKET_SIZE numbers
 * - list by priority ....... listing `all` of entity `issuepriority`, sort key = priority rank#number
 * - list by -updatedAt ..... listing `all` of entity `issueupdated`, sort key = updatedAt#number,
 *                            hour buckets
 *
 * - issue of a pull request GetItem pk=$kaizen#pullrequest_1#<owner/name, lower case>#<number>
 *                            (written when a completion names it, docs/api.md#review)
 * - a project's issues in review GetItem pk=$kaizen#reviewload_1#<project id> (a count every move into
 *                            or out of `in_review` changes, docs/api.md#review-capacity)
 *
 * A number listing is `all`, or one value of a filterable field: `status=todo`, `type=task`,
 * `priority=2`, `project=prj_…`, `label=bug`, `parent=iss_…`, `fingerprint=…`. `createdAt` is
 * non-decreasing in `number` (the create transaction guarantees it), so number order is creation
 * order. Deleted issues are in no listing.
 */
import type { Key } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import { type ListingScheme, listingEntryKey } from "../db/listing-index.js";

export const ISSUE_ENTITY = keyPrefix("issue");
const COUNTER_ENTITY = keyPrefix("counter");

/** Issue numbers per count bucket: the most entries a page walk reads before its page. */
export const BUCKET_SIZE = 100;

export function issueKey(id: string): Key {
  return { pk: `${ISSUE_ENTITY}#${id}`, sk: ISSUE_ENTITY };
}

const PULL_REQUEST_ENTITY = keyPrefix("pullrequest");

/** The pointer from a pull request to the issue it was completed for; a repository is matched in any case. */
export function pullRequestKey(repository: string, number: number): Key {
  return { pk: `${PULL_REQUEST_ENTITY}#${repository.toLowerCase()}#${number}`, sk: PULL_REQUEST_ENTITY };
}

const REVIEW_LOAD_ENTITY = keyPrefix("reviewload");

/** How many of a project's issues wait in review. */
export function reviewLoadKey(projectId: string): Key {
  return { pk: `${REVIEW_LOAD_ENTITY}#${projectId}`, sk: REVIEW_LOAD_ENTITY };
}

const VERIFY_WATCH_ENTITY = keyPrefix("verifywatch");

/** The one partition of the watched fixes, sorted by when their windows end. */
export const VERIFY_WATCH_PARTITION = VERIFY_WATCH_ENTITY;

/** A merged fix of issue `issueId` watched until `until` (docs/api.md#verification). */
export function verifyWatchKey(until: string, issueId: string): Key {
  return { pk: VERIFY_WATCH_PARTITION, sk: `${until}#${issueId}` };
}

/** Sort-key prefix of the child summaries kept in a parent's partition. */
export const CHILD_POINTER_PREFIX = `${keyPrefix("issuechild")}#`;
/** Sort-key prefix of the relation edges kept in each related issue's partition. */
export const RELATION_EDGE_PREFIX = `${keyPrefix("issuerel")}#`;

/**
 * Sort-key prefix of the signals waiting in an issue's partition to be folded into its item: they
 * begin with the issue's own sort key, so one query from it reads the issue and them.
 */
export const PENDING_SIGNAL_PREFIX = `${ISSUE_ENTITY}#signal#`;

/** A grouped signal waiting to be folded into its issue's aggregates. */
export function pendingSignalKey(issueId: string, signalId: string): Key {
  return { pk: issueKey(issueId).pk, sk: `${PENDING_SIGNAL_PREFIX}${signalId}` };
}

/** A child's summary, in its parent's partition (read with the parent in one query). */
export function childPointerKey(parentId: string, childNumber: number): Key {
  return { pk: issueKey(parentId).pk, sk: `${CHILD_POINTER_PREFIX}${padNumber(childNumber)}` };
}

/** gsi1 attributes of an issue item: looked up by number for `KZN-<n>`. */
export function issueNumberIndexKey(number: number): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: `${ISSUE_ENTITY}#number`, gsi1sk: padNumber(number) };
}

export function issueCounterKey(): Key {
  return { pk: `${COUNTER_ENTITY}#issue`, sk: COUNTER_ENTITY };
}

/** Issue listings sort by number and count per bucket of BUCKET_SIZE numbers. */
export const ISSUE_LISTINGS: ListingScheme = {
  entity: "issue",
  bucketOf: (sk) => padBucket(Math.floor(Number(sk) / BUCKET_SIZE)),
  bucketStart: (bucket) => padNumber(Number(bucket) * BUCKET_SIZE),
  bucketEnd: (bucket) => padNumber((Number(bucket) + 1) * BUCKET_SIZE),
};

/**
 * Issues by priority, most urgent first: ranks 1..4 for priorities 1..4, 5 for 0 (none), then
 * by number within a rank.
 */
export const ISSUE_PRIORITY_LISTINGS: ListingScheme = {
  entity: "issuepriority",
  bucketOf: (sk) => `${sk.slice(0, 1)}#${padBucket(Math.floor(Number(sk.slice(2)) / BUCKET_SIZE))}`,
  bucketStart: (bucket) => `${bucket.slice(0, 1)}#${padNumber(Number(bucket.slice(2)) * BUCKET_SIZE)}`,
  bucketEnd: (bucket) => `${bucket.slice(0, 1)}#${padNumber((Number(bucket.slice(2)) + 1) * BUCKET_SIZE)}`,
};

export function prioritySortKey(priority: number, number: number): string {
  return `${priority === 0 ? 5 : priority}#${padNumber(number)}`;
}

const HOUR_MS = 3_600_000;

/** Issues by last update; sort keys are `<epoch ms, padded>#<number>`, counted per hour. */
export const ISSUE_UPDATED_LISTINGS: ListingScheme = {
  entity: "issueupdated",
  bucketOf: (sk) => String(Math.floor(Number(sk.slice(0, 15)) / HOUR_MS)).padStart(10, "0"),
  bucketStart: (bucket) => String(Number(bucket) * HOUR_MS).padStart(15, "0"),
  bucketEnd: (bucket) => String((Number(bucket) + 1) * HOUR_MS).padStart(15, "0"),
};

export function updatedSortKey(updatedAt: string, number: number): string {
  return `${String(Date.parse(updatedAt)).padStart(15, "0")}#${padNumber(number)}`;
}

export type Listing =
  | { field: "all" }
  | {
      field: "status" | "type" | "priority" | "project" | "label" | "parent" | "fingerprint";
      value: string | number;
    };

export function listingName(listing: Listing): string {
  return listing.field === "all" ? "all" : `${listing.field}=${listing.value}`;
}

/** The `all` listing entry of an issue number (holds the issue's id). */
export function numberEntryKey(number: number): Key {
  return listingEntryKey(ISSUE_LISTINGS.entity, "all", padNumber(number));
}

/** Every listing an issue with these fields appears in. */
export function listingsOf(issue: {
  status: string;
  type: string;
  priority: number;
  projectId: string | null;
  labels: string[];
  parentId?: string | null;
  fingerprint?: string | null;
}): Listing[] {
  return [
    { field: "all" },
    { field: "status", value: issue.status },
    { field: "type", value: issue.type },
    { field: "priority", value: issue.priority },
    ...(issue.projectId ? [{ field: "project" as const, value: issue.projectId }] : []),
    ...issue.labels.map((label) => ({ field: "label" as const, value: label })),
    ...(issue.parentId ? [{ field: "parent" as const, value: issue.parentId }] : []),
    ...(issue.fingerprint ? [{ field: "fingerprint" as const, value: issue.fingerprint }] : []),
  ];
}

export function padNumber(number: number): string {
  return String(number).padStart(12, "0");
}

export function padBucket(bucket: number): string {
  return String(bucket).padStart(10, "0");
}

/** Shape of an issue id (`iss_` + ULID). */
export const ISSUE_ID = /^iss_[0-9A-HJKMNP-TV-Z]{26}$/;

/** `KZN-12` → 12; undefined for anything else. */
export function parseIssueRef(ref: string): number | undefined {
  const match = /^KZN-([1-9][0-9]{0,11})$/i.exec(ref);
  return match ? Number(match[1]) : undefined;
}

export function issueRef(number: number): string {
  return `KZN-${number}`;
}
