/**
 * @module issues/store — every DynamoDB expression about issues: the gap-free create transaction,
 * reads by id and number, and listing pages whose offsets come from maintained bucket counts.
 * Keys and access patterns: ./keys.ts.
 */
import { ulid } from "ulid";
import type { Db, Item, TransactItem } from "../db/client.js";
import { type EntryFilter, ListingIndex } from "../db/listing.js";
import { retryRaces } from "../db/retry.js";
import {
  ISSUE_LISTINGS,
  issueCounterKey,
  issueKey,
  issueNumberIndexKey,
  issueRef,
  type Listing,
  listingName,
  listingsOf,
  numberEntryKey,
  padNumber,
} from "./keys.js";
import type { Issue } from "./schemas.js";

/** An issue plus its version (the `ETag`). */
export interface StoredIssue {
  issue: Issue;
  version: number;
}

/** Fields a caller chooses when creating an issue; the store assigns id, number and times. */
export type NewIssue = Omit<Issue, "id" | "number" | "identifier" | "createdAt" | "updatedAt">;

export interface ListRequest {
  /** Zero or more listings the issues must all be in (`all` is implied). */
  listings: Listing[];
  order: "asc" | "desc";
  offset: number;
  limit: number;
}

/** Fields copied onto listing entries so combined filters are checked without reading issues. */
const ENTRY_FIELDS = ["status", "type", "priority", "projectId", "labels"] as const;

// Named condition fragments.
/** The counter still holds the number we read: nobody created an issue in between. */
const counterUnchanged = "#lastNumber = :expectedNumber";
/** No issue has been created yet. */
const counterAbsent = "attribute_not_exists(#lastNumber)";
/** The issue id is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The issue is as it was read. */
const versionUnchanged = "#version = :expectedVersion";

export class IssueStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, ISSUE_LISTINGS);
  }

  /**
   * Writes a new issue with the next `number` in one transaction with its listing entries and
   * counts; see {@link IssueStore.prepareCreate}. Retries while other creates win the counter.
   */
  async create(fields: NewIssue, now: () => Date = () => new Date()): Promise<StoredIssue> {
    const id = newIssueId();
    return retryRaces(async () => {
      const counter = await this.db.get(issueCounterKey(), { consistent: true });
      const { stored, writes } = this.prepareCreate(fields, counter, now(), id);
      await this.db.transactWrite(writes);
      return stored;
    });
  }

  /**
   * The writes that create an issue numbered after `counter` (the counter item as just read):
   * the counter advance under the condition that it has not moved, so numbers are unique and
   * gap-free whatever the concurrency; the issue (its `createdAt` never before the previous
   * issue's); its listing entries and counts. Callers add them to a transaction of their own.
   */
  prepareCreate(fields: NewIssue, counter: Item | undefined, now: Date, id = newIssueId()) {
    const lastNumber = typeof counter?.lastNumber === "number" ? counter.lastNumber : 0;
    const lastCreatedAt = typeof counter?.lastCreatedAt === "string" ? counter.lastCreatedAt : "";
    const clock = now.toISOString();
    // ISO strings of one format order as the instants they name; Math.max does not take strings.
    // biome-ignore lint/complexity/useMathMinMax: string comparison
    const createdAt = clock > lastCreatedAt ? clock : lastCreatedAt;
    const number = lastNumber + 1;
    const issue: Issue = { ...fields, id, number, identifier: issueRef(number), createdAt, updatedAt: createdAt };
    const item = issueItem(issue, 1);
    const writes: TransactItem[] = [
      counterAdvance(lastNumber, createdAt),
      { Put: { Item: item, ConditionExpression: itemAbsent } },
      ...this.listings.additions(listingsOf(issue).map(listingName), padNumber(number), entryFields(issue)),
    ];
    return { stored: fromItem(item), writes };
  }

  /**
   * The writes that change `current` by `changes`, under the condition that nobody changed it
   * since it was read (its version), with its listing entries following its fields.
   */
  prepareUpdate(current: StoredIssue, changes: Partial<NewIssue>, now: Date) {
    const updated: Issue = { ...current.issue, ...changes, updatedAt: now.toISOString() };
    const version = current.version + 1;
    const item = issueItem(updated, version);
    const before = entryFields(current.issue);
    const after = entryFields(updated);
    const writes: TransactItem[] = [
      {
        Put: {
          Item: item,
          ConditionExpression: versionUnchanged,
          ExpressionAttributeNames: { "#version": "version" },
          ExpressionAttributeValues: { ":expectedVersion": current.version },
        },
      },
      ...this.listings.changes(
        listingsOf(current.issue).map(listingName),
        listingsOf(updated).map(listingName),
        padNumber(updated.number),
        after,
        JSON.stringify(before) !== JSON.stringify(after),
      ),
    ];
    return { stored: fromItem(item), writes };
  }

  async get(id: string): Promise<StoredIssue | undefined> {
    const item = await this.db.get(issueKey(id), { consistent: true });
    return item ? fromItem(item) : undefined;
  }

  /** By `number`: one index query, or the strongly consistent listing entry while the index lags. */
  async getByNumber(number: number): Promise<StoredIssue | undefined> {
    const { gsi1pk, gsi1sk } = issueNumberIndexKey(number);
    const out = await this.db.query({
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
      ExpressionAttributeValues: { ":pk": gsi1pk, ":sk": gsi1sk },
      Limit: 1,
    });
    const indexed = out.Items?.[0];
    if (indexed) return fromItem(indexed);
    const entry = await this.db.get(numberEntryKey(number), { consistent: true });
    return typeof entry?.id === "string" ? this.get(entry.id) : undefined;
  }

  /** How many live issues carry the label (from the label listing's counts). */
  async countWithLabel(name: string): Promise<number> {
    return this.listings.count(listingName({ field: "label", value: name }));
  }

  /** Live issues of a project per status (reads the project listing's narrow entries). */
  async statusCountsOfProject(projectId: string): Promise<Record<string, number>> {
    return this.listings.countBy(listingName({ field: "project", value: projectId }), "status");
  }

  /**
   * One page of issues in `number` order and the count of all matches. With at most one listing
   * the page is located from the listing's counts (3 calls whatever the page); combined listings
   * walk the narrow entries of the most selective one and check the rest on the entries.
   */
  async list({ listings, order, offset, limit }: ListRequest): Promise<{ issues: StoredIssue[]; total: number }> {
    const [driving = { field: "all" }, ...others] = [...listings].sort((a, b) => selectivity(a) - selectivity(b));
    const { entries, total } =
      others.length === 0
        ? await this.listings.page(listingName(driving), { order, offset, limit })
        : await this.listings.walk(listingName(driving), others.map(entryFilter), { order, offset, limit });
    const items = await this.db.batchGet(
      entries.map((entry) => issueKey(String(entry.id))),
      { consistent: true },
    );
    return { issues: items.map(fromItem), total };
  }
}

