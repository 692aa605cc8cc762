/**
 * @module access/api-key-store — every DynamoDB expression about API keys (docs/security.md): a key
 * and its digest item written together, listed from one partition, revoked in both at once, and
 * found by the digest of a presented key in one read. The key's text is never stored. Keys: ./keys.ts.
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

/** What a check of a presented key finds: the key's grant, read from its digest item. */
export interface KeyGrant {
  id: string;
  name: string;
  scopes: Scope[];
  projectIds: string[] | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const itemAbsent = "attribute_not_exists(pk)";

export class ApiKeyStore {
  constructor(private readonly db: Db) {}

  /** Writes a new key and its digest item in one transaction. */
  async create(key: ApiKey, digest: string): Promise<ApiKey> {
    await this.db.transactWrite([
      {
        Put: {
          Item: { ...apiKeyKey(key.id), entity: entityOf("apikey"), digest, ...key },
          ConditionExpression: itemAbsent,
        },
      },
      { Put: { Item: { ...apiKeyDigestKey(digest), ...grantOf(key) }, ConditionExpression: itemAbsent } },
    ]);
    return key;
  }

  /** A key, with when it was last used (kept on its digest item, which every check touches). */
  async get(id: string): Promise<ApiKey | undefined> {
    const item = await this.db.get(apiKeyKey(id), { consistent: true });
    if (!item) return undefined;
    const use = await this.db.get(apiKeyDigestKey(String(item.digest)), { projection: ["lastUsedAt"] });
    return keyFromItem(item, use);
  }

  /** Every key, oldest first (one partition: a team has tens), each with when it was last used. */
  async all(): Promise<ApiKey[]> {
    const items = await this.db.queryPartition(API_KEYS_PARTITION);
    const uses = await this.db.batchGet(items.map((item) => apiKeyDigestKey(String(item.digest))));
    const lastUsed = new Map(uses.map((use) => [String(use.pk), use]));
    return items.map((item) => keyFromItem(item, lastUsed.get(apiKeyDigestKey(String(item.digest)).pk)));
  }

  /**
   * Revokes key `id` at `at` in it and its digest item together; the key as it is now, or undefined
   * when there is none. A key revoked already keeps its first revocation.
   */
  async revoke(id: string, at: string): Promise<ApiKey | undefined> {
    const item = await this.db.get(apiKeyKey(id), { consistent: true });
    if (!item) return undefined;
    const key = keyFromItem(
      item,
      await this.db.get(apiKeyDigestKey(String(item.digest)), { projection: ["lastUsedAt"] }),
    );
    if (key.revokedAt) return key;
    const revoked = { ...key, revokedAt: at };
    await this.db.transactWrite([
      {
        Update: {
          Key: apiKeyKey(id),
          UpdateExpression: "SET #revokedAt = :at",
          ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(#revokedAt) OR #revokedAt = :none)",
          ExpressionAttributeNames: { "#revokedAt": "revokedAt" },
          ExpressionAttributeValues: { ":at": at, ":none": null },
        },
      },
      {
        Update: {
          Key: apiKeyDigestKey(String(item.digest)),
          UpdateExpression: "SET #revokedAt = :at",
          ExpressionAttributeNames: { "#revokedAt": "revokedAt" },
          ExpressionAttributeValues: { ":at": at },
        },
      },
    ]);
    return revoked;
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
