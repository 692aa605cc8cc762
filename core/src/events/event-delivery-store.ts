/**
 * @module events/event-delivery-store — every DynamoDB expression about event deliveries: written
 * once per event and destination (a second write of the same event delivery, from a stream batch read
 * twice, finds it there and does nothing), taken for one attempt at a time under a short lease (so
 * two senders never send it at once), their attempts appended, and the pending ones found by when
 * they are due (gsi1). Keys: ./keys.ts.
 */
import { ConditionFailedError, type Db, type Item } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import { retryConflicts } from "../db/retry.js";
import {
  DELIVERY_LISTINGS,
  deliveryKey,
  deliverySortKey,
  destinationDeliveriesListing,
  dueIndexFields,
  dueQuery,
} from "./keys.js";
import type { EventDelivery, EventDeliveryAttempt, EventDeliveryStatus, EventType } from "./schemas.js";

/** An event delivery with the body it sends. */
export interface StoredEventDelivery {
  delivery: EventDelivery;
  /** The event as sent: the same bytes on every attempt. */
  body: string;
}

const EVENT_DELIVERY_FIELDS = [
  "id",
  "destinationId",
  "eventId",
  "eventType",
  "status",
  "nextAttemptAt",
  "attempts",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof EventDelivery)[];

export class EventDeliveryStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, DELIVERY_LISTINGS);
  }

  /**
   * Writes a new pending event delivery, taken by the caller until `leaseUntil` for its first attempt and
   * due at that time should the caller not get to it. Answers false, writing nothing, when it exists.
   */
  async create(
    fields: { id: string; destinationId: string; eventId: string; eventType: EventType; body: string },
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean> {
    const at = now.toISOString();
    const due = leaseUntil.toISOString();
    const writes = [
      {
        Put: {
          Item: {
            ...deliveryKey(fields.id),
            entity: entityOf("eventdelivery"),
            ...fields,
            status: "pending" satisfies EventDeliveryStatus,
            nextAttemptAt: due,
            attempts: [],
            createdAt: at,
            updatedAt: at,
            leaseUntil: leaseUntil.getTime(),
            ...dueIndexFields(fields.id, due),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      ...this.listings.additions([destinationDeliveriesListing(fields.destinationId)], deliverySortKey(fields.id), {
        id: fields.id,
      }),
    ];
    try {
      // Two readers of one batch (a redelivery while the first is still at it) meet on these items.
      await retryConflicts(() => this.db.transactWrite(writes));
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError && error.reasons[0] === "ConditionalCheckFailed") return false;
      throw error;
    }
  }

  async get(id: string): Promise<StoredEventDelivery | undefined> {
    const item = await this.db.get(deliveryKey(id), { consistent: true });
    return item ? fromItem(item) : undefined;
  }

  /** One page of a destination's event deliveries, newest first, and how many it has. */
  async page(
    destinationId: string,
    offset: number,
    limit: number,
  ): Promise<{ deliveries: EventDelivery[]; total: number }> {
    const { entries, total } = await this.listings.page(destinationDeliveriesListing(destinationId), {
      order: "desc",
      offset,
      limit,
    });
    const items = await this.db.batchGet(entries.map((entry) => deliveryKey(String(entry.id))));
    return { deliveries: items.map((item) => fromItem(item).delivery), total };
  }

  /** Ids of pending event deliveries due by `now`, the longest waiting first (the index lags writes a little). */
  async due(now: Date, limit: number): Promise<string[]> {
    const { partition, upTo } = dueQuery(now.toISOString());
    const out = await this.db.query({
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk <= :upTo",
      ExpressionAttributeValues: { ":pk": partition, ":upTo": upTo },
      Limit: limit,
    });
    return (out.Items ?? []).map((item) => String(item.id));
  }

  /**
   * Takes event delivery `id` for one attempt until `until`: a pending one nobody holds, or (`manual`) one
   * in any status nobody holds. Undefined when someone holds it, or it is not pending for an automatic one.
   */
  async take(id: string, now: Date, until: Date, manual: boolean): Promise<StoredEventDelivery | undefined> {
    const free = "(attribute_not_exists(#lease) OR #lease < :now)";
    try {
      const item = await this.db.update({
        Key: deliveryKey(id),
        UpdateExpression: "SET #lease = :until",
        ConditionExpression: manual ? `attribute_exists(pk) AND ${free}` : `#status = :pending AND ${free}`,
        ExpressionAttributeNames: { "#lease": "leaseUntil", ...(manual ? {} : { "#status": "status" }) },
        ExpressionAttributeValues: {
          ":now": now.getTime(),
          ":until": until.getTime(),
          ...(manual ? {} : { ":pending": "pending" }),
        },
        ReturnValues: "ALL_NEW",
      });
      return item ? fromItem(item) : undefined;
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
  }

  /**
   * Appends `attempt` to an event delivery this caller holds and lets it go: `status` after it, and when the
   * next automatic attempt is due (pending only; the event delivery leaves the due index otherwise).
   */
  async recordAttempt(
    id: string,
    attempt: EventDeliveryAttempt,
    status: EventDeliveryStatus,
    nextAttemptAt: string | null,
  ): Promise<EventDelivery> {
    const due = nextAttemptAt ? dueIndexFields(id, nextAttemptAt) : undefined;
    const item = await this.db.update({
      Key: deliveryKey(id),
      UpdateExpression: `SET #attempts = list_append(#attempts, :attempt), #status = :status, #next = :next, #updatedAt = :at${
        due ? ", gsi1pk = :duePk, gsi1sk = :dueSk" : ""
      } REMOVE #lease${due ? "" : ", gsi1pk, gsi1sk"}`,
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: {
        "#attempts": "attempts",
        "#status": "status",
        "#next": "nextAttemptAt",
        "#updatedAt": "updatedAt",
        "#lease": "leaseUntil",
      },
      ExpressionAttributeValues: {
        ":attempt": [attempt],
        ":status": status,
        ":next": nextAttemptAt,
        ":at": attempt.at,
        ...(due ? { ":duePk": due.gsi1pk, ":dueSk": due.gsi1sk } : {}),
      },
      ReturnValues: "ALL_NEW",
    });
    return fromItem(item as Item).delivery;
  }
}

function fromItem(item: Item): StoredEventDelivery {
  // The item was written from an EventDelivery by this store.
  const delivery = Object.fromEntries(
    EVENT_DELIVERY_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as EventDelivery;
  delivery.attempts = [...((item.attempts as EventDeliveryAttempt[] | undefined) ?? [])];
  return { delivery, body: String(item.body) };
}
