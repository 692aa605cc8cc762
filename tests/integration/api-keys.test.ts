/**
 * API keys on DynamoDB Local (core/src/access): a key and its digest written together, never the
 * key's text; a grant found by the digest in one read; revocation in both items; and the check's
 * cache, bounded and forgotten at once on the instance that revoked.
 */

import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { type ApiKey, ApiKeyStore } from "../../core/src/access/api-key-store.js";
import { GRANT_CACHE_MS, KeyCheck } from "../../core/src/access/key-check.js";
import { KeyService } from "../../core/src/access/key-service.js";
import { apiKeyDigestKey, apiKeyKey, KEY_PREFIX_LENGTH, newApiKeyId, newKeyText } from "../../core/src/access/keys.js";
import { createKeyBody } from "../../core/src/access/schemas.js";
import { ConditionFailedError } from "../../core/src/db/db.js";
import { ValidationError } from "../../core/src/errors.js";
import { parseWith } from "../../core/src/http/validation.js";
import { createApp } from "../../core/src/index.js";
import { allRoutes, routeKey } from "../../core/src/routes.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { freshTable, TEST_API_KEY, testConfig } from "../helpers/db.js";

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
    const { apiKey: made } = await store.create(apiKey("wall screen", key), digest);
    const items = JSON.stringify(await db.queryPartition("$kaizen#apikey_1"));
    expect(items).not.toContain(key);
    expect(items).toContain(made.prefix);
    expect(await store.all()).toEqual([made]);
    const before = db.usage().calls;
    expect(await store.useByDigest(digest, "2026-11-28T07:00:00.000Z")).toMatchObject({
      id: made.id,
      name: "wall screen",
      scopes: ["read"],
    });
    expect(db.usage().calls - before).toBe(1);
  });

  it("revoke in the key and its grant at once, and keep the first revocation", async () => {
    const { db } = await freshTable();
    const store = new ApiKeyStore(db);
    const { key, digest } = newKeyText();
    const made = await store.create(apiKey("ci", key, { scopes: ["write"] }), digest);
    expect(made.version).toBe(1);
    const revoked = await store.revoke(made, "2026-11-28T06:00:00.000Z");
    expect(revoked).toMatchObject({ apiKey: { revokedAt: "2026-11-28T06:00:00.000Z" }, version: 2 });
    expect((await store.useByDigest(digest, "2026-11-28T07:00:00.000Z"))?.revokedAt).toBe("2026-11-28T06:00:00.000Z");
    expect(await store.get(made.apiKey.id)).toMatchObject({
      apiKey: { revokedAt: "2026-11-28T06:00:00.000Z" },
      version: 2,
    });
    // Revoked once: a second revocation read before the first is refused by its condition.
    await expect(store.revoke(made, "2026-11-28T07:00:00.000Z")).rejects.toBeInstanceOf(ConditionFailedError);
    expect((await store.get(made.apiKey.id))?.apiKey.revokedAt).toBe("2026-11-28T06:00:00.000Z");
    expect(await store.get("key_01ARZ3NDEKTSV4RRFFQ69G5FAV")).toBeUndefined();
  });

  it("are checked from a cache bounded in time, forgotten at once where revoked, and refused once expired", async () => {
    const { db } = await freshTable();
    const store = new ApiKeyStore(db);
    const clock = testClock(Date.parse("2026-11-28T06:00:00.000Z"));
    const here = new KeyCheck(store, clock);
    const elsewhere = new KeyCheck(store, clock);
    const { key, digest } = newKeyText();
    const { apiKey: made } = await store.create(
      apiKey("fleet", key, { expiresAt: "2026-11-29T06:00:00.000Z" }),
      digest,
    );
    expect(await here.grantOf(key)).toMatchObject({ id: made.id });
    expect(await elsewhere.grantOf(key)).toMatchObject({ id: made.id });
    const warm = db.usage().calls;
    expect(await here.grantOf(key)).toMatchObject({ id: made.id });
    expect(db.usage().calls).toBe(warm);

    const stored = await store.get(made.id);
    if (!stored) throw new Error("the key is not stored");
    await store.revoke(stored, clock().toISOString());
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

describe("the key service", () => {
  it("makes a key shown once, refuses a past expiry or an unknown project, and revokes at once here", async () => {
    const { db } = await freshTable();
    const store = new ApiKeyStore(db);
    const clock = testClock(Date.parse("2026-11-28T06:00:00.000Z"));
    const check = new KeyCheck(store, clock);
    const known = "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const service = new KeyService(store, check, async (ids) => ids.filter((id) => id !== known), clock);
    const { apiKey: made, version } = await service.create({
      name: "fleet",
      scopes: ["dispatch"],
      projectIds: [known],
    });
    expect(version).toBe(1);
    expect(made.key).toMatch(/^kaizen_[0-9a-f]{64}$/);
    expect(made.prefix).toBe(made.key.slice(0, 12));
    expect((await service.get(made.id)).apiKey).not.toHaveProperty("key");
    expect((await service.list()).map(({ id }) => id)).toEqual([made.id]);
    expect(await check.grantOf(made.key)).toMatchObject({ id: made.id, scopes: ["dispatch"], projectIds: [known] });

    await expect(
      service.create({ name: "old", scopes: ["read"], expiresAt: "2026-11-28T05:59:59.000Z" }),
    ).rejects.toThrow("expiresAt: must be in the future");
    await expect(
      service.create({ name: "x", scopes: ["read"], projectIds: ["prj_01ARZ3NDEKTSV4RRFFQ69G5FAW"] }),
    ).rejects.toThrow("projectIds: no project prj_01ARZ3NDEKTSV4RRFFQ69G5FAW");

    expect((await service.revoke(made.id)).apiKey.revokedAt).toBe(clock().toISOString());
    expect(await check.grantOf(made.key)).toBeUndefined();
    await expect(service.revoke("key_nope")).rejects.toThrow("Key key_nope not found");
  });

  it("takes a name, a set of scopes, up to 20 projects and an expiry, and names what is wrong", () => {
    const refused = (body: unknown) => {
      try {
        parseWith(createKeyBody(), body, "body");
      } catch (error) {
        if (error instanceof ValidationError) return error.message;
        throw error;
      }
      return "accepted";
    };
    expect(refused({ name: "ok", scopes: ["read", "write"] })).toBe("accepted");
    expect(refused({ name: "", scopes: ["read"] })).toBe("name: must be 1..100 characters");
    expect(refused({ name: "x", scopes: [] })).toContain(
      "scopes: must name at least one of read, write, dispatch, admin",
    );
    expect(refused({ name: "x", scopes: ["read", "read"] })).toContain("must name each scope at most once");
    expect(refused({ name: "x", scopes: ["root"] })).toContain("scopes");
    const many = Array.from({ length: 21 }, (_, i) => `prj_01ARZ3NDEKTSV4RRFFQ69G5F${String(i).padStart(2, "0")}`);
    expect(refused({ name: "x", scopes: ["read"], projectIds: many })).toContain("at most 20 projects");
    expect(refused({ name: "x", scopes: ["read"], expiresAt: "tomorrow" })).toContain("expiresAt");
    expect(refused({ name: "x", scopes: ["read"], key: "kaizen_mine" })).toContain("key");
  });
});

describe("/api/keys", () => {
  it("makes a key shown once with no-store, lists and reads it without its text, and revokes it", async () => {
    const t = await testApp();
    const made = await t.app.request("/api/keys", jsonPost({ name: "wall screen", scopes: ["read"] }));
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const { data } = (await made.json()) as { data: { id: string; key: string; prefix: string } };
    expect(made.headers.get("location")).toBe(`/api/keys/${data.id}`);
    expect(data.key).toMatch(/^kaizen_[0-9a-f]{64}$/);
    const listed = await t.app.request("/api/keys", { headers: AUTH });
    const text = await listed.text();
    expect(text).not.toContain(data.key);
    expect(JSON.parse(text)).toMatchObject({ data: [{ id: data.id, prefix: data.prefix, revokedAt: null }], total: 1 });
    const read = await dataOf<Record<string, unknown>>(t.app.request(`/api/keys/${data.id}`, { headers: AUTH }));
    expect(read).not.toHaveProperty("key");
    const revoked = await dataOf<{ revokedAt: string | null }>(
      t.app.request(`/api/keys/${data.id}`, { method: "DELETE", headers: AUTH }),
    );
    expect(revoked.revokedAt).toEqual(expect.any(String));
    const missing = await t.app.request("/api/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV", { headers: AUTH });
    expect(missing.status).toBe(404);
    const bad = await t.app.request("/api/keys", jsonPost({ name: "x", scopes: ["root"] }));
    expect(bad.status).toBe(400);
  });

  it("keep an expiry as the instant in UTC with milliseconds, whatever offset it is sent with", async () => {
    const t = await testApp();
    for (const [sent, kept] of [
      ["2030-01-01T00:00:00Z", "2030-01-01T00:00:00.000Z"],
      ["2030-01-01T01:30:00.25+01:30", "2030-01-01T00:00:00.250Z"],
    ]) {
      const made = await dataOf<{ id: string; expiresAt: string }>(
        t.app.request("/api/keys", jsonPost({ name: "expiring", scopes: ["read"], expiresAt: sent })),
        201,
      );
      expect(made.expiresAt, sent).toBe(kept);
      expect(
        (await dataOf<{ expiresAt: string }>(t.app.request(`/api/keys/${made.id}`, { headers: AUTH }))).expiresAt,
      ).toBe(kept);
    }
    const refused = await t.app.request(
      "/api/keys",
      jsonPost({ name: "x", scopes: ["read"], expiresAt: "2030-01-01" }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe("expiresAt: must be an ISO-8601 timestamp");
  });

  it("read an expiry stored as it was sent, before expiries were normalised, in UTC with milliseconds", async () => {
    const t = await testApp();
    const made = await dataOf<{ id: string }>(
      t.app.request("/api/keys", jsonPost({ name: "old", scopes: ["read"], expiresAt: "2030-01-01T00:00:00Z" })),
      201,
    );
    await t.db.update({
      Key: apiKeyKey(made.id),
      UpdateExpression: "SET #expiresAt = :sent",
      ExpressionAttributeNames: { "#expiresAt": "expiresAt" },
      ExpressionAttributeValues: { ":sent": "2030-01-01T00:00:00Z" },
    });
    const read = await dataOf<{ expiresAt: string }>(t.app.request(`/api/keys/${made.id}`, { headers: AUTH }));
    expect(read.expiresAt).toBe("2030-01-01T00:00:00.000Z");
    const listed = await dataOf<{ id: string; expiresAt: string }[]>(t.app.request("/api/keys", { headers: AUTH }));
    expect(listed.find(({ id }) => id === made.id)?.expiresAt).toBe("2030-01-01T00:00:00.000Z");
  });
});

describe("DELETE /api/keys/:id with If-Match", () => {
  const STALE = { error: "Resource has changed (ETag mismatch)" };
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  const revoke = (t: TestApp, id: string, ifMatch?: string) =>
    t.app.request(`/api/keys/${id}`, {
      method: "DELETE",
      headers: { ...AUTH, ...(ifMatch ? { "If-Match": ifMatch } : {}) },
    });
  const read = (t: TestApp, id: string) => t.app.request(`/api/keys/${id}`, { headers: AUTH });

  it("refuses a stale or weak tag with 412 and revokes nothing, revokes at the right one, and without one", async () => {
    const t = await testApp();
    const made = await t.app.request("/api/keys", jsonPost({ name: "wall", scopes: ["read"] }));
    expect(made.headers.get("etag")).toBe('"1"');
    const { data: key } = (await made.json()) as { data: { id: string; key: string } };
    expect((await read(t, key.id)).headers.get("etag")).toBe('"1"');

    for (const tag of ['"2"', 'W/"1"', "1"]) {
      const stale = await revoke(t, key.id, tag);
      expect(stale.status, tag).toBe(412);
      expect(await stale.json()).toEqual(STALE);
    }
    const untouched = await read(t, key.id);
    expect(untouched.headers.get("etag")).toBe('"1"');
    expect(((await untouched.json()) as { data: { revokedAt: string | null } }).data.revokedAt).toBeNull();
    expect((await t.app.request("/api/issues", { headers: as(key.key) })).status).toBe(200);

    const revoked = await revoke(t, key.id, '"1"');
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get("etag")).toBe('"2"');
    const { revokedAt } = ((await revoked.json()) as { data: { revokedAt: string } }).data;
    expect(revokedAt).toEqual(expect.any(String));
    expect((await t.app.request("/api/issues", { headers: as(key.key) })).status).toBe(401);
    // It has moved on: the tag it was revoked at is stale now; the one it carries keeps the first revocation.
    expect((await revoke(t, key.id, '"1"')).status).toBe(412);
    const again = await revoke(t, key.id, '"2"');
    expect(again.headers.get("etag")).toBe('"2"');
    expect(((await again.json()) as { data: { revokedAt: string } }).data.revokedAt).toBe(revokedAt);

    const other = await dataOf<{ id: string }>(
      t.app.request("/api/keys", jsonPost({ name: "ci", scopes: ["read"] })),
      201,
    );
    const plain = await revoke(t, other.id);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("etag")).toBe('"2"');
  });

  it("reads a key stored before keys had a version as 1, or 2 once revoked, and revokes it at 1", async () => {
    const t = await testApp();
    // The items as the release before versions wrote them: the key (no `version`) and its digest item.
    const store = async (name: string, revokedAt: string | null) => {
      const { key, digest } = newKeyText();
      const stored = apiKey(name, key, { revokedAt });
      const grant = { id: stored.id, name, scopes: stored.scopes, projectIds: null, expiresAt: null, revokedAt };
      await t.db.transactWrite([
        { Put: { Item: { ...apiKeyKey(stored.id), entity: "apikey", digest, ...stored } } },
        { Put: { Item: { ...apiKeyDigestKey(digest), ...grant } } },
      ]);
      return { id: stored.id, key };
    };
    const live = await store("legacy", null);
    const gone = await store("legacy-revoked", "2026-11-01T00:00:00.000Z");

    expect((await read(t, live.id)).headers.get("etag")).toBe('"1"');
    expect((await read(t, gone.id)).headers.get("etag")).toBe('"2"');
    const listed = await dataOf<{ id: string }[]>(t.app.request("/api/keys", { headers: AUTH }));
    expect(listed.map(({ id }) => id).sort()).toEqual([live.id, gone.id].sort());
    expect((await t.app.request("/api/issues", { headers: as(live.key) })).status).toBe(200);

    expect((await revoke(t, gone.id, '"1"')).status).toBe(412);
    expect((await revoke(t, live.id, '"2"')).status).toBe(412);
    const revoked = await revoke(t, live.id, '"1"');
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get("etag")).toBe('"2"');
    expect((await read(t, live.id)).headers.get("etag")).toBe('"2"');
    expect((await t.app.request("/api/issues", { headers: as(live.key) })).status).toBe(401);
  });
});

describe("keys of their own at the door", () => {
  it("act within their scopes, name the scope they lack, and are refused at once once revoked here", async () => {
    const t = await testApp();
    const make = async (name: string, scopes: string[]) =>
      await dataOf<{ id: string; key: string }>(t.app.request("/api/keys", jsonPost({ name, scopes })), 201);
    const as = (key: string) => ({ Authorization: `Bearer ${key}` });
    const wall = await make("wall", ["read"]);
    const fleet = await make("fleet", ["dispatch"]);
    const ops = await make("ops", ["admin"]);
    await make("spare", ["read"]);
    expect((await t.app.request("/api/issues", { headers: as(wall.key) })).status).toBe(200);
    const refused = await t.app.request("/api/issues", jsonPost({ title: "x", type: "task" }, as(wall.key)));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Key wall lacks the write scope" });
    expect((await t.app.request("/api/keys", { headers: as(wall.key) })).status).toBe(403);
    const fleetReads = await t.app.request("/api/issues", { headers: as(fleet.key) });
    expect(await fleetReads.json()).toEqual({ error: "Key fleet lacks the read scope" });
    expect((await t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" }, as(fleet.key)))).status).toBe(204);
    const keys = await dataOf<{ name: string; lastUsedAt: string | null }[]>(
      t.app.request("/api/keys", { headers: as(ops.key) }),
    );
    // Each check that reads a key marks it used: the keys that knocked say when, the others say null.
    expect(Object.fromEntries(keys.map(({ name, lastUsedAt }) => [name, lastUsedAt !== null]))).toEqual({
      wall: true,
      fleet: true,
      ops: true,
      spare: false,
    });

    await dataOf(t.app.request(`/api/keys/${wall.id}`, { method: "DELETE", headers: AUTH }));
    const gone = await t.app.request("/api/issues", { headers: as(wall.key) });
    expect(gone.status).toBe(401);
    expect(await gone.json()).toEqual({ error: "Missing or malformed Authorization header" });
  });

  it("let a dispatch key work on the dispatches it claimed and on no other, as an admin key may", async () => {
    const t = await testApp();
    const make = async (name: string, scopes: string[]) =>
      await dataOf<{ id: string; key: string }>(t.app.request("/api/keys", jsonPost({ name, scopes })), 201);
    const as = (key: string) => ({ Authorization: `Bearer ${key}` });
    const [fleetA, fleetB, ops] = [
      await make("fleet-a", ["dispatch"]),
      await make("fleet-b", ["dispatch"]),
      await make("ops", ["admin"]),
    ];
    for (const title of ["one", "two"]) {
      await dataOf(t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" })), 201);
    }
    const mine = await dataOf<{ dispatch: { id: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" }, as(fleetA.key))),
      201,
    );
    const beat = (key: string, id: string) =>
      t.app.request(`/api/dispatch/${id}/heartbeat`, { method: "POST", headers: as(key) });
    expect((await beat(fleetA.key, mine.dispatch.id)).status).toBe(200);
    const other = await beat(fleetB.key, mine.dispatch.id);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ error: `Key fleet-b did not claim dispatch ${mine.dispatch.id}` });
    const byRoot = await dataOf<{ dispatch: { id: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "r" })),
      201,
    );
    expect((await beat(fleetA.key, byRoot.dispatch.id)).status).toBe(403);
    expect((await beat(ops.key, byRoot.dispatch.id)).status).toBe(200);
    const done = await t.app.request(
      `/api/dispatch/${mine.dispatch.id}/complete`,
      jsonPost({ result: "done", summary: "Done" }, as(fleetA.key)),
    );
    expect(done.status).toBe(200);
  });
});

describe("a dispatch key on the dispatches it claimed", () => {
  type Claimed = {
    dispatch: { id: string };
    issue: { id: string; number: number };
    prompt: { id: string };
  };
  const COMMENT = { body: "On it", authorName: "agent", authorType: "agent" };
  const REVIEW = { clarity: 4, completeness: 4, relevance: 4, authorType: "agent" };
  /** How to call each route a dispatch token takes on a claim's own dispatch, issue or prompt. */
  const CALLS: Record<string, (claimed: Claimed) => [path: string, body?: unknown]> = {
    "GET /api/dispatch/:id": ({ dispatch }) => [`/api/dispatch/${dispatch.id}`],
    "POST /api/dispatch/:id/heartbeat": ({ dispatch }) => [`/api/dispatch/${dispatch.id}/heartbeat`, {}],
    "POST /api/dispatch/:id/activities": ({ dispatch }) => [
      `/api/dispatch/${dispatch.id}/activities`,
      { type: "thought", body: "Reading the code" },
    ],
    "GET /api/dispatch/:id/activities": ({ dispatch }) => [`/api/dispatch/${dispatch.id}/activities`],
    "GET /api/issues/:id": ({ issue }) => [`/api/issues/KZN-${issue.number}`],
    "POST /api/issues/:id/comments": ({ issue }) => [`/api/issues/${issue.id}/comments`, COMMENT],
    "GET /api/prompts/:id": ({ prompt }) => [`/api/prompts/${prompt.id}`],
    "POST /api/prompts/:id/reviews": ({ prompt }) => [`/api/prompts/${prompt.id}/reviews`, REVIEW],
    "POST /api/dispatch/:id/complete": ({ dispatch }) => [
      `/api/dispatch/${dispatch.id}/complete`,
      { result: "done", summary: "Done" },
    ],
    "POST /api/dispatch/:id/release": ({ dispatch }) => [`/api/dispatch/${dispatch.id}/release`, {}],
  };
  const ENDINGS = ["POST /api/dispatch/:id/complete", "POST /api/dispatch/:id/release"];

  it("do what their tokens do there, every route that takes a token, and nothing more", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const make = async (name: string) =>
      await dataOf<{ key: string }>(t.app.request("/api/keys", jsonPost({ name, scopes: ["dispatch"] })), 201);
    const [fleetA, fleetB] = [await make("fleet-a"), await make("fleet-b")];
    const as = (key: string) => ({ Authorization: `Bearer ${key}` });
    for (const title of ["one", "two", "three", "four", "five"]) {
      await dataOf(t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" })), 201);
    }
    const idle = await dataOf<{ id: string }>(
      t.app.request("/api/issues", jsonPost({ title: "idle", type: "task" })),
      201,
    );
    const claim = (key: string, leaseSeconds = 7200) =>
      dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "a", leaseSeconds }, as(key))), 201);
    const [mine, spare, stopped, lapsed] = [
      await claim(fleetA.key),
      await claim(fleetA.key),
      await claim(fleetA.key),
      await claim(fleetA.key, 60),
    ];
    const theirs = await claim(fleetB.key);
    const send = (key: string, route: string, claimed: Claimed) => {
      const call = CALLS[route];
      if (!call) throw new Error(`No call for ${route}`);
      const [path, body] = call(claimed);
      return t.app.request(path, body === undefined ? { headers: as(key) } : jsonPost(body, as(key)));
    };
    const statusOf = async (key: string, route: string, claimed: Claimed) => (await send(key, route, claimed)).status;

    // Exactly the routes the route table lets a token take.
    const tokenRoutes = allRoutes()
      .filter((route) => route.token !== undefined)
      .map(routeKey);
    expect(Object.keys(CALLS).sort()).toEqual(tokenRoutes.sort());
    for (const route of tokenRoutes.filter((key) => !ENDINGS.includes(key))) {
      expect(await statusOf(fleetA.key, route, mine), route).toBeLessThan(300);
      expect(await statusOf(fleetA.key, route, theirs), route).toBe(403);
    }
    const other = await send(fleetA.key, "GET /api/issues/:id", theirs);
    expect(await other.json()).toEqual({ error: "Key fleet-a lacks the read scope" });

    // An issue no dispatch works, and a person's routes and lists on its own dispatch: its scope alone.
    const refusals: [string, RequestInit][] = [
      [`/api/issues/${idle.id}`, { headers: as(fleetA.key) }],
      [`/api/issues/${idle.id}/comments`, jsonPost(COMMENT, as(fleetA.key))],
      [`/api/dispatch/${mine.dispatch.id}/messages`, jsonPost({ body: "Hello" }, as(fleetA.key))],
      [`/api/dispatch/${mine.dispatch.id}/approve`, jsonPost({}, as(fleetA.key))],
      [`/api/dispatch/${mine.dispatch.id}/reject`, jsonPost({ feedback: "No" }, as(fleetA.key))],
      [`/api/dispatch/${mine.dispatch.id}/stop`, jsonPost({ reason: "Enough" }, as(fleetA.key))],
      ["/api/dispatch", { headers: as(fleetA.key) }],
      [`/api/issues/${mine.issue.id}/comments`, { headers: as(fleetA.key) }],
      [`/api/prompts/${mine.prompt.id}/reviews`, { headers: as(fleetA.key) }],
      [`/api/issues/${mine.issue.id}`, { ...jsonPost({ priority: 1 }, as(fleetA.key)), method: "PATCH" }],
    ];
    for (const [path, init] of refusals) {
      const answer = await t.app.request(path, init);
      expect(answer.status, `${init.method ?? "GET"} ${path}`).toBe(403);
      expect(await answer.json()).toEqual({
        error: expect.stringMatching(/^Key fleet-a lacks the (read|write) scope$/),
      });
    }

    // A stopped dispatch's token still reads its dispatch and activities, and nothing else.
    await dataOf(t.app.request(`/api/dispatch/${stopped.dispatch.id}/stop`, jsonPost({ reason: "Wrong way" })));
    const afterStop = async (route: string) => statusOf(fleetA.key, route, stopped);
    expect(await afterStop("GET /api/dispatch/:id")).toBe(200);
    expect(await afterStop("GET /api/dispatch/:id/activities")).toBe(200);
    for (const route of ["GET /api/issues/:id", "POST /api/issues/:id/comments", "GET /api/prompts/:id"]) {
      expect(await afterStop(route), route).toBe(403);
    }

    // A lease that ran out ends what the token may do at once, before anything marks it expired.
    clock.advance(61_000);
    for (const route of ["GET /api/dispatch/:id", "GET /api/issues/:id", "GET /api/prompts/:id"]) {
      expect(await statusOf(fleetA.key, route, lapsed), route).toBe(403);
    }

    // The steps that end it, and after its end nothing its token did.
    expect(await statusOf(fleetA.key, "POST /api/dispatch/:id/complete", mine)).toBe(200);
    expect(await statusOf(fleetA.key, "POST /api/dispatch/:id/release", spare)).toBe(200);
    for (const route of ["GET /api/dispatch/:id", "GET /api/issues/:id", "POST /api/issues/:id/comments"]) {
      expect(await statusOf(fleetA.key, route, mine), route).toBe(403);
    }
  });
});

