/**
 * @module access/api-key-store — every DynamoDB expression about API keys (docs/security.md): a key
 * and its digest item written together, listed from one partition, revoked in both at once, and
 * found by the digest of a presented key in one read. The key's text is never stored. Keys: ./keys.ts.
 * A key's version (its `ETag`, docs/api.md#concurrency-and-idempotency) is 1, and 2 once revoked.
 */
import type { Db, Item } from "../db/db.js";
import { ConditionFailedError } from "../db/db-errors.js";
import { entityOf } from "../db/item-kinds.js";
import { storedTimestamp } from "../http/timestamps.js";
import type { Scope } from "../routes.js";
import { API_KEYS_PARTITION, apiKeyDigestKey, apiKeyKey } from "./keys.js";

/** An API key as the API shows it: never the key itself, only its first characters. */
export interface ApiKey {
  id: string;
  name: string;
  scopes: Scope[];
  /** The projects it is narrowed to; null: every project. */
  projectIds: string[] | null;
  /** Its first characters (`kaizen_3f9c2`), to tell keys apart. */
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A key as stored: what the API shows, its version, and the digest its grant is kept under. */
export interface StoredKey {
  apiKey: ApiKey;
  /** 1 as made, 2 once revoked: a key changes once. */
  version: number;
  digest: string;
}

/** What a check of a presented key finds: the key's grant, read from its digest item. */
export interface KeyGrant {
  id: string;
  name: string;
  scopes: Scope[];
  projectIds: string[] | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

// Named condition fragments.
const itemAbsent = "attribute_not_exists(pk)";
/**
 * The key is not revoked. A key changes once, as it is revoked, so being unrevoked is being at
 * version 1: this is the condition on the version read, and it also holds for a key stored before
 * keys had a version.
 */
const unrevoked = "attribute_exists(pk) AND (attribute_not_exists(#revokedAt) OR #revokedAt = :none)";

export class ApiKeyStore {
  constructor(private readonly db: Db) {}

  /** Writes a new key (at version 1) and its digest item in one transaction. */
  async create(key: ApiKey, digest: string): Promise<StoredKey> {
    await this.db.transactWrite([
      {
        Put: {
          Item: { ...apiKeyKey(key.id), entity: entityOf("apikey"), digest, version: 1, ...key },
          ConditionExpression: itemAbsent,
        },
      },
      { Put: { Item: { ...apiKeyDigestKey(digest), ...grantOf(key) }, ConditionExpression: itemAbsent } },
    ]);
    return { apiKey: key, version: 1, digest };
  }

  /** A key, with when it was last used (kept on its digest item, which every check touches). */
  async get(id: string): Promise<StoredKey | undefined> {
    const item = await this.db.get(apiKeyKey(id), { consistent: true });
    if (!item) return undefined;
    const digest = String(item.digest);
    const use = await this.db.get(apiKeyDigestKey(digest), { projection: ["lastUsedAt"] });
    const apiKey = keyFromItem(item, use);
    return { apiKey, version: versionOf(item, apiKey), digest };
  }

  /** Every key, oldest first (one partition: a team has tens), each with when it was last used. */
  async all(): Promise<ApiKey[]> {
    const items = await this.db.queryPartition(API_KEYS_PARTITION);
    const uses = await this.db.batchGet(items.map((item) => apiKeyDigestKey(String(item.digest))));
    const lastUsed = new Map(uses.map((use) => [String(use.pk), use]));
    return items.map((item) => keyFromItem(item, lastUsed.get(apiKeyDigestKey(String(item.digest)).pk)));
  }

  /**
   * Revokes `current` (read unrevoked) at `at`, in it and its digest item together, moving it to its
   * next version; a condition failure means it was revoked meanwhile: read it again.
   */
  async revoke(current: StoredKey, at: string): Promise<StoredKey> {
    await this.db.transactWrite([
      {
        Update: {
          Key: apiKeyKey(current.apiKey.id),
          UpdateExpression: "SET #revokedAt = :at, #version = :next",
          ConditionExpression: unrevoked,
          ExpressionAttributeNames: { "#revokedAt": "revokedAt", "#version": "version" },
          ExpressionAttributeValues: { ":at": at, ":none": null, ":next": current.version + 1 },
        },
      },
      {
        Update: {
          Key: apiKeyDigestKey(current.digest),
          UpdateExpression: "SET #revokedAt = :at",
          ExpressionAttributeNames: { "#revokedAt": "revokedAt" },
          ExpressionAttributeValues: { ":at": at },
        },
      },
    ]);
    return { ...current, apiKey: { ...current.apiKey, revokedAt: at }, version: current.version + 1 };
  }

  /**
   * The grant of the key whose digest is `digest`, revoked or expired ones included, marked used at
   * `at`: one call, an update that answers the item it leaves (nothing is written for an unknown digest).
   */
  async useByDigest(digest: string, at: string): Promise<KeyGrant | undefined> {
    try {
      const item = await this.db.update({
        Key: apiKeyDigestKey(digest),
        UpdateExpression: "SET #lastUsedAt = :at",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#lastUsedAt": "lastUsedAt" },
        ExpressionAttributeValues: { ":at": at },
        ReturnValues: "ALL_NEW",
      });
      return item ? grantFromItem(item) : undefined;
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
  }
}

function grantOf(key: ApiKey): KeyGrant {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    projectIds: key.projectIds,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
  };
}

const nullableString = (value: unknown) => (typeof value === "string" ? value : null);

/**
 * A key from its item (what it grants read as {@link grantFromItem} reads it), and when it was last
 * used from its digest item's `lastUsedAt`.
 */
function keyFromItem(item: Item, use: Item | undefined): ApiKey {
  const { id, name, scopes, projectIds, expiresAt, revokedAt } = grantFromItem(item);
  return {
    id,
    name,
    scopes,
    projectIds,
    prefix: String(item.prefix),
    createdAt: String(item.createdAt),
    expiresAt,
    lastUsedAt: nullableString(use?.lastUsedAt),
    revokedAt,
  };
}

/** A key's version: as stored, or, for a key stored before keys had one, 1 (2 once revoked). */
function versionOf(item: Item, key: ApiKey): number {
  if (item.version !== undefined) return Number(item.version);
  return key.revokedAt ? 2 : 1;
}

/** What a key grants, from its item. */
function grantFromItem(item: Item): KeyGrant {
  return {
    id: String(item.id),
    name: String(item.name),
    scopes: (item.scopes as Scope[] | undefined) ?? [],
    projectIds: (item.projectIds as string[] | null | undefined) ?? null,
    // Kept as the client sent it before expiries were normalised (docs/api.md#identifiers-and-fields).
    expiresAt: storedTimestamp(item.expiresAt),
    revokedAt: nullableString(item.revokedAt),
  };
}