/** Moves the counter from `lastNumber` to the next number, only if it still reads `lastNumber`. */
function counterAdvance(lastNumber: number, createdAt: string): TransactItem {
  return {
    Update: {
      Key: issueCounterKey(),
      UpdateExpression: "SET #lastNumber = :nextNumber, #lastCreatedAt = :createdAt",
      ConditionExpression: lastNumber === 0 ? counterAbsent : counterUnchanged,
      ExpressionAttributeNames: { "#lastNumber": "lastNumber", "#lastCreatedAt": "lastCreatedAt" },
      ExpressionAttributeValues: {
        ":nextNumber": lastNumber + 1,
        ":createdAt": createdAt,
        ...(lastNumber === 0 ? {} : { ":expectedNumber": lastNumber }),
      },
    },
  };
}

/** What a listing entry keeps of an issue: its id and the fields combined filters check. */
function entryFields(issue: Issue): Item {
  return { id: issue.id, ...Object.fromEntries(ENTRY_FIELDS.map((field) => [field, issue[field]])) };
}

function issueItem(issue: Issue, version: number): Item {
  return { ...issueKey(issue.id), ...issueNumberIndexKey(issue.number), entity: "issue", version, ...issue };
}

/** The stored issue an item holds. */
export function fromItem(item: Item): StoredIssue {
  const issue: Issue = {
    id: String(item.id),
    number: Number(item.number),
    identifier: issueRef(Number(item.number)),
    title: String(item.title),
    description: (item.description as string | null | undefined) ?? null,
    type: item.type as Issue["type"],
    status: item.status as Issue["status"],
    priority: Number(item.priority ?? 0),
    parentId: (item.parentId as string | null | undefined) ?? null,
    projectId: (item.projectId as string | null | undefined) ?? null,
    labels: (item.labels as string[] | undefined) ?? [],
    fingerprint: (item.fingerprint as string | null | undefined) ?? null,
    signalSource: (item.signalSource as string | null | undefined) ?? null,
    signalCount: Number(item.signalCount ?? 0),
    lastSignalAt: (item.lastSignalAt as string | null | undefined) ?? null,
    hypothesis: (item.hypothesis as Issue["hypothesis"] | undefined) ?? null,
    agentSummary: (item.agentSummary as string | null | undefined) ?? null,
    commits: (item.commits as Issue["commits"] | undefined) ?? [],
    pullRequests: (item.pullRequests as Issue["pullRequests"] | undefined) ?? [],
    blockedBy: (item.blockedBy as string[] | undefined) ?? [],
    completedAt: (item.completedAt as string | null | undefined) ?? null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
  return { issue, version: Number(item.version ?? 1) };
}

/** Rough size order of a listing, smallest first: the driving listing of a combined filter. */
function selectivity(listing: Listing): number {
  return ["label", "project", "status", "priority", "type", "all"].indexOf(listing.field);
}

/** The check a combined filter makes on listing entries for one more listing. */
function entryFilter(listing: Listing): EntryFilter {
  if (listing.field === "all") throw new Error("`all` is never a filter");
  if (listing.field === "label") return { attribute: "labels", value: listing.value, match: "contains" };
  return {
    attribute: listing.field === "project" ? "projectId" : listing.field,
    value: listing.value,
    match: "equals",
  };
}

export function newIssueId(): string {
  return `iss_${ulid()}`;
}