describe("keys narrowed to projects", () => {
  async function twoProjects() {
    const t = await testApp();
    const project = async (name: string) =>
      (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name })), 201)).id;
    const [a, b] = [await project("alpha"), await project("beta")];
    const issue = async (title: string, projectId: string | null, priority = 3) =>
      await dataOf<{ id: string; number: number }>(
        t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo", priority, projectId })),
        201,
      );
    // Beta's and the projectless issues are more urgent: a claim that ignored the narrowing would take them first.
    const inA = await issue("in alpha", a);
    const inB = await issue("in beta", b, 1);
    const loose = await issue("in no project", null, 1);
    const make = async (name: string, scopes: string[], projectIds: string[]) =>
      await dataOf<{ id: string; key: string }>(
        t.app.request("/api/keys", jsonPost({ name, scopes, projectIds })),
        201,
      );
    return { t, a, b, inA, inB, loose, make };
  }
  const as = (key: string) => ({ Authorization: `Bearer ${key}` });
  const titles = async (response: Response | Promise<Response>) =>
    (await dataOf<{ title: string }[]>(response)).map(({ title }) => title).sort();

  it("list only their projects' issues and projects, and answer 404 for anything outside", async () => {
    const { t, a, b, inA, inB, make } = await twoProjects();
    const team = await make("team-a", ["write"], [a]);
    const both = await make("team-ab", ["read"], [a, b]);
    expect(await titles(t.app.request("/api/issues", { headers: as(team.key) }))).toEqual(["in alpha"]);
    expect(await titles(t.app.request("/api/issues", { headers: as(both.key) }))).toEqual(["in alpha", "in beta"]);
    const listed = await t.app.request("/api/issues", { headers: as(team.key) });
    expect(((await listed.json()) as { total: number }).total).toBe(1);
    const filtered = await t.app.request(`/api/issues?projectId=${b}`, { headers: as(team.key) });
    expect(filtered.status).toBe(404);
    expect(await filtered.json()).toEqual({ error: `Project ${b} not found` });

    for (const ref of [inB.id, `KZN-${inB.number}`]) {
      const outside = await t.app.request(`/api/issues/${ref}`, { headers: as(team.key) });
      expect(outside.status).toBe(404);
      expect(await outside.json()).toEqual({ error: `Issue ${ref} not found` });
    }
    expect((await t.app.request(`/api/issues/${inA.id}`, { headers: as(team.key) })).status).toBe(200);
    expect((await t.app.request(`/api/issues/${inB.id}/comments`, { headers: as(team.key) })).status).toBe(404);
    const relate = jsonPost({ type: "related", relatedIssueId: inB.id }, as(team.key));
    expect((await t.app.request(`/api/issues/${inA.id}/relations`, relate)).status).toBe(404);

    const projects = await dataOf<{ id: string }[]>(t.app.request("/api/projects", { headers: as(team.key) }));
    expect(projects.map(({ id }) => id)).toEqual([a]);
    expect((await t.app.request(`/api/projects/${b}`, { headers: as(team.key) })).status).toBe(404);
    expect((await t.app.request("/api/templates", { headers: as(team.key) })).status).toBe(200);
    const wide = await t.app.request("/api/dashboard/stats", { headers: as(team.key) });
    expect(wide.status).toBe(403);
    expect(await wide.json()).toEqual({ error: "Key team-a is limited to projects; this route spans every project" });
  });

  it("create and move issues and signals only into their projects", async () => {
    const { t, a, b, inA, make } = await twoProjects();
    const team = await make("team-a", ["write"], [a]);
    const create = (body: Record<string, unknown>) =>
      t.app.request("/api/issues", jsonPost({ title: "new", type: "task", ...body }, as(team.key)));
    const none = await create({});
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: "projectId: is required for a key limited to projects" });
    expect((await create({ projectId: b })).status).toBe(404);
    expect((await create({ projectId: a })).status).toBe(201);
    const move = await t.app.request(`/api/issues/${inA.id}`, {
      method: "PATCH",
      headers: { ...as(team.key), "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: b }),
    });
    expect(move.status).toBe(404);

    const signal = (projectId: string, key?: string) =>
      t.app.request(
        "/api/signals",
        jsonPost(
          { source: "ci", type: "build.failed", title: `broke in ${projectId}`, severity: "high", projectId },
          key ? as(key) : {},
        ),
      );
    expect((await signal(b, team.key)).status).toBe(404);
    expect((await signal(a, team.key)).status).toBeLessThan(300);
    const byRoot = await signal(b);
    expect(byRoot.status).toBe(201);
    const outside = ((await byRoot.json()) as { data: { signal: { id: string } } }).data;
    const signals = await dataOf<{ title: string }[]>(t.app.request("/api/signals", { headers: as(team.key) }));
    expect(signals.map(({ title }) => title)).toEqual([`broke in ${a}`]);
    expect((await t.app.request(`/api/signals/${outside.signal.id}`, { headers: as(team.key) })).status).toBe(404);
  });

  it("claim, preview and list only their projects' work, passing over more urgent issues elsewhere", async () => {
    const { t, a, b, inA, inB, loose, make } = await twoProjects();
    const fleet = await make("fleet-a", ["dispatch"], [a]);
    const wall = await make("wall-a", ["read"], [a]);
    const queue = await dataOf<{ issue: { id: string } }[]>(
      t.app.request("/api/dispatch/queue", { headers: as(wall.key) }),
    );
    expect(queue.map(({ issue }) => issue.id)).toEqual([inA.id]);
    expect((await t.app.request(`/api/dispatch/queue?projectId=${b}`, { headers: as(wall.key) })).status).toBe(404);

    const taken = await dataOf<{ dispatch: { id: string; issueId: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" }, as(fleet.key))),
      201,
    );
    expect(taken.dispatch.issueId).toBe(inA.id);
    expect((await t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" }, as(fleet.key)))).status).toBe(204);
    expect((await t.app.request(`/api/dispatch/next?agent=a&projectId=${b}`, { headers: as(fleet.key) })).status).toBe(
      404,
    );
    const both = await make("fleet-ab", ["dispatch"], [a, b]);
    const inBoth = await dataOf<{ dispatch: { issueId: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "b" }, as(both.key))),
      201,
    );
    expect(inBoth.dispatch.issueId).toBe(inB.id);
    expect((await t.app.request("/api/dispatch/claim", jsonPost({ agent: "b" }, as(both.key)))).status).toBe(204);
    const elsewhere = await dataOf<{ dispatch: { id: string; issueId: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "r" })),
      201,
    );
    expect(elsewhere.dispatch.issueId).toBe(loose.id);

    const listed = await dataOf<{ id: string }[]>(t.app.request("/api/dispatch", { headers: as(wall.key) }));
    expect(listed.map(({ id }) => id)).toEqual([taken.dispatch.id]);
    expect((await t.app.request(`/api/dispatch/${elsewhere.dispatch.id}`, { headers: as(wall.key) })).status).toBe(404);
    expect((await t.app.request(`/api/dispatch/${taken.dispatch.id}`, { headers: as(wall.key) })).status).toBe(200);
  });
});

