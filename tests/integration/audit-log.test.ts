/**
 * The audit log (core/src/access/audit-store.ts, core/src/http/audit.ts) on DynamoDB Local: every
 * change under /api/ leaves one record written in the change's own transaction, every 401 and 403
 * one of its own; reads, an agent's heartbeats and activities, failed changes and idempotent replays
 * none; `GET /api/audit` lists them newest first with its filters.
 */
import { describe, expect, it } from "vitest";
import { AuditStore } from "../../core/src/access/audit-store.js";
import { AUTH, dataOf, jsonPost, testApp } from "../helpers/app.js";
import { freshTable } from "../helpers/db.js";
import { injectFaults } from "../helpers/faults.js";

interface Record {
  id: string;
  at: string;
  actor: { kind: string; id: string; name: string } | null;
  method: string | null;
  path: string | null;
  targetId: string | null;
  status: number | null;
  requestId: string | null;
  userAgent: string | null;
}

async function auditOf(app: Awaited<ReturnType<typeof testApp>>["app"], query = ""): Promise<Record[]> {
  return dataOf<Record[]>(app.request(`/api/audit${query}`, { headers: AUTH }));
}

describe("the audit log", () => {
  it("records each change with who, how, on what and how it ended, and nothing for reads", async () => {
    const t = await testApp();
    const made = await t.app.request(
      "/api/issues",
      jsonPost({ title: "Broken", type: "task" }, { "User-Agent": "ci/1" }),
    );
    expect(made.status).toBe(201);
    const issue = ((await made.json()) as { data: { id: string } }).data;
    const patch = await t.app.request(`/api/issues/${issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ priority: 1 }),
    });
    expect(patch.status).toBe(200);
    await t.app.request("/api/issues", { headers: AUTH });
    await t.app.request(`/api/issues/${issue.id}`, { headers: AUTH });

    const records = await auditOf(t.app);
    expect(records.map(({ method, path, status, targetId }) => ({ method, path, status, targetId }))).toEqual([
      { method: "PATCH", path: `/api/issues/${issue.id}`, status: 200, targetId: issue.id },
      { method: "POST", path: "/api/issues", status: 201, targetId: issue.id },
    ]);
    // Read back from the table, the actor keeps the API's order.
    expect(Object.keys(records[1]?.actor ?? {})).toEqual(["kind", "id", "name"]);
    expect(records[1]).toMatchObject({
      actor: { kind: "root", id: "root", name: "root key" },
      userAgent: "ci/1",
      requestId: made.headers.get("X-Request-Id"),
    });
  });

  it("records refusals (401 and 403) on their own, and nothing for a change that failed", async () => {
    const t = await testApp();
    const wall = await dataOf<{ id: string; key: string }>(
      t.app.request("/api/keys", jsonPost({ name: "wall", scopes: ["read"] })),
      201,
    );
    const refused = await t.app.request(
      "/api/issues",
      jsonPost({ title: "x", type: "task" }, { Authorization: `Bearer ${wall.key}` }),
    );
    expect(refused.status).toBe(403);
    const unknown = await t.app.request("/api/issues", {
      headers: { Authorization: `Bearer kaizen_${"0".repeat(64)}` },
    });
    expect(unknown.status).toBe(401);
    const missing = await t.app.request("/api/issues/iss_01ARZ3NDEKTSV4RRFFQ69G5FAV", {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ priority: 1 }),
    });
    expect(missing.status).toBe(404);

    const records = await auditOf(t.app);
    expect(
      records.map(({ method, path, status, actor }) => ({ method, path, status, actor: actor?.name ?? null })),
    ).toEqual([
      { method: "GET", path: "/api/issues", status: 401, actor: null },
      { method: "POST", path: "/api/issues", status: 403, actor: "wall" },
      { method: "POST", path: "/api/keys", status: 201, actor: "root key" },
    ]);
    expect(records[2]?.targetId).toBe(wall.id);
    expect(await auditOf(t.app, "?status=403")).toHaveLength(1);
    expect((await auditOf(t.app, `?actorId=${wall.id}`)).map(({ status }) => status)).toEqual([403]);
    expect((await auditOf(t.app, `?targetId=${wall.id}`)).map(({ status }) => status)).toEqual([201]);
    expect(await auditOf(t.app, `?since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
  });

  it("keeps a change's record in the change's own transaction: single writes failing cannot lose it", async () => {
    const t = await testApp();
    const issue = await dataOf<{ id: string }>(
      t.app.request("/api/issues", jsonPost({ title: "x", type: "task" })),
      201,
    );
    const faults = injectFaults(t.db);
    // Every lone write fails as DynamoDB's 500 would; the PATCH's one transaction goes through.
    faults.fail({ kind: "internalError", operations: (_, command) => /^(Put|Update|Delete)Item/.test(command) });
    const patch = await t.app.request(`/api/issues/${issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "renamed" }),
    });
    expect(patch.status).toBe(200);
    faults.clear();
    expect((await auditOf(t.app, `?targetId=${issue.id}`)).map(({ method }) => method)).toEqual(["PATCH", "POST"]);

    // The transaction failing takes its record with it.
    faults.fail({ kind: "internalError", operations: (_, command) => command === "TransactWriteItemsCommand" });
    const failed = await t.app.request(`/api/issues/${issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "again" }),
    });
    expect(failed.status).toBe(503);
    faults.clear();
    expect((await auditOf(t.app, `?targetId=${issue.id}`)).map(({ method }) => method)).toEqual(["PATCH", "POST"]);
  });

  it("leaves heartbeats and activities to the dispatch, and an idempotent replay is no new change", async () => {
    const t = await testApp();
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "x", type: "task", status: "todo" })), 201);
    const claim = await dataOf<{ dispatch: { id: string; issueId: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" })),
      201,
    );
    const id = claim.dispatch.id;
    expect((await t.app.request(`/api/dispatch/${id}/heartbeat`, { method: "POST", headers: AUTH })).status).toBe(200);
    const note = jsonPost({ type: "thought", body: "Reading the code" });
    expect((await t.app.request(`/api/dispatch/${id}/activities`, note)).status).toBe(201);
    const comment = jsonPost(
      { body: "On it", authorName: "ops", authorType: "human" },
      { "Idempotency-Key": "comment-1" },
    );
    const comments = `/api/issues/${claim.dispatch.issueId}/comments`;
    expect((await t.app.request(comments, comment)).status).toBe(201);
    const replay = await t.app.request(comments, comment);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const records = await auditOf(t.app);
    expect(records.map(({ method, path }) => `${method} ${path}`)).toEqual([
      `POST ${comments}`,
      "POST /api/dispatch/claim",
      "POST /api/issues",
    ]);
  });
});

