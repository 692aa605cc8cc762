/**
 * @module http/idempotency-store — every DynamoDB expression about Idempotency-Key records: the
 * conditional claim, storing the first response, and releasing a claim whose request failed.
 *
 * Access patterns:
 * - record by key .......... GetItem / PutItem / UpdateItem
 *                            pk=$kaizen#idempotency_1#<key>   sk=$kaizen#idempotency_1
 *
 * One key space for the whole API: a key is not scoped by route, so reusing it on another path
 * is "a different request" (409), never a second, independent record. There is one API key per
 * deployment, so there is no caller to scope by either.
 *
 * A record lives 24 h from its claim (`expiresAt`, epoch seconds: the table's TTL attribute).
 * DynamoDB's TTL deletes lazily, so an expired record can still be read; it counts as absent.
 */
import { randomUUID } from "node:crypto";
import { ConditionFailedError, type Db, type Item, type Key } from "../db/db.js";
import { entityOf, keyPrefix } from "../db/item-kinds.js";
import { retryRaces } from "../db/retry.js";

const IDEMPOTENCY_ENTITY = keyPrefix("idempotency");

/** How long a key remembers its first request and response. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;

/**
 * How long a claim without a stored response blocks the key. Longer than any function may run
 * (10 s in infra/api.ts; API Gateway gives up after 30 s), so a live request is never run twice,
 * while a request whose function died (timeout, crash) does not lock its key for 24 h.
 */
export const IN_PROGRESS_LEASE_SECONDS = 60;

/** The response a key replays: status, body text and the headers that matter. */
export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface IdempotencyRecord {
  key: string;
  /** {@link requestFingerprint} of the first request. */
  requestHash: string;
  state: "in_progress" | "completed";
  /** Epoch seconds after which the record counts as absent (and DynamoDB's TTL deletes it). */
  expiresAt: number;
  /** Epoch milliseconds until which an `in_progress` claim blocks the key. */
  inProgressUntil: number;
  response: StoredResponse | null;
}

/** Either this request now holds the key (`token` proves it), or another record holds it. */
export type ClaimResult = { claimed: true; token: string } | { claimed: false; record: IdempotencyRecord };

// Named condition fragments.
/** Nobody has used the key. */
const keyAbsent = "attribute_not_exists(pk)";
/** The record outlived its retention; TTL has not deleted it yet. */
const recordExpired = "#expiresAt <= :nowSeconds";
/** The first request's claim was released (5xx) or its function died without storing a response. */
const claimAbandoned = "(#state = :inProgress AND #inProgressUntil <= :nowMillis)";
/** The claim is still the one this request made, not one taken over after its lease ran out. */
const claimStillOurs = "#token = :token AND #state = :inProgress";

export function idempotencyRecordKey(key: string): Key {
  return { pk: `${IDEMPOTENCY_ENTITY}#${key}`, sk: IDEMPOTENCY_ENTITY };
}

/** Whether a claim may take over the record at `now`: the same test as the claim's condition. */
export function isClaimable(record: IdempotencyRecord, now: Date): boolean {
  const expired = record.expiresAt <= epochSeconds(now);
  const abandoned = record.state === "in_progress" && record.inProgressUntil <= now.getTime();
  return expired || abandoned;
}

/**
 * Idempotency-Key records on the shared table.
 * @example const claim = await new IdempotencyStore(db).claim("order-7", hash, new Date());
 */
export class IdempotencyStore {
  constructor(private readonly db: Db) {}

