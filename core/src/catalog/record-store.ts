/**
 * @module catalog/record-store — versioned catalog records of any kind: the conditional writes that
 * create, change and delete one together with its listing entries, counts and pointer counts.
 * The kinds (projects, goals, labels) and label name claims are in ./label-store.ts.
 */
import type { Db, Item, Key, TransactItem } from "../db/db.js";
import { ConditionFailedError } from "../db/db.js";
import { type EntryFilter, ListingIndex, type ListingScheme } from "../db/listing-index.js";
import { fieldError } from "../errors.js";
import { fenceHeld, guardTombstones, removeFence, setFence, targetExists } from "./fence.js";
import { catalogSortKey } from "./keys.js";

/** A record as stored: its fields, its version (the `ETag`) and how many pointers name it. */
export interface Stored<T> {
  record: T;
  version: number;
  refCount: number;
}

/** How one kind of record is keyed, listed and read back. */
export interface RecordKind<T extends { id: string }> {
  entity: string;
  key(id: string): Key;
  scheme: ListingScheme;
  listingsOf(record: T): string[];
  /** What its listing entries keep: the id and the fields combined filters check. */
  entryOf(record: T): Item;
  /** Its fields, in the order the API shows them. */
  fields: readonly (keyof T & string)[];
  /**
   * What a field reads as on an item stored before the field existed (else `null`); for an object
   * field, also what each of its keys reads as on an item stored before that key existed.
   */
  absent?: Partial<T>;
  /** The field that names another record, whose `refCount` follows it. */
  pointer?: { field: keyof T & string; noun: string; targetKey(id: string): Key };
}

// Named condition fragments.
/** The id is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The record is as it was read (it also fails when the record is gone). */
const versionUnchanged = "#version = :expectedVersion";
/** No pointer names the record. */
const unreferenced = "(attribute_not_exists(#refCount) OR #refCount = :zero)";

/**
 * Versioned records of one kind. Every write is conditioned on the version read (or on the id
 * being new), so a lost race raises {@link ConditionFailedError} with reason 0 failed: read again.
 */
export class RecordStore<T extends { id: string }> {
  private readonly listings: ListingIndex;

  constructor(
    protected readonly db: Db,
    private readonly kind: RecordKind<T>,
  ) {
    this.listings = new ListingIndex(db, kind.scheme);
  }

  async get(id: string): Promise<Stored<T> | undefined> {
    const item = await this.db.get(this.kind.key(id), { consistent: true });
    return item ? this.fromItem(item) : undefined;
  }

  /**
   * One page of a listing, newest first, and the count of all matches: located from the
   * listing's counts without filters (three calls for any page), walked with them.
   */
  async list(listing: string, filters: EntryFilter[], page: { offset: number; limit: number }) {
    const request = { order: "desc" as const, ...page };
    const { entries, total } =
      filters.length === 0
        ? await this.listings.page(listing, request)
        : await this.listings.walk(listing, filters, request);
    const items = await this.db.batchGet(
      entries.map((entry) => this.kind.key(String(entry.id))),
      { consistent: true },
    );
    return { records: items.map((item) => this.fromItem(item)), total };
  }

  /** Writes a new record with its listing entries and counts, counting it on what it points at. */
  async create(record: T, extra: TransactItem[] = []): Promise<Stored<T>> {
    const target = this.pointerOf(record);
    await this.commit(
      [
        { Put: { Item: this.toItem(record, 1), ConditionExpression: itemAbsent } },
        ...(target ? [pointerCount(this.pointerKey(target), 1)] : []),
        ...this.listings.additions(this.kind.listingsOf(record), catalogSortKey(record.id), this.kind.entryOf(record)),
        ...extra,
      ],
      target,
    );
    return { record, version: 1, refCount: 0 };
  }

