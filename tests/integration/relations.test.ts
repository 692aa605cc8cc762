/** Relations: one fact from both ends, no blocks cycles, blockedBy = open blockers only. */
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";

type Issue = { id: string; number: number; identifier: string; blockedBy: string[]; relations: Relation[] };
type Relation = { id: string; type: string; issueId: string; relatedIssueId: string; createdAt: string };

async function create(t: TestApp, title: string): Promise<Issue> {
  const response = await t.app.request("/api/issues", jsonPost({ title, type: "task" }));
  return ((await response.json()) as { data: Issue }).data;
}

async function read(t: TestApp, id: string): Promise<Issue> {
  return ((await (await t.app.request(`/api/issues/${id}`, { headers: AUTH })).json()) as { data: Issue }).data;
}

async function relate(t: TestApp, from: string, type: string, to: string) {
  const response = await t.app.request(`/api/issues/${from}/relations`, jsonPost({ type, relatedIssueId: to }));
  if (response.status === 201) expect(response.headers.get("etag")).toBe('"1"');
  if (response.status === 201) expect(response.headers.get("location")).toMatch(/^\/api\/relations\/rel_[0-9A-Z]{26}$/);
  return { status: response.status, body: (await response.json()) as { data: Relation; error?: string } };
}

async function setStatus(t: TestApp, id: string, status: string) {
  const response = await t.app.request(`/api/issues/${id}`, { ...jsonPost({ status }), method: "PATCH" });
  expect(response.status).toBe(200);
}

