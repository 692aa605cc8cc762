/**
 * @module dispatch/queue-index — the dispatch queue as a listing (db/listing.ts): every issue that
 * can be claimed now (`todo`, no open blocker, not deleted) has an entry sorted by its claim order
 * (dispatch/scoring.ts), in `all`, `project=<id|none>` and `type=<type>`. Issue writes keep it, so
 * a claim reads the head of one listing and never scans the issues.
 */
import type { Item } from "../db/client.js";
import type { ListingScheme } from "../db/listing.js";
import type { Issue } from "../issues/schemas.js";
import { queueSortKey } from "./scoring.js";

/** Width of a bucket's name: the first 8 of the 16 digits of a key's value, about 28 hours each. */
const BUCKET_DIGITS = 8;

export const QUEUE_LISTINGS: ListingScheme = {
  entity: "queue",
  bucketOf: (sk) => sk.slice(0, BUCKET_DIGITS),
  bucketStart: (bucket) => bucket,
  bucketEnd: (bucket) => String(Number(bucket) + 1).padStart(BUCKET_DIGITS, "0"),
};

/** An issue a claim may take now (leases that ran out are handled by the claim itself). */
export function isQueued(issue: Pick<Issue, "status" | "blockedBy">): boolean {
  return issue.status === "todo" && issue.blockedBy.length === 0;
}

/** The queue of one project's issues (`null`: issues in no project). */
export function queueProjectListing(projectId: string | null): string {
  return `project=${projectId ?? "none"}`;
}

/** The queue of one type's issues. */
export function queueTypeListing(type: Issue["type"]): string {
  return `type=${type}`;
}

/** The listings an issue's queue entry is in. */
export function queueListings(issue: Pick<Issue, "projectId" | "type">): string[] {
  return ["all", queueProjectListing(issue.projectId), queueTypeListing(issue.type)];
}

/** Where a queued issue stands, and what its entry carries (what the queue preview shows without reading issues). */
export function queuePlacement(issue: Issue, goalActive: boolean): { sk: string; entry: Item } {
  return {
    sk: queueSortKey(issue, goalActive),
    entry: {
      issueId: issue.id,
      number: issue.number,
      projectId: issue.projectId,
      type: issue.type,
      priority: issue.priority,
      createdAt: issue.createdAt,
      goalActive,
    },
  };
}
