/**
 * @module events/destination-store — every DynamoDB expression about event destinations: at most
 * {@link MAX_DESTINATIONS} (a count raised under condition in each create's transaction), changed at
 * a version, their secret rotated, and their run of failed attempts counted until it switches them
 * off. Keys: ./keys.ts.
 */
import { ConditionFailedError, type Db, type Item } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { retryConflicts } from "../db/retry.js";
import { ConflictError } from "../errors.js";
import { DESTINATIONS_PARTITION, destinationCountKey, destinationKey } from "./keys.js";
import { type Destination, MAX_DESTINATIONS } from "./schemas.js";

/** A destination with what only the sender sees: the secrets that sign its events. */
export interface StoredDestination {
  destination: Destination;
  secret: string;
  /** The secret before the last rotation while it still signs (until `previousSecretExpiresAt`). */
  previousSecret: string | null;
  version: number;
}

/** Failed attempts in a row after which a destination is switched off (docs/api.md#outbound-events). */
export const DEACTIVATE_AFTER_FAILURES = 100;

const DESTINATION_FIELDS = [
  "id",
  "url",
  "events",
  "description",
  "active",
  "deactivatedReason",
  "deactivatedAt",
  "consecutiveFailures",
  "previousSecretExpiresAt",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof Destination)[];

const itemAbsent = "attribute_not_exists(pk)";
const atVersion = "attribute_exists(pk) AND #version = :version";

export class DestinationStore {
  constructor(private readonly db: Db) {}

  /** Writes a new destination, 409 when there are {@link MAX_DESTINATIONS} already. */
  async create(destination: Destination, secret: string): Promise<StoredDestination> {
    try {
      // The count is one item every create writes: a create that meets another on it sends again.
      await retryConflicts(() =>
        this.db.transactWrite([
          {
            Put: {
              Item: { ...destinationKey(destination.id), ...itemOf(destination, secret, null, 1) },
              ConditionExpression: itemAbsent,
            },
          },
          {
            Update: {
              Key: destinationCountKey(),
              UpdateExpression: "SET #n = if_not_exists(#n, :zero) + :one",
              ConditionExpression: "attribute_not_exists(#n) OR #n < :max",
              ExpressionAttributeNames: { "#n": "count" },
              ExpressionAttributeValues: { ":zero": 0, ":one": 1, ":max": MAX_DESTINATIONS },
            },
          },
        ]),
      );
    } catch (error) {
      if (error instanceof ConditionFailedError && error.reasons[1] === "ConditionalCheckFailed") {
        throw new ConflictError(`There are ${MAX_DESTINATIONS} event destinations already; delete one first`);
      }
      throw error;
    }
    return { destination, secret, previousSecret: null, version: 1 };
  }

  async get(id: string): Promise<StoredDestination | undefined> {
    const item = await this.db.get(destinationKey(id), { consistent: true });
    return item ? fromItem(item) : undefined;
  }

  /** Every destination, oldest first (one query: there are at most {@link MAX_DESTINATIONS}). */
  async all(): Promise<StoredDestination[]> {
    const items = await this.db.queryPartition(DESTINATIONS_PARTITION);
    return items.map(fromItem).sort((a, b) => a.destination.id.localeCompare(b.destination.id));
  }

  /** Replaces `current` with `updated` (and the secrets given) if it is still at its version; 409 otherwise. */
  async replace(
    current: StoredDestination,
    updated: Destination,
    secrets: { secret: string; previousSecret: string | null } = current,
  ): Promise<StoredDestination> {
    const version = current.version + 1;
    try {
      await this.db.put({
        Item: { ...destinationKey(updated.id), ...itemOf(updated, secrets.secret, secrets.previousSecret, version) },
        ConditionExpression: atVersion,
        ExpressionAttributeNames: { "#version": "version" },
        ExpressionAttributeValues: { ":version": current.version },
      });
    } catch (error) {
      if (error instanceof ConditionFailedError) {
        throw new ConflictError(`Event destination ${updated.id} changed meanwhile; read it again`);
      }
      throw error;
    }
    return { destination: updated, secret: secrets.secret, previousSecret: secrets.previousSecret, version };
  }

