/**
 * @module events/keys — items and keys of outbound events (pure functions, no I/O).
 *
 * Access patterns:
 * - every destination ...... Query     pk=$kaizen#destination_1               (at most 20: one partition)
 * - destination by id ...... GetItem   pk=$kaizen#destination_1  sk=<id>
 * - how many there are ..... GetItem   pk=$kaizen#destinations_1 sk=count     (checked by each create)
 * - delivery by id ......... GetItem   pk=$kaizen#eventdelivery_1#<id>        sk=$kaizen#eventdelivery_1
 * - a destination's deliveries  listings of db/listing-index.ts, entity `eventdelivery`, listing
 *                            `destination=<id>`, sort key = the delivery id's 26 characters (time first)
 * - deliveries due ......... Query gsi1 gsi1pk=$kaizen#eventdue_1  gsi1sk <= <now ISO>
 *                            (a pending delivery carries its next attempt's time; a finished one none)
 *
 * Event and delivery ids are made from what they stand for, not drawn at random: the event's id
 * from the stream record it was read from and its type, a delivery's from its event and its
 * destination. A batch of the change stream read twice makes the same ids, so nothing is sent twice
 * for one change and a receiver can dedupe on the event's id.
 */
import { createHash } from "node:crypto";
import { decodeTime, encodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";
import { type ListingScheme, ulidListingScheme } from "../db/listing-index.js";

const DESTINATION_ENTITY = keyPrefix("destination");
const DESTINATIONS_COUNT_ENTITY = keyPrefix("destinations");
const DELIVERY_ENTITY = keyPrefix("eventdelivery");
const DUE_PARTITION = keyPrefix("eventdue");
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const nextUlid = ulidSource();

/** A new destination id and the instant it names (its `createdAt`). */
export function newDestinationId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `dst_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

/** The partition holding every destination. */
export const DESTINATIONS_PARTITION = DESTINATION_ENTITY;

export function destinationKey(id: string): Key {
  return { pk: DESTINATION_ENTITY, sk: id };
}

/** The count of destinations, which a create raises under the condition that it stays within the maximum. */
export function destinationCountKey(): Key {
  return { pk: DESTINATIONS_COUNT_ENTITY, sk: "count" };
}

/** 16 Crockford base-32 characters of the SHA-256 of `parts` (80 bits). */
function digest(...parts: string[]): string {
  const bytes = createHash("sha256").update(parts.join("\u0000")).digest();
  let out = "";
  for (let i = 0; i < 16; i++) out += CROCKFORD[(bytes[i] ?? 0) % 32];
  return out;
}

/**
 * The id of the event of `type` read from stream record `recordId`, made at `at` (epoch ms): the
 * same every time that record is read.
 */
export function eventId(recordId: string, type: string, at: number): string {
  return `evt_${encodeTime(at, 10)}${digest(recordId, type)}`;
}

/** The id of event `eventId`'s delivery to destination `destinationId`: time first, so they list in order. */
export function deliveryId(eventId: string, destinationId: string): string {
  return `dlv_${eventId.slice("evt_".length, "evt_".length + 10)}${digest(eventId, destinationId)}`;
}

export function deliveryKey(id: string): Key {
  return { pk: `${DELIVERY_ENTITY}#${id}`, sk: DELIVERY_ENTITY };
}

/** Deliveries list newest first per destination and count per hour (ULID-like buckets of 8 characters). */
export const DELIVERY_LISTINGS: ListingScheme = ulidListingScheme("eventdelivery", 3_600_000, 8);

/** Sort key of a delivery in its destination's listing: its id's 26 characters. */
export function deliverySortKey(id: string): string {
  return id.slice("dlv_".length);
}

/** The listing of one destination's deliveries. */
export function destinationDeliveriesListing(destinationId: string): string {
  return `destination=${destinationId}`;
}

/** The index attributes that put a pending delivery among those due at `at` (ISO). */
export function dueIndexFields(id: string, at: string): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: DUE_PARTITION, gsi1sk: `${at}#${id}` };
}

/** The gsi1 partition of pending deliveries, and the greatest sort key of one due at `at` (ISO). */
export function dueQuery(at: string): { partition: string; upTo: string } {
  return { partition: DUE_PARTITION, upTo: `${at}#~` };
}
