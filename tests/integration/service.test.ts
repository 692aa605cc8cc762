import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp, createDb } from "../../core/src/index.js";
import { databaseCheck } from "../../core/src/service/health.js";
import pkg from "../../package.json" with { type: "json" };
import { testApp } from "../helpers/app.js";
import { testConfig } from "../helpers/db.js";

describe("GET /", () => {
  it("describes the service, publicly", async () => {
    const { app } = await testApp();
    const response = await app.request("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({
      data: {
        name: "kaizen",
        version: pkg.version,
        description: pkg.description,
        docs: "/docs",
        openapi: "/api/openapi.json",
      },
    });
  });
});

describe("GET /health", () => {
  it("is ok when the table answers", async () => {
    const { app } = await testApp();
    const response = await app.request("/health");
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      status: "ok",
      version: pkg.version,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      checks: { database: "ok" },
    });
  });

  it("is 503 degraded, naming the failing check, when the database cannot be reached", async () => {
    const endpoint = "http://127.0.0.1:9";
    const app = createApp(ALL_FAMILIES, {
      config: testConfig({ tableName: "kaizen", endpoint }),
      db: createDb({ tableName: "kaizen", region: "us-east-1", endpoint }),
    });
    const response = await app.request("/health");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toMatchObject({ status: "degraded", checks: { database: "unreachable" } });
  });

  it("is 503 when the table does not exist", async () => {
    const { db, endpoint } = await testApp();
    const missing = createDb({ tableName: "no_such_table", region: "us-east-1", endpoint });
    const app = createApp(ALL_FAMILIES, { config: testConfig({ tableName: "no_such_table", endpoint }), db: missing });
    expect((await app.request("/health")).status).toBe(503);
    db.client.destroy();
  });

  it("caches the check for a few seconds, and shares one probe between concurrent callers", async () => {
    const { db } = await testApp();
    const check = databaseCheck(db, { ttlMs: 60_000 });
    const before = db.usage().calls;
    const results = await Promise.all([check(), check(), check()]);
    expect(results).toEqual(["ok", "ok", "ok"]);
    expect(await check()).toBe("ok");
    expect(db.usage().calls - before).toBe(1);

    const uncached = databaseCheck(db, { ttlMs: 0 });
    await uncached();
    await uncached();
    expect(db.usage().calls - before).toBe(3);
  });
});