describe("revocation across instances", () => {
  it("is refused at once on the instance that revoked, and on another within the 30 s its check is kept", async () => {
    const t = await testApp();
    const clock = testClock(Date.parse("2026-11-28T08:00:00.000Z"));
    const instance = () =>
      createApp(ALL_FAMILIES, {
        config: testConfig({ tableName: t.tableName, endpoint: t.endpoint }),
        db: t.db,
        clock,
      });
    const [here, there] = [instance(), instance()];
    const made = await dataOf<{ id: string; key: string }>(
      here.request("/api/keys", jsonPost({ name: "leaked", scopes: ["read"] })),
      201,
    );
    const read = (app: typeof here) => app.request("/api/issues", { headers: { Authorization: `Bearer ${made.key}` } });
    expect((await read(here)).status).toBe(200);
    expect((await read(there)).status).toBe(200);

    await dataOf(here.request(`/api/keys/${made.id}`, { method: "DELETE", headers: AUTH }));
    expect((await read(here)).status).toBe(401);
    clock.advance(GRANT_CACHE_MS - 1);
    expect((await read(there)).status).toBe(200);
    clock.advance(1);
    expect((await read(there)).status).toBe(401);
    // A revoked key's refusals are in the audit log, with who it was not (no credential checked out).
    const refusals = await dataOf<{ status: number; actor: unknown }[]>(
      here.request("/api/audit?status=401", { headers: AUTH }),
    );
    expect(refusals.map(({ status, actor }) => ({ status, actor }))).toEqual([
      { status: 401, actor: null },
      { status: 401, actor: null },
    ]);
  });
});

