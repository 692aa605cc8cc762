/** Manual signals and the signal reads. */
import { beforeAll, describe, expect, it } from "vitest";
import { removeFence, setFence } from "../../core/src/catalog/fence.js";
import { projectKey } from "../../core/src/catalog/keys.js";
import { issueStore, signalLinks } from "../../core/src/services.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";

type ListBody = { data: Record<string, unknown>[]; total: number };

async function get(t: TestApp, path: string): Promise<{ status: number; body: ListBody & { error?: string } }> {
  const response = await t.app.request(path, { headers: AUTH });
  return { status: response.status, body: (await response.json()) as ListBody & { error?: string } };
}

describe("POST /api/signals (manual)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("opens an issue for any manual signal, with the given fingerprint or manual:<source>:<type>", async () => {
    const response = await t.app.request(
      "/api/signals",
      jsonPost({
        source: "ops",
        type: "deploy_failed",
        title: "Deploy failed",
        severity: "low",
        payload: { build: 7 },
      }),
    );
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Record<string, Record<string, unknown>> };
    expect(response.headers.get("location")).toBe(`/api/signals/${data.signal?.id}`);
    expect(response.headers.get("etag")).toBe('"1"');
    expect(data.signal).toMatchObject({
      source: "ops",
      type: "deploy_failed",
      fingerprint: "manual:ops:deploy_failed",
      severity: "low",
      action: "opened",
      deliveryId: null,
      headers: {},
    });
    expect(data.issue).toMatchObject({
      type: "signal",
      priority: 4,
      signalSource: "ops",
      fingerprint: "manual:ops:deploy_failed",
    });
    expect(data.duplicate).toBe(false);

    const grouped = await t.app.request(
      "/api/signals",
      jsonPost({ source: "ops", type: "deploy_failed", title: "Again", severity: "high" }),
    );
    const again = (await grouped.json()) as { data: Record<string, Record<string, unknown>> };
    expect(again.data.signal?.action).toBe("grouped");
    expect(again.data.issue).toMatchObject({ id: data.issue?.id, priority: 2, signalCount: 2 });

    const custom = await t.app.request(
      "/api/signals",
      jsonPost({ source: "qa", type: "flaky", title: "Flaky", severity: "medium", fingerprint: "qa:suite:checkout" }),
    );
    expect(((await custom.json()) as { data: { signal: { fingerprint: string } } }).data.signal.fingerprint).toBe(
      "qa:suite:checkout",
    );
  });

  it("groups a signal into an issue with signals waiting beside it (a storm) by waiting with them: all are counted", async () => {
    const opened = await t.app.request(
      "/api/signals",
      jsonPost({ source: "ops", type: "oom", title: "Out of memory", severity: "high", fingerprint: "ops:oom" }),
    );
    const issueId = String(((await opened.json()) as { data: { issue: { id: string } } }).data.issue.id);
    // A delivery of the storm stored its signal beside the issue and was never answered.
    const waiting = { id: "sig_00000000000000000000000001", receivedAt: "2020-01-01T00:00:00.000Z", title: "Earlier" };
    await t.db.transactWrite([signalLinks({ db: t.db }).preparePendingSignal(issueId, waiting)]);

    const grouped = await t.app.request(
      "/api/signals",
      jsonPost({ source: "ops", type: "oom", title: "Out of memory again", severity: "high", fingerprint: "ops:oom" }),
    );
    expect(grouped.status).toBe(201);
    const detail = await t.app.request(`/api/issues/${issueId}`, { headers: AUTH });
    const issue = ((await detail.json()) as { data: { signalCount: number; signals: { id: string }[] } }).data;
    expect(issue.signalCount).toBe(3);
    expect(issue.signals.map((s) => s.id)).toContain(waiting.id);
    expect((await issueStore({ db: t.db }).getForSignal(issueId))?.signalsWaiting).toBe(false);
  });

  it.each([
    [{ source: "codehost", type: "x", title: "t", severity: "low" }, "source: is reserved for its webhook receiver"],
    [{ source: "Ops!", type: "x", title: "t", severity: "low" }, "source: must be 1..40 of a-z, 0-9, _ and -"],
    [{ source: "ops", type: "x", title: "t", severity: "urgent" }, "severity: Invalid option"],
    [{ source: "ops", type: "x", title: "", severity: "low" }, "title: must be 1..500 characters"],
    [{ source: "ops", type: "x", title: "t", severity: "low", payload: [1] }, "payload: Invalid input"],
    [{ source: "ops", type: "x", title: "t", severity: "low", extra: 1 }, "unknown field: extra"],
  ])("refuses %j", async (body, message) => {
    const response = await t.app.request("/api/signals", jsonPost(body));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error.startsWith(message)).toBe(true);
  });

  it("requires the API key", async () => {
    expect((await t.app.request("/api/signals")).status).toBe(401);
    expect((await t.app.request("/api/signals", { method: "POST" })).status).toBe(401);
  });
});

