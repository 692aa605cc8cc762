/**
 * @module issues/dispatch-queue — the dispatch queue, in one home: every issue a claim may take now (`todo`,
 * no open blocker, not deleted) has an entry sorted by its claim order (./scoring.ts) in `all`,
 * `project=<id|none>` and `type=<type>` (a listing, db/listing-index.ts). Issue moves keep it through
 * {@link DispatchQueue.changes}; claims and the queue preview read it here, never scanning issues.
 */
import type { Db, Item, TransactItem } from "../db/db.js";
import { type EntryFilter, ListingIndex, type ListingScheme, type PageRequest } from "../db/listing-index.js";
import { countChange } from "../stats/counts.js";
import type { Issue } from "./schemas.js";
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

/**
 * What a claim or the preview asks of the queue: one project's issues, some types; `projectIds`
 * (a key narrowed to projects, docs/security.md#projects) keeps only those projects' issues.
 */
export interface QueueFilters {
  projectId?: string;
  projectIds?: readonly string[] | undefined;
  types?: Issue["type"][];
}

/** An issue at the head of the queue, as its entry names it (a claim passes over a held project's issues unread). */
export interface QueueHeadEntry {
  issueId: string;
  projectId: string | null;
}

/** An issue as the queue sees it: its fields and its goal bonus. */
export type Queued = { issue: Issue; goalActive: boolean };

export class DispatchQueue {
  private readonly listings: ListingIndex;

  constructor(db: Db) {
    this.listings = new ListingIndex(db, QUEUE_LISTINGS);
  }

  /**
   * The writes that keep the queue in step with an issue going from `before` to `after` (null:
   * absent or deleted): its entry joins, leaves, or moves to its new place in each listing, and
   * the queue depth follows.
   */
  changes(before: Queued | null, after: Queued | null): TransactItem[] {
    const from = before && isQueued(before.issue) ? queuePlacement(before.issue, before.goalActive) : undefined;
    const to = after && isQueued(after.issue) ? queuePlacement(after.issue, after.goalActive) : undefined;
    const fromListings = from && before ? queueListings(before.issue) : [];
    const toListings = to && after ? queueListings(after.issue) : [];
    const kept = toListings.filter((listing) => fromListings.includes(listing));
    const changed = JSON.stringify(from) !== JSON.stringify(to);
    return [
      ...(from && !to ? [countChange("queue.depth", -1)] : []),
      ...(to && !from ? [countChange("queue.depth", 1)] : []),
      ...(from
        ? this.listings.removals(
            fromListings.filter((listing) => !kept.includes(listing)),
            from.sk,
          )
        : []),
      ...(to
        ? this.listings.additions(
            toListings.filter((listing) => !kept.includes(listing)),
            to.sk,
            to.entry,
          )
        : []),
      ...(from && to && changed
        ? kept.flatMap((listing) => this.listings.moves(listing, from.sk, to.sk, to.entry))
        : []),
    ];
  }

  /** Whether {@link head} is one query for these filters (its listing's entries need no filtering). */
  headIsOneQuery(filters: QueueFilters): boolean {
    return queueListing(filters).filters.length === 0;
  }

  /** The first `count` queued issues matching the filters, in claim order: their ids and projects. */
  async head(filters: QueueFilters, count: number): Promise<QueueHeadEntry[]> {
    const { listing, filters: entryFilters } = queueListing(filters);
    const entries = await this.listings.head(listing, entryFilters, count);
    return entries.map((entry) => ({
      issueId: String(entry.issueId),
      projectId: typeof entry.projectId === "string" ? entry.projectId : null,
    }));
  }

  /**
   * Entries in claim order (`sk`, issue id, goal bonus, project) from `offset`, and how many match:
   * three reads for an unfiltered page, a walk of the listing's narrow entries otherwise.
   */
  async entries(filters: QueueFilters, request: Omit<PageRequest, "order">) {
    const { listing, filters: entryFilters } = queueListing(filters);
    const ordered = { ...request, order: "asc" as const };
    const { entries, total } =
      entryFilters.length === 0
        ? await this.listings.page(listing, ordered)
        : await this.listings.walk(listing, entryFilters, ordered);
    return {
      total,
      entries: entries.map((entry) => ({
        sk: String(entry.sk),
        issueId: String(entry.issueId),
        goal: entry.goalActive === true,
        projectId: typeof entry.projectId === "string" ? entry.projectId : null,
      })),
    };
  }
}

/** The listing the queue of `filters` is read from: claims that read the same listing meet on it. */
export function queueListingOf(filters: QueueFilters): string {
  return queueListing(filters).listing;
}

/** The listing a queue read starts from, and the filters it checks on its entries. */
function queueListing(filters: QueueFilters): { listing: string; filters: EntryFilter[] } {
  const types = filters.types ?? [];
  const ofTypes: EntryFilter[] = [{ attribute: "type", values: types, match: "in" }];
  const project = filters.projectId ?? (filters.projectIds?.length === 1 ? filters.projectIds[0] : undefined);
  if (project) return { listing: queueProjectListing(project), filters: types.length > 0 ? ofTypes : [] };
  if (filters.projectIds) {
    const ofProjects: EntryFilter = { attribute: "projectId", values: [...filters.projectIds], match: "in" };
    return { listing: "all", filters: [ofProjects, ...(types.length > 0 ? ofTypes : [])] };
  }
  const [only] = types;
  if (only && types.length === 1) return { listing: queueTypeListing(only), filters: [] };
  return { listing: "all", filters: types.length > 1 ? ofTypes : [] };
}