describe("the audit log's targets", () => {
  it("name what a claim created, the dispatch its Location names, by POST and by GET; its issue is the dispatch's", async () => {
    const t = await testApp();
    for (const title of ["one", "two", "three"]) {
      await dataOf(t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" })), 201);
    }
    // The first claim of a process also seeds the default templates; the later ones change only what they claim.
    const first = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" }));
    const claimed = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "b" }));
    const next = await t.app.request("/api/dispatch/next?agent=c", { headers: AUTH });
    for (const [answer, path] of [
      [first, "/api/dispatch/claim"],
      [claimed, "/api/dispatch/claim"],
      [next, "/api/dispatch/next"],
    ] as const) {
      expect(answer.status).toBeLessThan(300);
      const { dispatch } = ((await answer.json()) as { data: { dispatch: { id: string; issueId: string } } }).data;
      expect(answer.headers.get("Location")).toBe(`/api/dispatch/${dispatch.id}`);
      const records = await auditOf(t.app, `?targetId=${dispatch.id}`);
      expect(records.map(({ method, path, targetId }) => ({ method, path, targetId }))).toEqual([
        { method: path === "/api/dispatch/claim" ? "POST" : "GET", path, targetId: dispatch.id },
      ]);
      // The issue is found through the dispatch the record names.
      const read = await dataOf<{ issueId: string }>(t.app.request(`/api/dispatch/${dispatch.id}`, { headers: AUTH }));
      expect(read.issueId).toBe(dispatch.issueId);
    }
  });
});

describe("the audit log's paths", () => {
  it("never keep a key pasted into a path", async () => {
    const t = await testApp();
    const key = `kaizen_${"cd".repeat(32)}`;
    const answer = await t.app.request(`/api/issues/${key}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(401);
    const [refusal] = await auditOf(t.app, "?status=401");
    expect(refusal?.path).toBe("/api/issues/[redacted]");
    expect(JSON.stringify(await auditOf(t.app))).not.toContain(key);
  });
});

describe("the audit log's pages", () => {
  it("run newest first across days, count every match back to since, and skip by the page", async () => {
    const { db } = await freshTable();
    const store = new AuditStore(db);
    const now = Date.parse("2026-11-28T12:00:00.000Z");
    const ats = [0, 1, 2, 26, 27, 50, 95 * 24].map((hours) => new Date(now - hours * 3_600_000));
    for (const [i, at] of ats.entries()) {
      const record = store.automation(`step ${i}`, i % 2 === 0 ? "iss_even" : "iss_odd", at);
      await store.write(record);
    }
    const page = async (offset: number, limit: number, filters = {}) => {
      const { records, total } = await store.list(filters, { offset, limit }, new Date(now));
      return { actions: records.map(({ action }) => action), total };
    };
    // The record past the 90 days is out of reach (the TTL removes it soon after).
    expect(await page(0, 2)).toEqual({ actions: ["step 0", "step 1"], total: 6 });
    expect(await page(2, 2)).toEqual({ actions: ["step 2", "step 3"], total: 6 });
    expect(await page(4, 10)).toEqual({ actions: ["step 4", "step 5"], total: 6 });
    expect(await page(0, 10, { targetId: "iss_even" })).toEqual({ actions: ["step 0", "step 2", "step 4"], total: 3 });
    const since = new Date(now - 26.5 * 3_600_000).toISOString();
    expect(await page(0, 10, { since })).toEqual({ actions: ["step 0", "step 1", "step 2", "step 3"], total: 4 });
  });
});
