/**
 * `GET /health` under a real outage: DynamoDB Local stopped under a running server, then started
 * again on the same port and data folder. The server answers 503 while it is gone and recovers
 * without a restart. The outage is real; the health check's cache ages on the server's clock, which
 * the test moves past it instead of waiting.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp, createDb, ensureTable, waitForDatabase } from "../../core/src/index.js";
import { freePort, type RunningDynamoDb, startDynamoDbLocal } from "../../infra/local/dynamodb.js";
import { testClock } from "../helpers/clock.js";
import { TEST_API_KEY, testConfig } from "../helpers/db.js";

/** The health check keeps its answer this long (service/health.ts); the test moves the clock past it. */
const HEALTH_CACHE_MS = 5_000;
const dir = mkdtempSync(join(tmpdir(), "kaizen-outage-"));
const running: RunningDynamoDb[] = [];
afterAll(async () => {
  for (const dynamo of running) await dynamo.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * DynamoDB Local on `port` over the test's data folder, for the few requests of this test: on the
 * JVM's quick compiler alone it answers in about half the time, most of what the test takes. Only
 * the Java process started here is given the option.
 */
async function startBriefly(port: number): Promise<RunningDynamoDb> {
  const before = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = "-XX:TieredStopAtLevel=1";
  try {
    const started = await startDynamoDbLocal({ port, dataDir: dir });
    running.push(started);
    return started;
  } finally {
    if (before === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = before;
  }
}

describe("an outage of the database under a running server", () => {
  it("turns /health and reads into 503s with Retry-After, and recovers when the database is back", async () => {
    const port = await freePort();
    const first = await startBriefly(port);
    const tableName = "kaizen_outage";
    const db = createDb({ tableName, region: "us-east-1", endpoint: first.endpoint });
    await waitForDatabase(db);
    await ensureTable(db);
    const clock = testClock();
    const app = createApp(ALL_FAMILIES, { config: testConfig({ tableName, endpoint: first.endpoint }), db, clock });
    const serverPort = await freePort();
    const server = serve({ fetch: app.fetch, port: serverPort, hostname: "127.0.0.1" });
    const base = `http://127.0.0.1:${serverPort}`;
    const headers = { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" };
    try {
      const healthy = await fetch(`${base}/health`);
      expect(healthy.status).toBe(200);
      const created = await fetch(`${base}/api/issues`, {
        method: "POST",
        headers,
        body: JSON.stringify({ title: "Before the outage", type: "task" }),
      });
      expect(created.status).toBe(201);

      await first.stop();
      clock.advance(HEALTH_CACHE_MS + 200);
      const down = await fetch(`${base}/health`);
      expect(down.status).toBe(503);
      expect(down.headers.get("retry-after")).toBeTruthy();
      expect(await down.json()).toMatchObject({ status: "degraded", checks: { database: "unreachable" } });
      const read = await fetch(`${base}/api/issues`, { headers });
      expect(read.status).toBe(503);
      expect(read.headers.get("retry-after")).toBeTruthy();
      expect(await read.json()).toEqual({ error: "Database unavailable" });

      await startBriefly(port);
      await waitForDatabase(db);
      clock.advance(HEALTH_CACHE_MS + 200);
      const back = await fetch(`${base}/health`);
      expect(back.status).toBe(200);
      expect(await back.json()).toMatchObject({ status: "ok", checks: { database: "ok" } });
      const list = await fetch(`${base}/api/issues`, { headers });
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ total: 1, data: [{ title: "Before the outage" }] });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.client.destroy();
    }
  });
});