describe("Idempotency-Key with keys of their own", () => {
  it("replays a key's own request, and is another request (409) for another key or the root key", async () => {
    const t = await testApp();
    const make = async (name: string) =>
      await dataOf<{ key: string }>(t.app.request("/api/keys", jsonPost({ name, scopes: ["write"] })), 201);
    const [one, two] = [await make("one"), await make("two")];
    const send = (key: string) =>
      t.app.request(
        "/api/issues",
        jsonPost({ title: "Once", type: "task" }, { Authorization: `Bearer ${key}`, "Idempotency-Key": "same" }),
      );
    const first = await send(one.key);
    expect(first.status).toBe(201);
    const again = await send(one.key);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    for (const other of [two.key, TEST_API_KEY]) {
      const answer = await send(other);
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({ error: "Idempotency-Key was used with a different request" });
    }
  });
});

describe("a narrowed key and ids that are no ids", () => {
  it("are answered as the handler answers an unknown id, never read (a 3,000-character id is no 500)", async () => {
    const t = await testApp();
    const project = await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "p" })), 201);
    const made = await dataOf<{ key: string }>(
      t.app.request("/api/keys", jsonPost({ name: "n", scopes: ["write", "dispatch"], projectIds: [project.id] })),
      201,
    );
    const as = { Authorization: `Bearer ${made.key}` };
    for (const path of ["/api/dispatch/", "/api/prompts/", "/api/issues/", "/api/signals/", "/api/relations/"]) {
      for (const id of ["a".repeat(3000), "dsp_lower", "KZN-0"]) {
        const answer = await t.app.request(`${path}${id}`, { headers: as });
        expect(answer.status, `${path}${id.slice(0, 10)}`).toBeLessThan(500);
      }
    }
    const complete = await t.app.request(
      `/api/dispatch/${"a".repeat(3000)}/complete`,
      jsonPost({ result: "done", summary: "x" }, as),
    );
    expect(complete.status).toBe(403);
    expect(((await complete.json()) as { error: string }).error).toMatch(/^Key n did not claim dispatch a+$/);
  });
});