describe("a manual signal naming a project", () => {
  const totals = async (t: TestApp) => ({
    signals: (await get(t, "/api/signals")).body.total,
    issues: (await get(t, "/api/issues")).body.total,
  });
  const signal = (projectId: string, type = "deploy_failed") =>
    jsonPost({ source: "ci", type, title: "Deploy failed", severity: "low", projectId });

  it("that does not exist is a 400 as on POST /api/issues, storing nothing; one that exists opens its issue there", async () => {
    const t = await testApp();
    const missing = "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const before = await totals(t);
    const refused = await t.app.request("/api/signals", signal(missing));
    const asIssue = await t.app.request("/api/issues", jsonPost({ title: "x", type: "task", projectId: missing }));
    expect(refused.status).toBe(400);
    expect(asIssue.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: `projectId: project ${missing} does not exist`,
      details: [{ path: "projectId", message: `project ${missing} does not exist` }],
    });
    expect(await totals(t)).toEqual(before);

    const project = await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "CI" })), 201);
    const opened = await dataOf<{ signal: { projectId: string }; issue: { projectId: string } }>(
      t.app.request("/api/signals", signal(project.id)),
      201,
    );
    expect(opened.signal.projectId).toBe(project.id);
    expect(opened.issue.projectId).toBe(project.id);
  });

  it("whose delete is under way when the signal is written is a 400 too: its transaction holds the project", async () => {
    const t = await testApp();
    const project = await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "Going" })), 201);
    const first = await dataOf<{ issue: { id: string } }>(t.app.request("/api/signals", signal(project.id)), 201);
    // A delete of the project fences it first, then counts its issues: the project is still read,
    // and only the check inside the signal's transaction sees the delete.
    const until = new Date(Date.now() + 30_000).toISOString();
    await setFence(t.db, projectKey(project.id), until, { expression: "attribute_exists(pk)", names: {}, values: {} });
    const before = await totals(t);
    // One that would group into the project's issue, one that would open another.
    for (const type of ["deploy_failed", "smoke_failed"]) {
      const refused = await t.app.request("/api/signals", signal(project.id, type));
      expect(refused.status, type).toBe(400);
      expect(await refused.json()).toEqual({
        error: `projectId: project ${project.id} does not exist`,
        details: [{ path: "projectId", message: `project ${project.id} does not exist` }],
      });
    }
    expect(await totals(t)).toEqual(before);
    expect(
      (await dataOf<{ signalCount: number }>(t.app.request(`/api/issues/${first.issue.id}`, { headers: AUTH })))
        .signalCount,
    ).toBe(1);
    // The delete gave up: the project takes signals again.
    await removeFence(t.db, projectKey(project.id));
    expect((await t.app.request("/api/signals", signal(project.id))).status).toBe(201);
  });
});

