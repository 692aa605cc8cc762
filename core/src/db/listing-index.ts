/**
 * @module db/listing-index — paginated listings with maintained counts, shared by every listable entity.
 *
 * A listing is a named subset of an entity (`all`, `status=todo`, `source=codehost`, …). Each
 * member has a narrow entry item in the listing's partition, sorted by a sort key the entity
 * chooses (issue number, signal ULID), carrying the fields that combined filters check. Each
 * listing also keeps a live count per bucket of sort keys. A page is found by summing bucket
 * counts (which also answers `total`), walking at most one bucket's entries to the offset, and
 * handing back the page's entries: the cost does not grow with the page number.
 *
 * Counts are spread counts (db/spread.ts): a burst of writers into one bucket adds to several
 * items, and the page read sums them in the same query.
 *
 * Keys: entry `pk=$kaizen#<entity>list_1#<listing>`, `sk=<entity sort key>`;
 *       count `pk=$kaizen#<entity>count_1#<listing>`, `sk=<bucket>` (shards `<bucket>~NN`),
 *       attribute `count`.
 */
import { decodeTime, encodeTime } from "ulid";
import type { Db, Item, Key, TransactItem } from "./db.js";
import { keyPrefix, type ListingName } from "./item-kinds.js";
import { sumSpreadCounts } from "./spread.js";

/** How an entity's sort keys fall into buckets; buckets order as their sort keys do. */
export interface ListingScheme {
  /**
   * The listing's name, registered in db/item-kinds.ts (`LISTINGS`, held there by
   * tests/unit/db/item-kinds.test.ts): `issue` keys its entries `$kaizen#issuelist_1#…`.
   */
  entity: string;
  bucketOf(sk: string): string;
  /** Inclusive lower bound of the bucket's sort keys. */
  bucketStart(bucket: string): string;
  /** Exclusive upper bound of the bucket's sort keys. */
  bucketEnd(bucket: string): string;
}

/** Lowest ULID at or after an instant: where the sort keys of that instant begin. */
export function ulidFloor(ms: number): string {
  return `${encodeTime(ms, 10)}${"0".repeat(16)}`;
}

/**
 * A scheme for an entity sorted by the ULID of its id (creation order), counted per `bucketMs` of
 * creation time; bucket names are the bucket's number, zero-padded to `digits` so they sort.
 * @example const HOURLY = ulidListingScheme("prompt", 3_600_000, 8);
 */
export function ulidListingScheme(entity: string, bucketMs: number, digits: number): ListingScheme {
  return {
    entity,
    bucketOf: (sk) => String(Math.floor(decodeTime(sk) / bucketMs)).padStart(digits, "0"),
    bucketStart: (bucket) => ulidFloor(Number(bucket) * bucketMs),
    bucketEnd: (bucket) => ulidFloor((Number(bucket) + 1) * bucketMs),
  };
}

/** A condition a combined filter checks on the entries of the listing it walks. */
export type EntryFilter =
  | {
      attribute: string;
      value: string | number;
      /** `contains`: a list attribute holds the value, or a string attribute has it as a substring. */
      match: "equals" | "contains";
    }
  | { attribute: string; values: (string | number)[]; match: "in" };

export interface PageRequest {
  order: "asc" | "desc";
  offset: number;
  limit: number;
}

export interface EntryPage {
  entries: Item[];
  total: number;
}

export class ListingIndex {
  constructor(
    private readonly db: Db,
    private readonly scheme: ListingScheme,
  ) {}

  entryKey(listing: string, sk: string): Key {
    return listingEntryKey(this.scheme.entity, listing, sk);
  }

  /** Writes that add one member to each of `listings`: its entry and a count increment. */
  additions(listings: string[], sk: string, fields: Item): TransactItem[] {
    return listings.flatMap((listing) => [this.putEntry(listing, sk, fields), this.countChange(listing, sk, 1)]);
  }

