/**
 * @module signals/keys — items and keys of signals, deliveries and fingerprints (pure).
 *
 * Access patterns:
 * - signal by id ............. GetItem  pk=$kaizen#signal_1#<id>  sk=$kaizen#signal_1
 * - its payload chunks ....... Query    pk=$kaizen#signal_1#<id>  sk begins_with $kaizen#signalpayload_1#
 *                              (a payload that fits one chunk stays inline on the signal item)
 * - delivery taken? ......... PutItem (conditional) / GetItem  pk=$kaizen#delivery_1#<source>#<delivery id>
 *                              (a reservation, `reservedBy` and `reservedUntil`, until the signal and
 *                              issue ids replace it)
 * - open issue of a fingerprint GetItem pk=$kaizen#fingerprint_1#<fingerprint>  (the issue it last opened)
 * - manual sources ........... Query    pk=$kaizen#signalsources_1  (sk = the source name)
 * - lists .................... listings of db/listing-index.ts, entity `signal`, sort key = the id's ULID,
 *                              buckets of one hour; listings `all`, `source=`, `type=`, `severity=`,
 *                              `action=`, `issue=`
 */
import { createHash } from "node:crypto";
import { ulid } from "ulid";
import type { Key } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import { listingEntryKey, ulidFloor, ulidListingScheme } from "../db/listing-index.js";

const SIGNAL_ENTITY = keyPrefix("signal");
const PAYLOAD_ENTITY = keyPrefix("signalpayload");
const DELIVERY_ENTITY = keyPrefix("delivery");
const FINGERPRINT_ENTITY = keyPrefix("fingerprint");
const HOUR_MS = 3_600_000;

/** A new signal id, and the instant it names (its `receivedAt`). */
export function newSignalId(now = Date.now()): { id: string; receivedAt: string } {
  return { id: `sig_${ulid(now)}`, receivedAt: new Date(now).toISOString() };
}

export function signalKey(id: string): Key {
  return { pk: `${SIGNAL_ENTITY}#${id}`, sk: SIGNAL_ENTITY };
}

export function payloadChunkKey(signalId: string, index: number): Key {
  return { pk: signalKey(signalId).pk, sk: `${PAYLOAD_ENTITY}#${String(index).padStart(4, "0")}` };
}

export const PAYLOAD_CHUNK_PREFIX = `${PAYLOAD_ENTITY}#`;

export function deliveryKey(source: string, deliveryId: string): Key {
  return { pk: `${DELIVERY_ENTITY}#${source}#${boundedKeyPart(deliveryId)}`, sk: DELIVERY_ENTITY };
}

/** The registration of a manual source (the dashboard reads which sources to count). */
export function signalSourceKey(source: string): Key {
  return { pk: keyPrefix("signalsources"), sk: source };
}

export function fingerprintKey(fingerprint: string): Key {
  return { pk: `${FINGERPRINT_ENTITY}#${boundedKeyPart(fingerprint)}`, sk: FINGERPRINT_ENTITY };
}

/** Signal listings sort by id (time) and count per hour. */
export const SIGNAL_LISTINGS = ulidListingScheme("signal", HOUR_MS, 8);

/** Sort key of a signal in its listings: the ULID of its id. */
export function signalSortKey(id: string): string {
  return id.slice("sig_".length);
}

/** Lowest sort key at or after an instant (for `since`). */
export const timeFloor = ulidFloor;

export function signalEntryKey(listing: string, id: string): Key {
  return listingEntryKey(SIGNAL_LISTINGS.entity, listing, signalSortKey(id));
}

/** Every listing a signal appears in. */
export function signalListings(signal: {
  source: string;
  type: string;
  severity: string;
  action: string;
  issueId: string | null;
}): string[] {
  return [
    "all",
    `source=${signal.source}`,
    `type=${signal.type}`,
    `severity=${signal.severity}`,
    `action=${signal.action}`,
    ...(signal.issueId ? [`issue=${signal.issueId}`] : []),
  ];
}

/** Key parts stay far below DynamoDB's 2 KB key limit: long values are replaced by their hash. */
function boundedKeyPart(value: string): string {
  return Buffer.byteLength(value, "utf8") <= 512 ? value : `sha256:${createHash("sha256").update(value).digest("hex")}`;
}