describe("signal reads", () => {
  let t: TestApp;
  let issueId: string;
  const since = new Date(Date.now() - 1000).toISOString();
  beforeAll(async () => {
    t = await testApp();
    for (let i = 0; i < 3; i++) {
      const delivery = codehostDelivery("issues", issueEvent("opened", 10));
      const response = (await (await t.app.request(delivery.path, delivery.init)).json()) as {
        data: { issue: { id: string } };
      };
      issueId = response.data.issue.id;
    }
    for (let i = 0; i < 4; i++) {
      const push = codehostDelivery("push", { ref: `refs/heads/b${i}`, repository: { full_name: "o/r" } });
      await t.app.request(push.path, push.init);
    }
    await t.app.request("/api/signals", jsonPost({ source: "ops", type: "alert", title: "Ops", severity: "critical" }));
  });

  it("lists newest first with total, and pages", async () => {
    const all = await get(t, "/api/signals?limit=3");
    expect(all.body.total).toBe(8);
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[0]).toMatchObject({ source: "ops" });
    expect(all.body.data[0]).not.toHaveProperty("payload");
    const times = (await get(t, "/api/signals?limit=100")).body.data.map((s) => String(s.receivedAt));
    expect([...times].sort().reverse()).toEqual(times);
    const pages = await Promise.all([1, 2, 3].map((page) => get(t, `/api/signals?limit=3&page=${page}`)));
    expect(pages.flatMap((p) => p.body.data.map((s) => s.id))).toEqual(
      (await get(t, "/api/signals?limit=100")).body.data.map((s) => s.id),
    );
    expect(await get(t, "/api/signals?page=9")).toMatchObject({ status: 200, body: { data: [], total: 8 } });
  });

  it("filters by source, type, severity, action, issueId and since, alone and together", async () => {
    expect((await get(t, "/api/signals?source=codehost")).body.total).toBe(7);
    expect((await get(t, "/api/signals?type=push")).body.total).toBe(4);
    expect((await get(t, "/api/signals?severity=critical")).body.total).toBe(1);
    expect((await get(t, "/api/signals?action=grouped")).body.total).toBe(2);
    expect((await get(t, "/api/signals?action=recorded")).body.total).toBe(4);
    expect((await get(t, `/api/signals?issueId=${issueId}`)).body.total).toBe(3);
    expect((await get(t, "/api/signals?issueId=KZN-1")).body.total).toBe(3);
    expect((await get(t, "/api/signals?issueId=KZN-999")).body).toEqual({ data: [], total: 0 });
    expect((await get(t, "/api/signals?source=codehost&type=issues.opened")).body.total).toBe(3);
    expect((await get(t, "/api/signals?source=codehost&action=recorded&limit=2")).body).toMatchObject({ total: 4 });
    expect((await get(t, `/api/signals?since=${encodeURIComponent(since)}`)).body.total).toBe(8);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(t, `/api/signals?since=${encodeURIComponent(future)}`)).body).toEqual({ data: [], total: 0 });
    expect((await get(t, `/api/signals?since=${encodeURIComponent(since)}&type=push`)).body.total).toBe(4);
  });

  it.each([
    ["severity=urgent", "severity: Invalid option"],
    ["action=deleted", "action: Invalid option"],
    ["since=yesterday", "since: must be an ISO-8601 timestamp"],
    ["issueId=KZN-0", "issueId: must be an issue id (iss_…) or KZN-<number>"],
    ["source=Bad!", "source: must be 1..40"],
    ["limit=0", "limit: limit must be an integer between 1 and 100"],
    ["colour=red", "unknown field: colour"],
  ])("refuses %s", async (query, message) => {
    const { status, body } = await get(t, `/api/signals?${query}`);
    expect(status).toBe(400);
    expect(body.error?.startsWith(message)).toBe(true);
  });

  it("reads one signal with its payload and headers", async () => {
    const [first] = (await get(t, "/api/signals?type=push&limit=1")).body.data;
    const { status, body } = await get(t, `/api/signals/${first?.id}`);
    expect(status).toBe(200);
    const signal = body.data as unknown as Record<string, unknown>;
    expect(signal).toMatchObject({
      id: first?.id,
      source: "codehost",
      type: "push",
      payload: { ref: "refs/heads/b3", repository: { full_name: "o/r" } },
      headers: { "X-Codehost-Event": "push", "X-Codehost-Hook-ID": "4242" },
    });
    expect(signal.deliveryId).toEqual(expect.any(String));
    expect((await get(t, "/api/signals/sig_01ARZ3NDEKTSV4RRFFQ69G5FAV")).status).toBe(404);
    expect((await get(t, "/api/signals/nope")).body).toEqual({ error: "Signal nope not found" });
  });

  it("lists an issue's signals by id or KZN reference, and 404s for an unknown issue", async () => {
    const byId = await get(t, `/api/issues/${issueId}/signals?limit=2`);
    expect(byId.body.total).toBe(3);
    expect(byId.body.data).toHaveLength(2);
    expect(byId.body.data.every((s) => s.issueId === issueId)).toBe(true);
    expect((await get(t, "/api/issues/KZN-1/signals")).body.total).toBe(3);
    const opsIssue = (await get(t, "/api/issues/KZN-2/signals")).body;
    expect(opsIssue.total).toBe(1);
    const missing = await get(t, "/api/issues/iss_01ARZ3NDEKTSV4RRFFQ69G5FAV/signals");
    expect(missing.status).toBe(404);
    expect((await get(t, "/api/issues/KZN-99/signals")).status).toBe(404);
  });
});
