/**
 * Writes while the database is gone. DynamoDB Local stopped under a running HTTP server: a create
 * and a signed webhook delivery answer 503 with `Retry-After` (so the provider redelivers) and
 * write nothing; once it is back, the very same requests succeed and each is stored once. And the
 * store going away in the middle of a request, at each of its calls in turn (the calls from there
 * on fail as a refused connection does): 503, nothing half-written, the same request then succeeds.
 */

import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp, createDb, ensureTable, waitForDatabase } from "../../core/src/index.js";
import { freePort, type RunningDynamoDb, startDynamoDbLocal } from "../../infra/local/dynamodb.js";
import { AUTH, jsonPost, testApp } from "../helpers/app.js";
import { TEST_API_KEY, testConfig } from "../helpers/db.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";
import { expectUnavailable, failEachCallInTurn, halfWrites, injectFaults, snapshotTable } from "../helpers/faults.js";

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };
type Issue = { id: string; title: string; labels: string[]; signalCount: number };

const dir = mkdtempSync(join(tmpdir(), "kaizen-write-outage-"));
const running: RunningDynamoDb[] = [];
afterAll(async () => {
  for (const dynamo of running) await dynamo.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("writes while DynamoDB Local is stopped under a running server", () => {
  it("answer 503 with Retry-After and write nothing; after it is back the same requests are stored once", async () => {
    const port = await freePort();
    const first = await startDynamoDbLocal({ port, dataDir: dir });
    running.push(first);
    const table = { tableName: "kaizen_write_outage", endpoint: first.endpoint };
    const db = createDb({ ...table, region: "us-east-1", emulateConflicts: true });
    await waitForDatabase(db);
    await ensureTable(db);
    const app = createApp(ALL_FAMILIES, { config: testConfig(table), db });
    const serverPort = await freePort();
    const server = serve({ fetch: app.fetch, port: serverPort, hostname: "127.0.0.1" });
    const base = `http://127.0.0.1:${serverPort}`;
    const headers = { Authorization: `Bearer ${TEST_API_KEY}` };
    const count = async (path: string) =>
      ((await (await fetch(`${base}${path}`, { headers })).json()) as ListBody<unknown>).total;
    try {
      const label = await fetch(`${base}/api/labels`, jsonPost({ name: "checkout", color: "#112233" }));
      expect(label.status).toBe(201);
      const create = jsonPost(
        { title: "Written after the outage", type: "task", labels: ["checkout"] },
        { "Idempotency-Key": randomUUID() },
      );
      const delivery = codehostDelivery("issues", issueEvent("opened", 77, "Checkout button dead"), {
        delivery: randomUUID(),
      });
      const before = await snapshotTable(table);

      await first.stop();
      const refusedCreate = await fetch(`${base}/api/issues`, create);
      await expectUnavailable(refusedCreate);
      const refusedDelivery = await fetch(`${base}${delivery.path}`, delivery.init);
      await expectUnavailable(refusedDelivery);

      const second = await startDynamoDbLocal({ port, dataDir: dir });
      running.push(second);
      await waitForDatabase(db);
      expect(halfWrites(before, await snapshotTable(table))).toEqual([]);

      const created = await fetch(`${base}/api/issues`, create);
      expect(created.status).toBe(201);
      const issue = ((await created.json()) as Body<Issue>).data;
      expect(issue).toMatchObject({ title: "Written after the outage", labels: ["checkout"] });
      const replayed = await fetch(`${base}/api/issues`, create);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(((await replayed.json()) as Body<Issue>).data.id).toBe(issue.id);
      expect(await count("/api/issues?q=Written%20after%20the%20outage")).toBe(1);

      const stored = await fetch(`${base}${delivery.path}`, delivery.init);
      expect(stored.status).toBe(201);
      const redelivered = await fetch(`${base}${delivery.path}`, delivery.init);
      expect(redelivered.status).toBe(200);
      expect(((await redelivered.json()) as Body<{ duplicate: boolean }>).data.duplicate).toBe(true);
      expect(await count(`/api/issues?fingerprint=${encodeURIComponent("codehost:issue:octo-org/shop#77")}`)).toBe(1);
      expect(await count("/api/signals?source=codehost")).toBe(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.client.destroy();
    }
  });
});

describe("the store going away in the middle of a request, at each of its calls in turn", () => {
  it("a create with labels and a project: 503, nothing half-written, then stored once", async () => {
    const t = await testApp({}, { emulateConflicts: true });
    const faults = injectFaults(t.db);
    await t.app.request("/api/labels", jsonPost({ name: "checkout", color: "#112233" }));
    const project = await t.app.request("/api/projects", jsonPost({ name: "Shop" }));
    const projectId = ((await project.json()) as Body<{ id: string }>).data.id;
    const report = await failEachCallInTurn(
      t,
      faults,
      {
        status: 201,
        prepare: async () => {
          const title = `Mid-request outage ${randomUUID()}`;
          const request = jsonPost({ title, type: "task", labels: ["checkout"], projectId });
          return {
            send: () => t.app.request("/api/issues", request),
            storedOnce: async () => {
              const found = await t.app.request(`/api/issues?q=${encodeURIComponent(title)}`, { headers: AUTH });
              expect(((await found.json()) as ListBody<Issue>).total).toBe(1);
            },
          };
        },
      },
      { kinds: ["connectionReset"], onward: true },
    );
    expect(report.calls).toBeGreaterThanOrEqual(4);
  });

  it("a signed webhook delivery: 5xx, nothing half-written, then the redelivery is stored once", async () => {
    const t = await testApp({}, { emulateConflicts: true });
    const faults = injectFaults(t.db);
    let number = 200;
    const report = await failEachCallInTurn(
      t,
      faults,
      {
        status: 201,
        prepare: async () => {
          number += 1;
          const delivery = codehostDelivery("issues", issueEvent("opened", number), { delivery: randomUUID() });
          const fingerprint = encodeURIComponent(`codehost:issue:octo-org/shop#${number}`);
          return {
            send: () => t.app.request(delivery.path, delivery.init),
            storedOnce: async () => {
              const found = await t.app.request(`/api/issues?fingerprint=${fingerprint}`, { headers: AUTH });
              expect(((await found.json()) as ListBody<Issue>).data).toMatchObject([{ signalCount: 1 }]);
            },
          };
        },
      },
      { kinds: ["connectionReset", "internalError"], onward: true },
    );
    expect(report.calls).toBe(4);
  });
});
