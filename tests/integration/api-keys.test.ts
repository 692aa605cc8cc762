/**
 * API keys on DynamoDB Local (core/src/access): a key and its digest written together, never the
 * key's text; a grant found by the digest in one read; revocation in both items; and the check's
 * cache, bounded and forgotten at once on the instance that revoked.
 */
import { describe, expect, it } from "vitest";
import { type ApiKey, ApiKeyStore } from "../../core/src/access/api-key-store.js";
import { GRANT_CACHE_MS, KeyCheck } from "../../core/src/access/key-check.js";
import { KEY_PREFIX_LENGTH, newApiKeyId, newKeyText } from "../../core/src/access/keys.js";
import { testClock } from "../helpers/clock.js";
import { freshTable } from "../helpers/db.js";

function apiKey(name: string, key: string, fields: Partial<ApiKey> = {}): ApiKey {
  const { id, createdAt } = newApiKeyId();
  return {
    id,
    name,
    scopes: ["read"],
    projectIds: null,
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    createdAt,
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...fields,
  };
}

describe("API keys", () => {
  it("keep a key's digest, never its text, and find its grant by the digest in one read", async () => {
    const { db } = await freshTable();
    const store = new ApiKeyStore(db);
    const { key, digest } = newKeyText();
    const made = await store.create(apiKey("wall screen", key), digest);
    const items = JSON.stringify(await db.queryPartition("$kaizen#apikey_1"));
    expect(items).not.toContain(key);
    expect(items).toContain(made.prefix);
    expect(await store.all()).toEqual([made]);
    const before = db.usage().calls;
    expect(await store.grantByDigest(digest)).toMatchObject({ id: made.id, name: "wall screen", scopes: ["read"] });
    expect(db.usage().calls - before).toBe(1);
  });

  it("revoke in the key and its grant at once, and keep the first revocation", async () => {
    const { db } = await freshTable();
    const store = new ApiKeyStore(db);
    const { key, digest } = newKeyText();
    const made = await store.create(apiKey("ci", key, { scopes: ["write"] }), digest);
    const revoked = await store.revoke(made.id, "2026-11-28T06:00:00.000Z");
    expect(revoked?.revokedAt).toBe("2026-11-28T06:00:00.000Z");
    expect((await store.grantByDigest(digest))?.revokedAt).toBe("2026-11-28T06:00:00.000Z");
    expect((await store.revoke(made.id, "2026-11-28T07:00:00.000Z"))?.revokedAt).toBe("2026-11-28T06:00:00.000Z");
    expect(await store.revoke("key_01ARZ3NDEKTSV4RRFFQ69G5FAV", "2026-11-28T07:00:00.000Z")).toBeUndefined();
  });

  it("are checked from a cache bounded in time, forgotten at once where revoked, and refused once expired", async () => {
    const { db } = await freshTable();
    const store = new ApiKeyStore(db);
    const clock = testClock(Date.parse("2026-11-28T06:00:00.000Z"));
    const here = new KeyCheck(store, clock);
    const elsewhere = new KeyCheck(store, clock);
    const { key, digest } = newKeyText();
    const made = await store.create(apiKey("fleet", key, { expiresAt: "2026-11-29T06:00:00.000Z" }), digest);
    expect(await here.grantOf(key)).toMatchObject({ id: made.id });
    expect(await elsewhere.grantOf(key)).toMatchObject({ id: made.id });
    const warm = db.usage().calls;
    expect(await here.grantOf(key)).toMatchObject({ id: made.id });
    expect(db.usage().calls).toBe(warm);

    await store.revoke(made.id, clock().toISOString());
    here.forget(made.id);
    expect(await here.grantOf(key)).toBeUndefined();
    // Another instance holds its grant until the bound, then reads the revocation.
    expect(await elsewhere.grantOf(key)).toMatchObject({ id: made.id });
    clock.advance(GRANT_CACHE_MS);
    expect(await elsewhere.grantOf(key)).toBeUndefined();

    const second = newKeyText();
    await store.create(apiKey("short", second.key, { expiresAt: "2026-11-28T06:01:00.000Z" }), second.digest);
    expect(await here.grantOf(second.key)).toBeDefined();
    clock.advance(60_000);
    expect(await here.grantOf(second.key)).toBeUndefined();
    expect(await here.grantOf(newKeyText().key)).toBeUndefined();
  });
});
