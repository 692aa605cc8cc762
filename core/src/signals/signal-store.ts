/**
 * @module signals/signal-store — every DynamoDB expression about signals: the items a new signal
 * writes (in its caller's transaction), the one read that routing decides on, reads by id with
 * the whole payload, and listing pages. Keys and access patterns: ./keys.ts.
 */

import { routingOf, type SourceRef, type SourceRouting, sourceKey } from "../catalog/source-store.js";
import { ConditionFailedError, type Db, type Item, type TransactItem, TransactionConflictError } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import {
  deliveryKey,
  fingerprintKey,
  payloadChunkKey,
  SIGNAL_LISTINGS,
  signalKey,
  signalListings,
  signalSortKey,
  signalSourceKey,
} from "./keys.js";
import type { EncodedPayload } from "./payload.js";
import type { Signal } from "./schemas.js";

/** A signal's fields without its payload. */
export type SignalHead = Omit<Signal, "payload">;

/** What a stored webhook delivery remembers: the signal it made and the issue it went to. */
export interface StoredWebhookDelivery {
  signalId: string;
  issueId: string | null;
}

/**
 * Where a webhook delivery id stands: stored (its signal and issue), or being stored by the request that
 * reserved it until `until` (epoch ms), or free for this request (`reserved`: it now holds it).
 */
export type WebhookDeliveryState =
  | { state: "stored"; delivery: StoredWebhookDelivery }
  | { state: "pending"; until: number }
  | { state: "reserved" };

/** Where a webhook delivery id stands as read: stored, or being stored. */
export type WebhookDeliveryFound = Exclude<WebhookDeliveryState, { state: "reserved" }>;

/** Compressed payload bytes a signal may put into its own transaction (DynamoDB allows 4 MB in all). */
export const PAYLOAD_IN_TRANSACTION_BYTES = 3_000_000;
const ENTRY_FIELDS = ["id", "source", "type", "severity", "action", "issueId", "projectId"] as const;

// Named condition fragments.
/** No request stored this webhook delivery or holds it now (an abandoned reservation has lapsed). */
const webhookDeliveryFree = "attribute_not_exists(pk) OR (attribute_not_exists(signalId) AND #reservedUntil < :now)";
/** The webhook delivery is still reserved by the signal being written (nobody took a lapsed reservation over). */
const webhookDeliveryReservedBy = "#reservedBy = :signalId";
/** Nobody pointed the fingerprint elsewhere since it was read. */
const pointerUnchanged = "#issueId = :expectedIssueId";
const pointerAbsent = "attribute_not_exists(pk)";

/** Manual sources this process has registered, by table (a registration is written once per process). */
const rememberedSources = new Set<string>();