  /** Deletes `current` if it is still at its version, and frees its place among the {@link MAX_DESTINATIONS}. */
  async delete(current: StoredDestination): Promise<void> {
    try {
      await retryConflicts(() =>
        this.db.transactWrite([
          {
            Delete: {
              Key: destinationKey(current.destination.id),
              ConditionExpression: atVersion,
              ExpressionAttributeNames: { "#version": "version" },
              ExpressionAttributeValues: { ":version": current.version },
            },
          },
          {
            Update: {
              Key: destinationCountKey(),
              UpdateExpression: "ADD #n :minusOne",
              ExpressionAttributeNames: { "#n": "count" },
              ExpressionAttributeValues: { ":minusOne": -1 },
            },
          },
        ]),
      );
    } catch (error) {
      if (error instanceof ConditionFailedError && error.reasons[0] === "ConditionalCheckFailed") {
        throw new ConflictError(`Event destination ${current.destination.id} changed meanwhile; read it again`);
      }
      throw error;
    }
  }

  /**
   * Counts one more failed attempt in a row; at {@link DEACTIVATE_AFTER_FAILURES} the destination is
   * switched off, once (the first attempt to reach the count does it). Answers whether this one did.
   */
  async recordFailure(id: string, error: string, now: Date): Promise<boolean> {
    let after: Item | undefined;
    try {
      after = await this.db.update({
        Key: destinationKey(id),
        UpdateExpression: "ADD #failures :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#failures": "consecutiveFailures" },
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "ALL_NEW",
      });
    } catch (failure) {
      if (failure instanceof ConditionFailedError) return false; // deleted meanwhile
      throw failure;
    }
    if (Number(after?.consecutiveFailures ?? 0) < DEACTIVATE_AFTER_FAILURES || after?.active !== true) return false;
    try {
      await this.db.update({
        Key: destinationKey(id),
        UpdateExpression:
          "SET #active = :false, #reason = :reason, #deactivatedAt = :now, #updatedAt = :now ADD #version :one",
        ConditionExpression: "#active = :true",
        ExpressionAttributeNames: {
          "#active": "active",
          "#reason": "deactivatedReason",
          "#deactivatedAt": "deactivatedAt",
          "#updatedAt": "updatedAt",
          "#version": "version",
        },
        ExpressionAttributeValues: {
          ":false": false,
          ":true": true,
          ":one": 1,
          ":now": now.toISOString(),
          ":reason": `Deactivated after ${DEACTIVATE_AFTER_FAILURES} failed attempts in a row; the last: ${error}`,
        },
      });
      return true;
    } catch (failure) {
      if (failure instanceof ConditionFailedError) return false;
      throw failure;
    }
  }

  /** Ends a run of failures: the count goes back to 0 (no write when there was none). */
  async recordSuccess(current: StoredDestination): Promise<void> {
    if (current.destination.consecutiveFailures === 0) return;
    try {
      await this.db.update({
        Key: destinationKey(current.destination.id),
        UpdateExpression: "SET #failures = :zero",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#failures": "consecutiveFailures" },
        ExpressionAttributeValues: { ":zero": 0 },
      });
    } catch (failure) {
      if (!(failure instanceof ConditionFailedError)) throw failure;
    }
  }
}

function itemOf(destination: Destination, secret: string, previousSecret: string | null, version: number): Item {
  return { entity: entityOf("destination"), ...destination, secret, previousSecret, version };
}

function fromItem(item: Item): StoredDestination {
  // The item was written from a Destination by this store.
  const destination = Object.fromEntries(
    DESTINATION_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as Destination;
  destination.consecutiveFailures = Number(item.consecutiveFailures ?? 0);
  destination.events = [...((item.events as Destination["events"] | undefined) ?? [])];
  return {
    destination,
    secret: String(item.secret),
    previousSecret: typeof item.previousSecret === "string" ? item.previousSecret : null,
    version: Number(item.version ?? 1),
  };
}