  /**
   * Writes that take a member from the listings `before` to the listings `after`: entries of
   * dropped listings are deleted and counted out, new ones added and counted in, and entries it
   * keeps are rewritten when `fieldsChanged` (their filter fields follow the member).
   */
  changes(before: string[], after: string[], sk: string, fields: Item, fieldsChanged: boolean): TransactItem[] {
    const dropped = before.filter((listing) => !after.includes(listing));
    const added = after.filter((listing) => !before.includes(listing));
    const kept = after.filter((listing) => before.includes(listing));
    return [
      ...this.removals(dropped, sk),
      ...this.additions(added, sk, fields),
      ...(fieldsChanged ? kept.map((listing) => this.putEntry(listing, sk, fields)) : []),
    ];
  }

  /**
   * Writes that move a member within `listing` from sort key `fromSk` to `toSk` (its order
   * changed), counting it out of the old bucket and into the new one.
   */
  moves(listing: string, fromSk: string, toSk: string, fields: Item): TransactItem[] {
    if (fromSk === toSk) return [this.putEntry(listing, toSk, fields)];
    const writes: TransactItem[] = [
      { Delete: { Key: this.entryKey(listing, fromSk) } },
      this.putEntry(listing, toSk, fields),
    ];
    if (this.scheme.bucketOf(fromSk) !== this.scheme.bucketOf(toSk)) {
      writes.push(this.countChange(listing, fromSk, -1), this.countChange(listing, toSk, 1));
    }
    return writes;
  }

  /** Writes that take a member out of `listings` (entry deleted, counted out). */
  removals(listings: string[], sk: string): TransactItem[] {
    return listings.flatMap((listing) => [
      { Delete: { Key: this.entryKey(listing, sk) } },
      this.countChange(listing, sk, -1),
    ]);
  }

  /** One page of `listing`'s entries located from its bucket counts: three reads at most. */
  async page(listing: string, { order, offset, limit }: PageRequest): Promise<EntryPage> {
    const counts = await this.queryAll({ pk: this.countPk(listing), projection: ["sk", "count"] });
    const buckets = sumSpreadCounts(counts, "count").map(({ sk, total }) => ({ bucket: sk, count: total }));
    const total = buckets.reduce((sum, { count }) => sum + count, 0);
    if (offset >= total || limit === 0) return { entries: [], total };
    if (order === "desc") buckets.reverse();
    let skip = offset;
    let bucket = buckets[0]?.bucket ?? "";
    let bucketCount = 0;
    let lastBucket = false;
    for (const [index, entry] of buckets.entries()) {
      bucket = entry.bucket;
      bucketCount = entry.count;
      lastBucket = index === buckets.length - 1;
      if (skip < entry.count) break;
      skip -= entry.count;
    }
    const start = { op: ">=" as const, sk: this.scheme.bucketStart(bucket) };
    const end = { op: "<" as const, sk: this.scheme.bucketEnd(bucket) };
    // A page that lies in its bucket's far half is reached from the bucket's other end, so no
    // walk passes more than half a bucket (the counts are exact: they change in the same writes).
    // The listing's last page may end early; any other page must end inside its bucket.
    const fromFarEnd = bucketCount - skip;
    if ((skip + limit <= bucketCount || lastBucket) && fromFarEnd < skip + limit) {
      const reversed = await this.queryAll({
        pk: this.entryPk(listing),
        range: order === "asc" ? end : start,
        forward: order !== "asc",
        stopAfter: fromFarEnd,
      });
      return { entries: reversed.slice(Math.max(0, fromFarEnd - limit), fromFarEnd).reverse(), total };
    }
    const entries = await this.queryAll({
      pk: this.entryPk(listing),
      range: order === "asc" ? start : end,
      forward: order === "asc",
      stopAfter: skip + limit,
    });
    return { entries: entries.slice(skip, skip + limit), total };
  }

  /** The first `count` entries of `listing` in ascending order that pass every filter: its head. */
  async head(listing: string, filters: EntryFilter[], count: number): Promise<Item[]> {
    const { expression, names, values } = filterExpression(filters);
    return this.queryAll({
      pk: this.entryPk(listing),
      forward: true,
      stopAfter: count,
      ...(expression ? { filter: { expression, names, values } } : {}),
    });
  }

  /** The member count of each bucket of `listing` from bucket `from` on, in bucket order: one query. */
  async bucketCounts(listing: string, from: string): Promise<{ bucket: string; count: number }[]> {
    const counts = await this.queryAll({
      pk: this.countPk(listing),
      range: { op: ">=", sk: from },
      projection: ["sk", "count"],
    });
    return sumSpreadCounts(counts, "count").map(({ sk, total }) => ({ bucket: sk, count: total }));
  }