describe("relations", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("store blocks once and show it from both ends; blockedBy lists the open blocker", async () => {
    const [a, b] = [await create(t, "A"), await create(t, "B")];
    const { status, body } = await relate(t, a.id, "blocks", `KZN-${b.number}`);
    expect(status).toBe(201);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^rel_[0-9A-Z]{26}$/),
      type: "blocks",
      issueId: a.id,
      relatedIssueId: b.id,
      createdAt: expect.any(String),
    });
    const [fromA, fromB] = [await read(t, a.id), await read(t, b.id)];
    expect(fromA.relations).toEqual([body.data]);
    expect(fromB.relations).toEqual([{ ...body.data, type: "blocked_by", issueId: b.id, relatedIssueId: a.id }]);
    expect(fromB.blockedBy).toEqual([a.id]);
    expect(fromA.blockedBy).toEqual([]);
  });

  it("take blocked_by as the same fact seen from the other end", async () => {
    const [a, b] = [await create(t, "A"), await create(t, "B")];
    const { body } = await relate(t, b.id, "blocked_by", a.id);
    expect(body.data).toMatchObject({ type: "blocked_by", issueId: b.id, relatedIssueId: a.id });
    expect((await read(t, b.id)).blockedBy).toEqual([a.id]);
    expect((await read(t, a.id)).relations).toMatchObject([{ type: "blocks", relatedIssueId: b.id }]);
    const again = await relate(t, a.id, "blocks", b.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`KZN-${a.number} and KZN-${b.number} are already related that way`);
  });

  it("refuse blocks cycles, direct and longer, with 409", async () => {
    const [a, b, c] = [await create(t, "A"), await create(t, "B"), await create(t, "C")];
    await relate(t, a.id, "blocks", b.id);
    await relate(t, b.id, "blocks", c.id);
    const direct = await relate(t, b.id, "blocks", a.id);
    expect(direct.status).toBe(409);
    expect(direct.body.error).toBe(`KZN-${b.number} cannot block KZN-${a.number}: that would make a cycle`);
    const longer = await relate(t, c.id, "blocks", a.id);
    expect(longer.status).toBe(409);
    const viaBlockedBy = await relate(t, a.id, "blocked_by", c.id);
    expect(viaBlockedBy.status).toBe(409);
    expect((await read(t, a.id)).blockedBy).toEqual([]);
  });

  it("walk a diamond of blockers for cycles: two paths to one issue neither fail nor hide a cycle", async () => {
    const [a, b, c, d, e] = [
      await create(t, "A"),
      await create(t, "B"),
      await create(t, "C"),
      await create(t, "D"),
      await create(t, "E"),
    ];
    for (const [from, to] of [
      [a, b],
      [a, c],
      [b, d],
      [c, d],
    ] as const) {
      expect((await relate(t, from.id, "blocks", to.id)).status).toBe(201);
    }
    // The walk from A meets D along both B and C.
    expect((await relate(t, e.id, "blocks", a.id)).status).toBe(201);
    const cycle = await relate(t, d.id, "blocks", e.id);
    expect(cycle.status).toBe(409);
    expect(cycle.body.error).toBe(`KZN-${d.number} cannot block KZN-${e.number}: that would make a cycle`);
    expect((await read(t, a.id)).blockedBy).toEqual([e.id]);
  });

  it("keep related and duplicate symmetric and unique", async () => {
    const [a, b] = [await create(t, "A"), await create(t, "B")];
    expect((await relate(t, a.id, "related", b.id)).status).toBe(201);
    expect((await relate(t, b.id, "related", a.id)).status).toBe(409);
    expect((await relate(t, b.id, "duplicate", a.id)).status).toBe(201);
    expect((await read(t, a.id)).relations.map((r) => r.type).sort()).toEqual(["duplicate", "related"]);
    expect((await read(t, a.id)).blockedBy).toEqual([]);
  });

  it.each([
    [{ type: "parent", relatedIssueId: "KZN-1" }, "type: Invalid option"],
    [{ type: "blocks" }, "relatedIssueId: Invalid input"],
    [{ type: "blocks", relatedIssueId: "KZN-9999" }, "relatedIssueId: issue KZN-9999 does not exist"],
    [{ type: "blocks", relatedIssueId: "KZN-1", extra: 1 }, "unknown field: extra"],
  ])("refuse %j with 400", async (body, message) => {
    const a = await create(t, "A");
    const response = await t.app.request(`/api/issues/${a.id}/relations`, jsonPost(body));
    expect(response.status).toBe(400);
    const refusal = (await response.json()) as { error: string; details?: unknown[] };
    expect(refusal.error.startsWith(message)).toBe(true);
    expect(refusal.details?.length).toBeGreaterThan(0);
  });

  it("refuse relating an issue to itself, and 404 for an unknown issue", async () => {
    const a = await create(t, "A");
    expect((await relate(t, a.id, "related", `KZN-${a.number}`)).body.error).toBe(
      "relatedIssueId: an issue cannot relate to itself",
    );
    expect((await relate(t, "KZN-9999", "related", a.id)).status).toBe(404);
  });

  it("unblock when the blocker is done, canceled or deleted, and block again when it reopens", async () => {
    const [blocker, blocked] = [await create(t, "Blocker"), await create(t, "Blocked")];
    await relate(t, blocker.id, "blocks", blocked.id);
    await setStatus(t, blocker.id, "done");
    expect((await read(t, blocked.id)).blockedBy).toEqual([]);
    await setStatus(t, blocker.id, "todo");
    expect((await read(t, blocked.id)).blockedBy).toEqual([blocker.id]);
    await setStatus(t, blocker.id, "canceled");
    expect((await read(t, blocked.id)).blockedBy).toEqual([]);
    await setStatus(t, blocker.id, "backlog");
    expect((await read(t, blocked.id)).blockedBy).toEqual([blocker.id]);
    expect((await t.app.request(`/api/issues/${blocker.id}`, { method: "DELETE", headers: AUTH })).status).toBe(204);
    expect((await read(t, blocked.id)).blockedBy).toEqual([]);
  });

  it("do not list a finished blocker when the relation is made", async () => {
    const [blocker, blocked] = [await create(t, "Done already"), await create(t, "Blocked")];
    await setStatus(t, blocker.id, "done");
    await relate(t, blocker.id, "blocks", blocked.id);
    expect((await read(t, blocked.id)).blockedBy).toEqual([]);
    await setStatus(t, blocker.id, "triage");
    expect((await read(t, blocked.id)).blockedBy).toEqual([blocker.id]);
  });

  it("unblock when a grouped signal closes the blocker", async () => {
    const opened = await t.app.request(
      codehostDelivery("issues", issueEvent("opened", 501)).path,
      codehostDelivery("issues", issueEvent("opened", 501)).init,
    );
    const blocker = ((await opened.json()) as { data: { issue: Issue } }).data.issue;
    const blocked = await create(t, "Waits on the signal issue");
    await relate(t, blocker.id, "blocks", blocked.id);
    expect((await read(t, blocked.id)).blockedBy).toEqual([blocker.id]);
    const closed = codehostDelivery("issues", issueEvent("closed", 501));
    expect((await t.app.request(closed.path, closed.init)).status).toBe(201);
    expect((await read(t, blocked.id)).blockedBy).toEqual([]);
  });

  it("delete from both ends with DELETE /api/relations/:id, then 404", async () => {
    const [a, b] = [await create(t, "A"), await create(t, "B")];
    const { body } = await relate(t, a.id, "blocks", b.id);
    const response = await t.app.request(`/api/relations/${body.data.id}`, { method: "DELETE", headers: AUTH });
    expect(response.status).toBe(204);
    expect((await read(t, a.id)).relations).toEqual([]);
    expect(await read(t, b.id)).toMatchObject({ relations: [], blockedBy: [] });
    expect((await t.app.request(`/api/relations/${body.data.id}`, { method: "DELETE", headers: AUTH })).status).toBe(
      404,
    );
    expect((await relate(t, a.id, "blocks", b.id)).status).toBe(201);
  });

  it("honour If-Match on DELETE /api/relations/:id: a stale or weak tag is a 412 that removes nothing", async () => {
    const [a, b, c] = [await create(t, "A"), await create(t, "B"), await create(t, "C")];
    const { body } = await relate(t, a.id, "blocks", b.id);
    const remove = (id: string, ifMatch?: string) =>
      t.app.request(`/api/relations/${id}`, {
        method: "DELETE",
        headers: { ...AUTH, ...(ifMatch ? { "If-Match": ifMatch } : {}) },
      });
    for (const tag of ['"2"', 'W/"1"']) {
      const stale = await remove(body.data.id, tag);
      expect(stale.status, tag).toBe(412);
      expect(await stale.json()).toEqual({ error: "Resource has changed (ETag mismatch)" });
    }
    expect((await read(t, a.id)).relations).toEqual([body.data]);
    expect((await read(t, b.id)).blockedBy).toEqual([a.id]);

    expect((await remove(body.data.id, '"1"')).status).toBe(204);
    expect(await read(t, b.id)).toMatchObject({ relations: [], blockedBy: [] });
    const related = await relate(t, a.id, "related", c.id);
    expect((await remove(related.body.data.id)).status).toBe(204);
    expect((await read(t, c.id)).relations).toEqual([]);
  });

  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("keep one fact when the same relation is made concurrently", async () => {
      const t = await testApp({}, { emulateConflicts });
      const [a, b] = [await create(t, "A"), await create(t, "B")];
      const results = await Promise.all(Array.from({ length: 6 }, () => relate(t, a.id, "blocks", b.id)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
      expect((await read(t, b.id)).blockedBy).toEqual([a.id]);
      expect((await read(t, a.id)).relations).toHaveLength(1);
    });
  });
});

