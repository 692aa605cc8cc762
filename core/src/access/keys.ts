/**
 * @module access/keys — items and keys of API keys (pure functions, no I/O).
 *
 * Access patterns:
 * - every key ............ Query    pk=$kaizen#apikey_1                 (a team has tens: one partition)
 * - key by id ............ GetItem  pk=$kaizen#apikey_1  sk=<id>
 * - key by its text ...... GetItem  pk=$kaizen#apikeydigest_1#<sha256 hex>  sk=$kaizen#apikeydigest_1
 *                          (a copy of what a check grants: one read, never the key itself)
 */
import { createHash, randomBytes } from "node:crypto";
import { decodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";

const KEY_ENTITY = keyPrefix("apikey");
const DIGEST_ENTITY = keyPrefix("apikeydigest");
const nextUlid = ulidSource();

/** An API key id: `key_` and a ULID. */
export const API_KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

/** How many characters of a key its listing shows (`kaizen_` and five more). */
export const KEY_PREFIX_LENGTH = 12;

/** A new key id and the instant it names (its `createdAt`). */
export function newApiKeyId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `key_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

/**
 * A fresh key's text (`kaizen_` and 64 lowercase hex, as the root key's) and the digest stored in its place.
 * @example const { key, digest } = newKeyText(); // key "kaizen_3f9c…", digest "9a0b…" (64 hex)
 */
export function newKeyText(): { key: string; digest: string } {
  const key = `kaizen_${randomBytes(32).toString("hex")}`;
  return { key, digest: keyDigest(key) };
}

/** The SHA-256 of a presented key, as hex: what the table keeps and looks keys up by. */
export function keyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The partition holding every key. */
export const API_KEYS_PARTITION = KEY_ENTITY;

export function apiKeyKey(id: string): Key {
  return { pk: KEY_ENTITY, sk: id };
}

export function apiKeyDigestKey(digest: string): Key {
  return { pk: `${DIGEST_ENTITY}#${digest}`, sk: DIGEST_ENTITY };
}