  /**
   * Replaces `current`'s fields by `updated`'s if nobody changed it since it was read, with `extra`
   * writes in the same transaction.
   */
  async update(current: Stored<T>, updated: T, extra: TransactItem[] = []): Promise<Stored<T>> {
    const names: Record<string, string> = { "#version": "version" };
    const values: Record<string, unknown> = {
      ":expectedVersion": current.version,
      ":nextVersion": current.version + 1,
    };
    const sets = this.kind.fields
      .filter((field) => field !== "id" && field !== "createdAt")
      .map((field, i) => {
        names[`#f${i}`] = field;
        values[`:f${i}`] = updated[field];
        return `#f${i} = :f${i}`;
      });
    const change = {
      Key: this.kind.key(current.record.id),
      UpdateExpression: `SET ${[...sets, "#version = :nextVersion"].join(", ")}`,
      ConditionExpression: versionUnchanged,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    const before = this.pointerOf(current.record);
    const after = this.pointerOf(updated);
    const entryBefore = this.kind.entryOf(current.record);
    const entryAfter = this.kind.entryOf(updated);
    const writes: TransactItem[] = [
      { Update: change },
      ...(after && after !== before ? [pointerCount(this.pointerKey(after), 1)] : []),
      ...(before && after !== before ? [pointerCount(this.pointerKey(before), -1)] : []),
      ...this.listings.changes(
        this.kind.listingsOf(current.record),
        this.kind.listingsOf(updated),
        catalogSortKey(updated.id),
        entryAfter,
        JSON.stringify(entryBefore) !== JSON.stringify(entryAfter),
      ),
      ...extra,
    ];
    // A change that moves no pointer and no listing entry is one plain conditional update.
    if (writes.length === 1) await this.db.update(change);
    else await this.commit(writes, after !== before ? after : undefined);
    return { record: updated, version: current.version + 1, refCount: current.refCount };
  }

  /**
   * Deletes `current` if unchanged and unreferenced, with its entries, counts and its pointer's
   * count; with `fencedAt` (the time now), only while the fence this delete set still holds.
   */
  async delete(current: Stored<T>, options: { fencedAt?: string; extra?: TransactItem[] } = {}): Promise<void> {
    const target = this.pointerOf(current.record);
    const fenced = options.fencedAt !== undefined;
    await this.commit([
      {
        Delete: {
          Key: this.kind.key(current.record.id),
          ConditionExpression: [versionUnchanged, unreferenced, ...(fenced ? [fenceHeld] : [])].join(" AND "),
          ExpressionAttributeNames: {
            "#version": "version",
            "#refCount": "refCount",
            ...(fenced ? { "#deletingUntil": "deletingUntil" } : {}),
          },
          ExpressionAttributeValues: {
            ":expectedVersion": current.version,
            ":zero": 0,
            ...(fenced ? { ":now": options.fencedAt } : {}),
          },
        },
      },
      ...(target ? [pointerCount(this.pointerKey(target), -1)] : []),
      ...this.listings.changes(this.kind.listingsOf(current.record), [], catalogSortKey(current.record.id), {}, false),
      // A fenced delete is of an item issue writes check: no shard of that check may pass after it.
      ...(fenced ? guardTombstones(this.kind.key(current.record.id)) : []),
      ...(options.extra ?? []),
    ]);
  }

  /**
   * Fences `current` against new references until `until`, if unchanged: writers that reference
   * it check {@link unfenced} in their transaction, so once the fence is up, counting the
   * references already made is final. Leaves the version (and `ETag`) alone.
   */
  async fence(current: Stored<T>, until: string): Promise<void> {
    await setFence(this.db, this.kind.key(current.record.id), until, {
      expression: versionUnchanged,
      names: { "#version": "version" },
      values: { ":expectedVersion": current.version },
    });
  }

  /** Lifts the fence of a delete that was refused. */
  async unfence(id: string): Promise<void> {
    await removeFence(this.db, this.kind.key(id));
  }

  /**
   * Runs the writes in one transaction. A failed condition on the pointer's target (written
   * second when `newTarget` is set) means the record it names does not exist: a 400.
   */
  private async commit(writes: TransactItem[], newTarget?: string): Promise<void> {
    try {
      await this.db.transactWrite(writes);
    } catch (error) {
      const pointer = this.kind.pointer;
      if (error instanceof ConditionFailedError && newTarget && pointer && failedAt(error, 1)) {
        const message = `${pointer.noun} ${newTarget} does not exist`;
        throw fieldError(pointer.field, message);
      }
      throw error;
    }
  }

  private pointerOf(record: T): string | undefined {
    const field = this.kind.pointer?.field;
    const value = field ? record[field] : undefined;
    return typeof value === "string" ? value : undefined;
  }

  private pointerKey(target: string): Key {
    if (!this.kind.pointer) throw new Error(`${this.kind.entity} has no pointer`);
    return this.kind.pointer.targetKey(target);
  }

  private toItem(record: T, version: number): Item {
    return { ...this.kind.key(record.id), entity: this.kind.entity, version, ...record };
  }

  private fromItem(item: Item): Stored<T> {
    return recordOf(this.kind, item);
  }
}

/** The record an item of `kind` holds: the kind's fields, absent ones (and absent keys of object fields) as `kind.absent` says, else `null`. */
export function recordOf<T extends { id: string }>(kind: RecordKind<T>, item: Item): Stored<T> {
  // The item was written from a T by the kind's store; its fields are T's.
  const record = Object.fromEntries(
    kind.fields.map((field) => {
      const stored = item[field];
      const absent = kind.absent?.[field];
      if (isPlainObject(stored) && isPlainObject(absent)) return [field, { ...absent, ...stored }];
      return [field, stored ?? absent ?? null];
    }),
  ) as T;
  return { record, version: Number(item.version ?? 1), refCount: Number(item.refCount ?? 0) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Counts a pointer in or out on the record it names, which must exist. */
function pointerCount(key: Key, delta: 1 | -1): TransactItem {
  return {
    Update: {
      Key: key,
      UpdateExpression: "ADD #refCount :delta",
      ConditionExpression: targetExists,
      ExpressionAttributeNames: { "#refCount": "refCount" },
      ExpressionAttributeValues: { ":delta": delta },
    },
  };
}

export function failedAt(error: ConditionFailedError, index: number): boolean {
  return error.reasons[index] === "ConditionalCheckFailed";
}