describe("issue detail", () => {
  it("comes from one read of the issue's partition: children, relations and latest signals, kept current", async () => {
    const t = await testApp();
    const parent = await create(t, "Parent");
    const child = await create(t, "Child");
    await t.app.request(`/api/issues/${child.id}`, { ...jsonPost({ parentId: parent.id }), method: "PATCH" });
    const other = await create(t, "Other");
    await relate(t, other.id, "blocks", parent.id);
    const before = t.db.usage();
    const detail = (await (await t.app.request(`/api/issues/${parent.id}`, { headers: AUTH })).json()) as {
      data: { children: { id: string; title: string; status: string }[]; relations: Relation[]; blockedBy: string[] };
    };
    expect(t.db.usage().calls - before.calls).toBe(1);
    expect(detail.data.children).toMatchObject([{ id: child.id, title: "Child", status: "triage" }]);
    expect(detail.data.relations).toMatchObject([{ type: "blocked_by", relatedIssueId: other.id }]);
    expect(detail.data.blockedBy).toEqual([other.id]);

    await t.app.request(`/api/issues/${child.id}`, {
      ...jsonPost({ title: "Child renamed", status: "todo" }),
      method: "PATCH",
    });
    const renamed = (await (await t.app.request(`/api/issues/${parent.id}`, { headers: AUTH })).json()) as {
      data: { children: { title: string; status: string }[] };
    };
    expect(renamed.data.children).toMatchObject([{ title: "Child renamed", status: "todo" }]);
    await t.app.request(`/api/issues/${child.id}`, { method: "DELETE", headers: AUTH });
    const emptied = (await (await t.app.request(`/api/issues/${parent.id}`, { headers: AUTH })).json()) as {
      data: { children: unknown[] };
    };
    expect(emptied.data.children).toEqual([]);
  });

  it("keeps the latest 10 signals, newest first", async () => {
    const t = await testApp();
    let issueId = "";
    for (let i = 0; i < 12; i++) {
      const delivery = codehostDelivery("issues", issueEvent("edited", 777, `Edit ${i}`));
      const response = (await (await t.app.request(delivery.path, delivery.init)).json()) as { data: { issue: Issue } };
      issueId = response.data.issue.id;
    }
    const detail = (await (await t.app.request(`/api/issues/${issueId}`, { headers: AUTH })).json()) as {
      data: { signals: { title: string; issueId: string }[]; signalCount: number };
    };
    expect(detail.data.signalCount).toBe(12);
    expect(detail.data.signals.map((s) => s.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Edit ${11 - i}`));
    expect(detail.data.signals.every((s) => s.issueId === issueId)).toBe(true);
  });
});
