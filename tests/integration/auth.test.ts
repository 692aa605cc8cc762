import { beforeAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp } from "../../core/src/index.js";
import { type TestApp, testApp } from "../helpers/app.js";
import { TEST_API_KEY, testConfig } from "../helpers/db.js";

const FAILURE = { error: "Missing or malformed Authorization header" };

describe("bearer auth on /api/*", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it.each([
    ["no header", undefined],
    ["Basic scheme", `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString("base64")}`],
    ["Bearer with empty token", "Bearer "],
    ["Bearer alone", "Bearer"],
    ["wrong key of the right length", `Bearer kaizen_${"cd".repeat(32)}`],
    ["wrong length", `Bearer ${TEST_API_KEY}0`],
    ["right key with a second token", `Bearer ${TEST_API_KEY} extra`],
    ["right key without the scheme", TEST_API_KEY],
  ])("answers 401 with the one body for %s", async (_case, header) => {
    const headers: Record<string, string> = header === undefined ? {} : { Authorization: header };
    const response = await t.app.request("/api/issues", { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual(FAILURE);
  });

  it("lets the right key through, whatever the scheme's case", async () => {
    for (const scheme of ["Bearer", "bearer"]) {
      const response = await t.app.request("/api/issues", { headers: { Authorization: `${scheme} ${TEST_API_KEY}` } });
      expect(response.status).toBe(200);
    }
  });

  it("checks the key before reading a body", async () => {
    const response = await t.app.request("/api/issues", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(401);
  });

  it("leaves / and /health public", async () => {
    expect((await t.app.request("/")).status).toBe(200);
    expect((await t.app.request("/health")).status).toBe(200);
  });

  it("fails closed with 500 when no key is configured, even for a well-formed token", async () => {
    const app = createApp(ALL_FAMILIES, {
      config: { ...testConfig({ tableName: t.tableName, endpoint: t.endpoint }), serviceApiKey: undefined },
      db: t.db,
    });
    for (const headers of [{}, { Authorization: `Bearer ${TEST_API_KEY}` }] as Record<string, string>[]) {
      const response = await app.request("/api/issues", { headers });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "SERVICE_API_KEY is not configured" });
    }
    expect((await app.request("/")).status).toBe(200);
  });

  it("accepts the previous root key beside the current one during a rotation, and neither once it is dropped", async () => {
    const previous = `kaizen_${"9e".repeat(32)}`;
    const config = testConfig({ tableName: t.tableName, endpoint: t.endpoint });
    const rotating = createApp(ALL_FAMILIES, { config: { ...config, serviceApiKeyPrevious: previous }, db: t.db });
    const rotated = createApp(ALL_FAMILIES, { config, db: t.db });
    const as = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
    expect((await rotating.request("/api/issues", as(TEST_API_KEY))).status).toBe(200);
    expect((await rotating.request("/api/issues", as(previous))).status).toBe(200);
    const wrong = await rotating.request("/api/issues", as(`kaizen_${"ef".repeat(32)}`));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(FAILURE);
    expect((await rotated.request("/api/issues", as(previous))).status).toBe(401);
    // A previous key alone is no key: the service still fails closed.
    const unset = createApp(ALL_FAMILIES, {
      config: { ...config, serviceApiKey: undefined, serviceApiKeyPrevious: previous },
      db: t.db,
    });
    expect((await unset.request("/api/issues", as(previous))).status).toBe(500);
  });
});
