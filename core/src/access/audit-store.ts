/**
 * @module access/audit-store — every DynamoDB expression about the audit log (docs/security.md#audit-log):
 * a record as one item in its UTC day's partition, written in the transaction of the change it records
 * (carried by the request's first change, db `accompany`, or prepared into Kaizen's own transactions),
 * or alone for a refusal; listed newest first, day by day back to the retention's start, filtered on
 * the way. Keys: ./audit-keys.ts.
 */
import type { Db, Item, Key, TransactItem } from "../db/db.js";
import { entityOf, isRecordedChange } from "../db/item-kinds.js";
import type { AuditActor, AuditRecord } from "../http/audit.js";
import {
  auditDayPk,
  auditDaysBack,
  auditExpiry,
  auditIdFloor,
  auditKey,
  newAuditId,
  retentionStart,
} from "./audit-keys.js";

export type { AuditActor, AuditRecord } from "../http/audit.js";

/** Kaizen acting on its own. */
export const AUTOMATION_ACTOR: AuditActor = { kind: "automation", id: "kaizen", name: "kaizen" };

/** Filters of `GET /api/audit`. */
export interface AuditFilters {
  actorId?: string | undefined;
  targetId?: string | undefined;
  status?: number | undefined;
  since?: string | undefined;
}

const FIELDS = [
  "id",
  "at",
  "actor",
  "method",
  "path",
  "action",
  "targetId",
  "status",
  "requestId",
  "userAgent",
] as const satisfies readonly (keyof AuditRecord)[];

export class AuditStore {
  constructor(private readonly db: Db) {}

  /** Whether a write to `key` is a change a request is recorded for. */
  isChange(key: Key): boolean {
    return isRecordedChange(String(key.pk));
  }

  /**
   * Runs `work` so that the first change it writes carries the record `draft()` makes then (after
   * the request's credential was checked): whether one did, and whether a change could not carry it.
   */
  async carry<T>(draft: (change: readonly TransactItem[]) => AuditRecord, work: () => Promise<T>) {
    return this.db.accompany(
      (change) => itemOf(draft(change)),
      (key) => this.isChange(key),
      work,
    );
  }

  /** The Put of a record, for a transaction of Kaizen's own (an automation's move, a budget stop). */
  prepare(record: AuditRecord): TransactItem {
    return { Put: { Item: itemOf(record), ConditionExpression: "attribute_not_exists(pk)" } };
  }

  /** A record of Kaizen's own action on `targetId` at `at`, for {@link prepare}. */
  automation(action: string, targetId: string, at: Date): AuditRecord {
    return {
      id: newAuditId(at.getTime()),
      at: at.toISOString(),
      actor: AUTOMATION_ACTOR,
      method: null,
      path: null,
      action,
      targetId,
      status: null,
      requestId: null,
      userAgent: null,
    };
  }

  /** Writes a record on its own (a refusal, which changed nothing). */
  async write(record: AuditRecord): Promise<void> {
    await this.db.put(this.prepare(record).Put as { Item: Item });
  }

  /** Sets what a request's record learned once it was answered: its status, and what it created. */
  async amend(record: AuditRecord, changes: { status: number; targetId: string | null }): Promise<void> {
    await this.db.update({
      Key: auditKey(record.id),
      UpdateExpression: "SET #status = :status, #targetId = :targetId",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#status": "status", "#targetId": "targetId" },
      ExpressionAttributeValues: { ":status": changes.status, ":targetId": changes.targetId },
    });
  }

  /**
   * A page of records matching `filters`, newest first, and how many match: each UTC day back to
   * `since` (at most the retention's start) counted, then only the days the page falls in read.
   */
  async list(
    filters: AuditFilters,
    page: { offset: number; limit: number },
    now: Date,
  ): Promise<{ records: AuditRecord[]; total: number }> {
    const floor = Math.max(retentionStart(now.getTime()), filters.since ? Date.parse(filters.since) : 0);
    const days = auditDaysBack(floor, now.getTime()).map((day) => ({ day, from: auditIdFloor(floor) }));
    const filter = filterOf(filters);
    const counts = await Promise.all(days.map(({ day, from }) => this.count(day, from, filter)));
    const total = counts.reduce((sum, count) => sum + count, 0);
    const records: AuditRecord[] = [];
    let skip = page.offset;
    for (const [index, { day, from }] of days.entries()) {
      if (records.length >= page.limit) break;
      const count = counts[index] ?? 0;
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const items = await this.read(day, from, filter, skip + page.limit - records.length);
      records.push(...items.slice(skip).map(recordOf));
      skip = 0;
    }
    return { records: records.slice(0, page.limit), total };
  }

  private async count(day: string, from: string, filter: Filter): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.query({ ...queryOf(day, from, filter), Select: "COUNT", ExclusiveStartKey: start });
      count += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return count;
  }

  private async read(day: string, from: string, filter: Filter, wanted: number): Promise<Item[]> {
    const items: Item[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.query({
        ...queryOf(day, from, filter),
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      });
      items.push(...((out.Items ?? []) as Item[]));
      start = out.LastEvaluatedKey;
    } while (start && items.length < wanted);
    return items.slice(0, wanted);
  }
}

interface Filter {
  expression: string | undefined;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

function filterOf(filters: AuditFilters): Filter {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const equals = (attribute: string, value: unknown) => {
    if (value === undefined) return;
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    clauses.push(`#${attribute} = :${attribute}`);
  };
  equals("actorId", filters.actorId);
  equals("targetId", filters.targetId);
  equals("status", filters.status);
  return { expression: clauses.length > 0 ? clauses.join(" AND ") : undefined, names, values };
}

function queryOf(day: string, from: string, filter: Filter) {
  return {
    KeyConditionExpression: "pk = :pk AND sk >= :from",
    ...(filter.expression ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
    ExpressionAttributeValues: { ":pk": auditDayPk(day), ":from": from, ...filter.values },
    ConsistentRead: true,
  };
}

function itemOf(record: AuditRecord): Item {
  return {
    ...auditKey(record.id),
    entity: entityOf("audit"),
    ...record,
    // Top-level, for the filter; and the TTL's attribute (epoch seconds).
    actorId: record.actor?.id ?? null,
    expiresAt: auditExpiry(Date.parse(record.at)),
  };
}

function recordOf(item: Item): AuditRecord {
  const record = Object.fromEntries(FIELDS.map((field) => [field, item[field] ?? null])) as unknown as AuditRecord;
  // DynamoDB keeps a map's keys in no order: the actor reads back in the API's.
  const actor = record.actor;
  return { ...record, actor: actor ? { kind: actor.kind, id: actor.id, name: actor.name } : null };
}
