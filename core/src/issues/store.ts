/**
 * @module issues/store — every DynamoDB expression about issues: the gap-free create transaction,
 * reads by id and number, and listing pages whose offsets come from maintained bucket counts.
 * Keys and access patterns: ./keys.ts.
 */
import { ulid } from "ulid";
import { ConditionFailedError, type Db, type Item, type TransactItem, TransactionConflictError } from "../db/client.js";
import { UnavailableError } from "../errors.js";
import {
  bucketOf,
  bucketStartSk,
  countKey,
  countPk,
  issueCounterKey,
  issueKey,
  issueNumberIndexKey,
  issueRef,
  type Listing,
  listingEntryKey,
  listingPk,
  listingsOf,
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

const MAX_CREATE_ATTEMPTS = 80;

/** Fields copied onto listing entries so combined filters are checked without reading issues. */
const ENTRY_FIELDS = ["status", "type", "priority", "projectId", "labels"] as const;

// Named condition fragments.
/** The counter still holds the number we read: nobody created an issue in between. */
const counterUnchanged = "#lastNumber = :expectedNumber";
/** No issue has been created yet. */
const counterAbsent = "attribute_not_exists(#lastNumber)";
/** The issue id is new. */
const itemAbsent = "attribute_not_exists(pk)";

export class IssueStore {
  constructor(private readonly db: Db) {}

  /**
   * Writes a new issue with the next `number` in one transaction with its listing entries and
   * counts. The number is taken from the counter read just before, under the condition that the
   * counter has not moved, so numbers are unique and gap-free whatever the concurrency;
   * `createdAt` never precedes the previous issue's.
   */
  async create(fields: NewIssue, now: () => Date = () => new Date()): Promise<StoredIssue> {
    const id = `iss_${ulid()}`;
    for (let attempt = 1; attempt <= MAX_CREATE_ATTEMPTS; attempt++) {
      const counter = await this.db.get(issueCounterKey(), { consistent: true });
      const lastNumber = typeof counter?.lastNumber === "number" ? counter.lastNumber : 0;
      const lastCreatedAt = typeof counter?.lastCreatedAt === "string" ? counter.lastCreatedAt : "";
      const clock = now().toISOString();
      // ISO strings of one format order as the instants they name; Math.max does not take strings.
      // biome-ignore lint/complexity/useMathMinMax: string comparison
      const createdAt = clock > lastCreatedAt ? clock : lastCreatedAt;
      const number = lastNumber + 1;
      const issue: Issue = { ...fields, id, number, identifier: issueRef(number), createdAt, updatedAt: createdAt };
      try {
        await this.db.transactWrite([
          counterAdvance(lastNumber, createdAt),
          { Put: { Item: issueItem(issue, 1), ConditionExpression: itemAbsent } },
          ...listingWrites(issue),
        ]);
        return fromItem(issueItem(issue, 1));
      } catch (error) {
        const lostRace =
          error instanceof TransactionConflictError ||
          (error instanceof ConditionFailedError && error.reasons[0] === "ConditionalCheckFailed");
        if (!lostRace) throw error;
        await backoff(attempt);
      }
    }
    throw new UnavailableError("Too many concurrent issue creations; retry shortly");
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
    const entry = await this.db.get(listingEntryKey({ field: "all" }, number), { consistent: true });
    return typeof entry?.id === "string" ? this.get(entry.id) : undefined;
  }

  /**
   * One page of issues in `number` order and the count of all matches. With at most one listing,
   * the offset is located from the listing's bucket counts and only the entries of one bucket are
   * walked before the page (3 calls whatever the page); combined listings walk the narrow entries
   * of the most selective one and check the rest on the entries.
   */
  async list(request: ListRequest): Promise<{ issues: StoredIssue[]; total: number }> {
    const [first, ...others] = request.listings;
    const { ids, total } =
      others.length === 0
        ? await this.pageFromCounts(first ?? { field: "all" }, request)
        : await this.pageFromWalk(request);
    const items = await this.db.batchGet(ids.map(issueKey), { consistent: true });
    return { issues: items.map(fromItem), total };
  }

  private async pageFromCounts(listing: Listing, { order, offset, limit }: ListRequest) {
    const buckets = (await this.queryAll({ pk: countPk(listing), projection: ["sk", "count"] })).map((item) => ({
      bucket: Number(item.sk),
      count: Number(item.count ?? 0),
    }));
    const total = buckets.reduce((sum, { count }) => sum + count, 0);
    if (offset >= total) return { ids: [], total };
    if (order === "desc") buckets.reverse();
    let skip = offset;
    let start = buckets[0]?.bucket ?? 0;
    for (const { bucket, count } of buckets) {
      start = bucket;
      if (skip < count) break;
      skip -= count;
    }
    const out = await this.queryAll({
      pk: listingPk(listing),
      range: order === "asc" ? { op: ">=", sk: bucketStartSk(start) } : { op: "<", sk: bucketStartSk(start + 1) },
      forward: order === "asc",
      stopAfter: skip + limit,
      projection: ["id"],
    });
    return { ids: out.slice(skip, skip + limit).map((entry) => String(entry.id)), total };
  }

  private async pageFromWalk({ listings, order, offset, limit }: ListRequest) {
    const driving = [...listings].sort((a, b) => selectivity(a) - selectivity(b))[0] ?? { field: "all" };
    const filter = listingFilter(listings.filter((listing) => listing !== driving));
    const matches = await this.queryAll({
      pk: listingPk(driving),
      forward: order === "asc",
      projection: ["id"],
      filter,
    });
    return { ids: matches.slice(offset, offset + limit).map((entry) => String(entry.id)), total: matches.length };
  }

  /** Queries one partition, following pages until done or `stopAfter` items are in hand. */
  private async queryAll(options: {
    pk: string;
    range?: { op: ">=" | "<"; sk: string };
    forward?: boolean;
    stopAfter?: number;
    projection: string[];
    filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  }): Promise<Item[]> {
    const names: Record<string, string> = { ...options.filter?.names };
    options.projection.forEach((attribute, i) => {
      names[`#p${i}`] = attribute;
    });
    const values: Record<string, unknown> = { ":pk": options.pk, ...options.filter?.values };
    let keyCondition = "pk = :pk";
    if (options.range) {
      keyCondition += ` AND sk ${options.range.op} :sk`;
      values[":sk"] = options.range.sk;
    }
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const remaining = options.stopAfter === undefined ? undefined : options.stopAfter - items.length;
      const out = await this.db.query({
        KeyConditionExpression: keyCondition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ProjectionExpression: options.projection.map((_, i) => `#p${i}`).join(", "),
        ScanIndexForward: options.forward ?? true,
        ConsistentRead: true,
        ...(options.filter ? { FilterExpression: options.filter.expression } : {}),
        ...(remaining !== undefined ? { Limit: remaining } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      });
      items.push(...(out.Items ?? []));
      startKey = out.LastEvaluatedKey;
    } while (startKey && (options.stopAfter === undefined || items.length < options.stopAfter));
    return items;
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

/** A listing entry and a count increment for every listing the issue is in. */
function listingWrites(issue: Issue): TransactItem[] {
  const entryFields = Object.fromEntries(ENTRY_FIELDS.map((field) => [field, issue[field]]));
  return listingsOf(issue).flatMap((listing): TransactItem[] => [
    { Put: { Item: { ...listingEntryKey(listing, issue.number), id: issue.id, ...entryFields } } },
    {
      Update: {
        Key: countKey(listing, bucketOf(issue.number)),
        UpdateExpression: "ADD #count :one",
        ExpressionAttributeNames: { "#count": "count" },
        ExpressionAttributeValues: { ":one": 1 },
      },
    },
  ]);
}

function issueItem(issue: Issue, version: number): Item {
  return { ...issueKey(issue.id), ...issueNumberIndexKey(issue.number), entity: "issue", version, ...issue };
}

function fromItem(item: Item): StoredIssue {
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

/** A FilterExpression over listing entries requiring every one of `listings`. */
function listingFilter(listings: Listing[]) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = listings.flatMap((listing, i) => {
    if (listing.field === "all") return [];
    values[`:f${i}`] = listing.value;
    if (listing.field === "label") {
      names["#labels"] = "labels";
      return [`contains(#labels, :f${i})`];
    }
    const attribute = listing.field === "project" ? "projectId" : listing.field;
    names[`#f${i}`] = attribute;
    return [`#f${i} = :f${i}`];
  });
  return clauses.length === 0 ? undefined : { expression: clauses.join(" AND "), names, values };
}

async function backoff(attempt: number): Promise<void> {
  const ceiling = Math.min(200, 5 * 2 ** Math.min(attempt, 6));
  await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