  /**
   * Claims `key` for a request with `requestHash` when nobody holds it (absent, expired or
   * abandoned), with one conditional put; otherwise returns the record that holds it. A record
   * that turns out claimable after the failed put was changed in between: claim again. A record
   * holding this claim's own token is this put, applied on a wire attempt whose answer was lost.
   */
  async claim(key: string, requestHash: string, now: Date): Promise<ClaimResult> {
    return retryRaces(
      async () => {
        const token = randomUUID();
        try {
          await this.db.put({
            Item: {
              ...idempotencyRecordKey(key),
              entity: entityOf("idempotency"),
              key,
              requestHash,
              state: "in_progress",
              token,
              inProgressUntil: now.getTime() + IN_PROGRESS_LEASE_SECONDS * 1000,
              expiresAt: epochSeconds(now) + IDEMPOTENCY_RETENTION_SECONDS,
              createdAt: now.toISOString(),
            },
            ConditionExpression: `${keyAbsent} OR ${recordExpired} OR ${claimAbandoned}`,
            ExpressionAttributeNames: {
              "#expiresAt": "expiresAt",
              "#state": "state",
              "#inProgressUntil": "inProgressUntil",
            },
            ExpressionAttributeValues: {
              ":nowSeconds": epochSeconds(now),
              ":nowMillis": now.getTime(),
              ":inProgress": "in_progress",
            },
          });
          return { claimed: true, token };
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
          const item = await this.db.get(idempotencyRecordKey(key), { consistent: true });
          // Our own put landed and its answer was lost; the SDK's retry of it then failed the condition.
          if (item?.token === token) return { claimed: true, token };
          const record = item ? fromItem(item) : undefined;
          if (record && !isClaimable(record, now)) return { claimed: false, record };
          throw error;
        }
      },
      { maxAttempts: 5 },
    );
  }

  /**
   * Stores the response of the request holding `token`. False when the claim was taken over
   * (the lease ran out first): the newer request's response is the one to keep.
   */
  async complete(key: string, token: string, response: StoredResponse): Promise<boolean> {
    return this.updateOwnClaim(key, token, {
      UpdateExpression: "SET #state = :completed, #response = :response REMOVE #inProgressUntil",
      ExpressionAttributeNames: { "#response": "response", "#inProgressUntil": "inProgressUntil" },
      ExpressionAttributeValues: { ":completed": "completed", ":response": response },
    });
  }

  /** Gives the key back after a failed request so the client can retry it; false if already taken over. */
  async release(key: string, token: string): Promise<boolean> {
    // Ends the lease rather than deleting: deletes take no condition here, and the lease test
    // makes a released claim claimable at once (TTL still removes it after 24 h).
    return this.updateOwnClaim(key, token, {
      UpdateExpression: "SET #inProgressUntil = :released",
      ExpressionAttributeNames: { "#inProgressUntil": "inProgressUntil" },
      ExpressionAttributeValues: { ":released": 0 },
    });
  }

  /** The record under `key`, expired or not (strongly consistent). */
  async get(key: string): Promise<IdempotencyRecord | undefined> {
    const item = await this.db.get(idempotencyRecordKey(key), { consistent: true });
    return item ? fromItem(item) : undefined;
  }

  private async updateOwnClaim(
    key: string,
    token: string,
    update: {
      UpdateExpression: string;
      ExpressionAttributeNames: Record<string, string>;
      ExpressionAttributeValues: Record<string, unknown>;
    },
  ): Promise<boolean> {
    try {
      await this.db.update({
        Key: idempotencyRecordKey(key),
        UpdateExpression: update.UpdateExpression,
        ConditionExpression: claimStillOurs,
        ExpressionAttributeNames: { "#token": "token", "#state": "state", ...update.ExpressionAttributeNames },
        ExpressionAttributeValues: {
          ...update.ExpressionAttributeValues,
          ":token": token,
          ":inProgress": "in_progress",
        },
      });
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }
}

function fromItem(item: Item): IdempotencyRecord {
  const response = item.response as StoredResponse | undefined;
  return {
    key: String(item.key),
    requestHash: String(item.requestHash),
    state: item.state === "completed" ? "completed" : "in_progress",
    expiresAt: Number(item.expiresAt),
    inProgressUntil: Number(item.inProgressUntil ?? 0),
    response: response
      ? { status: Number(response.status), body: String(response.body), headers: { ...response.headers } }
      : null,
  };
}

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