  /** How many members `listing` has, from its counts alone. */
  async count(listing: string): Promise<number> {
    const buckets = await this.queryAll({ pk: this.countPk(listing), projection: ["count"] });
    return buckets.reduce((sum, item) => sum + Number(item.count ?? 0), 0);
  }

  /** Members of `listing` per value of one entry attribute (reads the listing's narrow entries). */
  async countBy(listing: string, attribute: string): Promise<Record<string, number>> {
    const entries = await this.queryAll({ pk: this.entryPk(listing), projection: [attribute] });
    const counts: Record<string, number> = {};
    for (const entry of entries) {
      const value = String(entry[attribute]);
      counts[value] = (counts[value] ?? 0) + 1;
    }
    return counts;
  }

  /**
   * A page of the entries of `listing` that also pass every filter, and their exact count: the
   * listing's narrow entries are read in full (its cost grows with the listing, not the page).
   * `from` restricts to sort keys at or after it; `sort` reorders the matches before paging.
   */
  async walk(
    listing: string,
    filters: EntryFilter[],
    request: PageRequest & { from?: string; sort?: (a: Item, b: Item) => number },
  ): Promise<EntryPage> {
    const { expression, names, values } = filterExpression(filters);
    const matches = await this.queryAll({
      pk: this.entryPk(listing),
      forward: request.order === "asc",
      ...(request.from !== undefined ? { range: { op: ">=", sk: request.from } } : {}),
      ...(expression ? { filter: { expression, names, values } } : {}),
    });
    if (request.sort) matches.sort(request.sort);
    return { entries: matches.slice(request.offset, request.offset + request.limit), total: matches.length };
  }

  private entryPk(listing: string): string {
    return this.entryKey(listing, "").pk;
  }

  private countPk(listing: string): string {
    return listingCountKey(this.scheme.entity, listing, "").pk;
  }

  private putEntry(listing: string, sk: string, fields: Item): TransactItem {
    return { Put: { Item: { ...fields, ...this.entryKey(listing, sk) } } };
  }

  private countChange(listing: string, sk: string, delta: 1 | -1): TransactItem {
    return {
      SpreadAdd: {
        Key: listingCountKey(this.scheme.entity, listing, this.scheme.bucketOf(sk)),
        attribute: "count",
        delta,
      },
    };
  }

  /** Queries one partition, following pages until done or `stopAfter` items are in hand. */
  private async queryAll(options: {
    pk: string;
    range?: { op: ">=" | "<"; sk: string };
    forward?: boolean;
    stopAfter?: number;
    projection?: string[];
    filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  }): Promise<Item[]> {
    const names: Record<string, string> = { ...options.filter?.names };
    const projection = options.projection?.map((attribute, i) => {
      names[`#p${i}`] = attribute;
      return `#p${i}`;
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
        ExpressionAttributeValues: values,
        ScanIndexForward: options.forward ?? true,
        ConsistentRead: true,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ...(projection ? { ProjectionExpression: projection.join(", ") } : {}),
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

/** The filter expression that checks every filter on an entry (empty when there are none). */
function filterExpression(filters: EntryFilter[]) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = filters.map((filter, i) => {
    names[`#f${i}`] = filter.attribute;
    if (filter.match === "in") {
      const placeholders = filter.values.map((value, j) => {
        values[`:f${i}_${j}`] = value;
        return `:f${i}_${j}`;
      });
      return `#f${i} IN (${placeholders.join(", ")})`;
    }
    values[`:f${i}`] = filter.value;
    return filter.match === "contains" ? `contains(#f${i}, :f${i})` : `#f${i} = :f${i}`;
  });
  return { expression: clauses.join(" AND "), names, values };
}

/** Key of a member's entry in a listing. */
export function listingEntryKey(entity: string, listing: string, sk: string): Key {
  return { pk: `${keyPrefix(`${entity as ListingName}list`)}#${listing}`, sk };
}

/** Key of a listing's count for one bucket. */
export function listingCountKey(entity: string, listing: string, bucket: string): Key {
  return { pk: `${keyPrefix(`${entity as ListingName}count`)}#${listing}`, sk: bucket };
}