export class SignalStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, SIGNAL_LISTINGS);
  }

  /**
   * What routing decides on, in one strongly consistent read: the issue the fingerprint last opened,
   * if any, and the routing of the project that owns `source`, if one does (docs/api.md#what-a-signal-does).
   */
  async routeRead(
    fingerprint: string,
    source: SourceRef | null,
  ): Promise<{ pointer: string | null; routing: SourceRouting | null }> {
    if (source === null) {
      const pointer = await this.db.get(fingerprintKey(fingerprint), { consistent: true });
      return { pointer: typeof pointer?.issueId === "string" ? pointer.issueId : null, routing: null };
    }
    const pointerKey = fingerprintKey(fingerprint);
    const items = await this.db.batchGet([pointerKey, sourceKey(source)], { consistent: true });
    const pointer = items.find((item) => item.pk === pointerKey.pk);
    const claim = items.find((item) => item.pk !== pointerKey.pk);
    return {
      pointer: typeof pointer?.issueId === "string" ? pointer.issueId : null,
      routing: claim ? routingOf(claim) : null,
    };
  }

  /** Which issue each of `fingerprints` points at, where one does (read strongly: a merge moves them). */
  async pointersOf(fingerprints: string[]): Promise<Map<string, string>> {
    if (fingerprints.length === 0) return new Map();
    const items = await this.db.batchGet(fingerprints.map(fingerprintKey), { consistent: true });
    return new Map(
      items
        .filter((item) => typeof item.issueId === "string")
        .map((item) => [String(item.fingerprint), String(item.issueId)]),
    );
  }

  /**
   * Reserves a webhook delivery id for signal `signalId` at `now` until `until` (epoch ms) with one
   * conditional put, unless it is stored or reserved by another request: then says which, from the item the
   * refused put returns. A put refused because a transaction holds the item (the webhook delivery being
   * stored right now, on AWS) finds it pending. So redeliveries that arrive together on separate
   * instances wait for one of them instead of each sending a transaction bound to fail.
   */
  async reserveWebhookDelivery(
    source: string,
    deliveryId: string,
    signalId: string,
    now: number,
    until: number,
  ): Promise<WebhookDeliveryState> {
    try {
      await this.db.put({
        Item: { ...deliveryKey(source, deliveryId), reservedBy: signalId, reservedUntil: until },
        ConditionExpression: webhookDeliveryFree,
        ExpressionAttributeNames: { "#reservedUntil": "reservedUntil" },
        ExpressionAttributeValues: { ":now": now },
      });
      return { state: "reserved" };
    } catch (error) {
      if (error instanceof TransactionConflictError) return { state: "pending", until: now };
      if (!(error instanceof ConditionFailedError)) throw error;
      const existing = error.existing as Item | undefined;
      // This very put, applied while its answer was lost (the SDK sent it again), or a reservation
      // this signal made before and still holds.
      if (existing?.reservedBy === signalId) return { state: "reserved" };
      return existing ? stateOfWebhookDelivery(existing) : { state: "pending", until: now };
    }
  }

  /** Where a webhook delivery id stands now (strongly consistent); null when nobody stored or holds it. */
  async webhookDeliveryState(source: string, deliveryId: string): Promise<WebhookDeliveryFound | null> {
    const item = await this.db.get(deliveryKey(source, deliveryId), { consistent: true });
    return item ? stateOfWebhookDelivery(item) : null;
  }

  /**
   * Gives up signal `signalId`'s reservation of a webhook delivery it did not store (its request failed), so
   * a redelivery need not wait for the reservation to lapse. Harmless once the webhook delivery is stored.
   */
  async releaseWebhookDelivery(source: string, deliveryId: string, signalId: string): Promise<void> {
    try {
      await this.db.delete(deliveryKey(source, deliveryId), {
        // A stored webhook delivery names no reservation any more, so this never deletes one.
        ConditionExpression: webhookDeliveryReservedBy,
        ExpressionAttributeNames: { "#reservedBy": "reservedBy" },
        ExpressionAttributeValues: { ":signalId": signalId },
      });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  /** Whether the payload must be written before the transaction (it would not fit inside). */
  payloadTooBigForTransaction(payload: EncodedPayload): boolean {
    return payload.chunks.reduce((sum, chunk) => sum + chunk.length, 0) > PAYLOAD_IN_TRANSACTION_BYTES;
  }

  /** Writes payload chunks on their own, for payloads too big for the signal's transaction. */
  async writePayloadChunks(signalId: string, payload: EncodedPayload): Promise<void> {
    for (const [index, chunk] of payload.chunks.entries()) {
      await this.db.put({ Item: { ...payloadChunkKey(signalId, index), data: chunk } });
    }
  }

  /** Removes chunks written ahead of a transaction that then did not happen. */
  async deletePayloadChunks(signalId: string, payload: EncodedPayload): Promise<void> {
    for (const index of payload.chunks.keys()) await this.db.delete(payloadChunkKey(signalId, index));
  }

  /**
   * The writes of a new signal: the webhook delivery (only while this signal still holds its reservation:
   * it comes first, so a failed condition at index 0 means another request took the webhook delivery), the
   * signal, its payload chunks unless written ahead, and its listing entries and counts.
   */
  prepareCreate(signal: SignalHead, payload: EncodedPayload, chunksWrittenAhead: boolean): TransactItem[] {
    const writes: TransactItem[] = [];
    if (signal.deliveryId !== null) {
      writes.push({
        Put: {
          Item: { ...deliveryKey(signal.source, signal.deliveryId), signalId: signal.id, issueId: signal.issueId },
          ConditionExpression: webhookDeliveryReservedBy,
          ExpressionAttributeNames: { "#reservedBy": "reservedBy" },
          ExpressionAttributeValues: { ":signalId": signal.id },
        },
      });
    }
    writes.push({
      Put: {
        Item: { ...signalKey(signal.id), entity: entityOf("signal"), ...signal, payloadChunks: payload.chunks.length },
      },
    });
    if (!chunksWrittenAhead) {
      for (const [index, chunk] of payload.chunks.entries()) {
        writes.push({ Put: { Item: { ...payloadChunkKey(signal.id, index), data: chunk } } });
      }
    }
    const fields = Object.fromEntries(ENTRY_FIELDS.map((field) => [field, signal[field]]));
    writes.push(...this.listings.additions(signalListings(signal), signalSortKey(signal.id), fields));
    return writes;
  }

  /**
   * Registers a manual source (providers' sources are known), so the dashboard knows which
   * `source=` listings to read; written once per process and source, outside the signal's
   * transaction (a source with no signal is harmless), so bursts never share it.
   */
  async rememberSource(source: string): Promise<void> {
    const remembered = `${this.db.tableName}\u0000${source}`;
    if (rememberedSources.has(remembered)) return;
    await this.db.put({ Item: { ...signalSourceKey(source), entity: entityOf("signalsources"), source } });
    rememberedSources.add(remembered);
  }

  /** Points the fingerprint at a newly opened issue, only if it still points where it did. */
  pointFingerprint(fingerprint: string, issueId: string, expected: string | null): TransactItem {
    return {
      Put: {
        Item: { ...fingerprintKey(fingerprint), fingerprint, issueId },
        ConditionExpression: expected === null ? pointerAbsent : pointerUnchanged,
        ...(expected === null
          ? {}
          : {
              ExpressionAttributeNames: { "#issueId": "issueId" },
              ExpressionAttributeValues: { ":expectedIssueId": expected },
            }),
      },
    };
  }
}

/** A webhook delivery item: stored when it names its signal, else a reservation until its `reservedUntil`. */
function stateOfWebhookDelivery(item: Item): WebhookDeliveryFound {
  if (typeof item.signalId !== "string") return { state: "pending", until: Number(item.reservedUntil ?? 0) };
  return {
    state: "stored",
    delivery: { signalId: item.signalId, issueId: typeof item.issueId === "string" ? item.issueId : null },
  };
}
