/** PATCH and DELETE on issues: transitions, hierarchy, references, ETag/If-Match and no lost updates. */
import { beforeAll, describe, expect, it } from "vitest";
import { catalogService } from "../../core/src/services.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Issue = Record<string, unknown> & { id: string; number: number; status: string };

function patch(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { ...jsonPost(body, headers), method: "PATCH" };
}

async function create(t: TestApp, body: Record<string, unknown> = {}): Promise<Issue> {
  const response = await t.app.request("/api/issues", jsonPost({ title: "An issue", type: "task", ...body }));
  if (response.status !== 201) throw new Error(await response.text());
  return ((await response.json()) as { data: Issue }).data;
}

/** An issue as GET shows it, and the same without the detail-only fields (as writes answer). */
async function read(
  t: TestApp,
  ref: string,
): Promise<{ status: number; etag: string | null; data: Issue; item: Issue }> {
  const response = await t.app.request(`/api/issues/${ref}`, { headers: AUTH });
  const data = ((await response.json()) as { data: Issue }).data;
  const { parent: _parent, children: _children, relations: _relations, signals: _signals, ...item } = data ?? {};
  return { status: response.status, etag: response.headers.get("etag"), data, item: item as Issue };
}

async function total(t: TestApp, query = ""): Promise<number> {
  return ((await (await t.app.request(`/api/issues${query}`, { headers: AUTH })).json()) as { total: number }).total;
}

describe("PATCH /api/issues/:id", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("updates the given fields only, bumps the ETag and moves the issue between listings", async () => {
    const issue = await create(t, { priority: 3, description: "keep me" });
    const response = await t.app.request(`/api/issues/${issue.id}`, patch({ title: "Renamed", priority: 1 }));
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"2"');
    const { data } = (await response.json()) as { data: Issue };
    expect(data).toMatchObject({ title: "Renamed", priority: 1, description: "keep me", status: "triage" });
    expect(Date.parse(String(data.updatedAt))).toBeGreaterThanOrEqual(Date.parse(String(issue.updatedAt)));
    expect((await read(t, `KZN-${issue.number}`)).item).toEqual(data);
    const urgent = (await (await t.app.request("/api/issues?priority=1", { headers: AUTH })).json()) as {
      data: Issue[];
    };
    expect(urgent.data.map((i) => i.id)).toContain(issue.id);
    const medium = (await (await t.app.request("/api/issues?priority=3", { headers: AUTH })).json()) as {
      data: Issue[];
    };
    expect(medium.data.map((i) => i.id)).not.toContain(issue.id);
    expect(
      (await (await t.app.request("/api/issues?q=renamed", { headers: AUTH })).json()) as { total: number },
    ).toMatchObject({ total: 1 });
  });

  it("changes nothing (same version) for an empty or no-op patch", async () => {
    const issue = await create(t);
    const response = await t.app.request(`/api/issues/${issue.id}`, patch({ title: issue.title }));
    expect(response.headers.get("etag")).toBe('"1"');
    expect((await t.app.request(`/api/issues/${issue.id}`, patch({}))).headers.get("etag")).toBe('"1"');
  });

  it("enforces the state machine with 409 and the exact message, and keeps completedAt right", async () => {
    const issue = await create(t);
    const move = async (status: string) => t.app.request(`/api/issues/${issue.id}`, patch({ status }));
    const refused = await move("in_progress");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "Cannot move issue from triage to in_progress" });
    expect((await move("todo")).status).toBe(200);
    expect(await (await move("triage")).json()).toEqual({ error: "Cannot move issue from todo to triage" });
    const done = (await (await move("canceled")).json()) as { data: Issue };
    expect(done.data.completedAt).toEqual(expect.any(String));
    expect(await (await move("done")).json()).toEqual({ error: "Cannot move issue from canceled to done" });
    const reopened = (await (await move("backlog")).json()) as { data: Issue };
    expect(reopened.data).toMatchObject({ status: "backlog", completedAt: null });
    expect(await total(t, "?status=backlog")).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [{ titel: "x" }, "unknown field: titel"],
    [{ title: "" }, "title: must be 1..500 characters"],
    [{ status: "open" }, "status: Invalid option"],
    [{ priority: 9 }, "priority: must be between 0 and 4"],
    [{ parentId: "nope" }, "parentId: must be an issue id (iss_…) or KZN-<number>"],
    [{ labels: ["a", "A"] }, "labels: must not repeat a label"],
    [{ labels: ["ghost"] }, "labels: unknown label: ghost"],
    [
      { projectId: "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV" },
      "projectId: project prj_01ARZ3NDEKTSV4RRFFQ69G5FAV does not exist",
    ],
  ])("refuses %j with 400", async (body, message) => {
    const issue = await create(t);
    const response = await t.app.request(`/api/issues/${issue.id}`, patch(body));
    expect(response.status).toBe(400);
    const refusal = (await response.json()) as { error: string; details?: { path: string; message: string }[] };
    expect(refusal.error.startsWith(message)).toBe(true);
    // Every one is a field problem, listed in `details` as a schema's refusals list theirs.
    expect(refusal.details?.length).toBeGreaterThan(0);
  });

  it("answers 404 for an unknown issue", async () => {
    const response = await t.app.request("/api/issues/KZN-9999", patch({ title: "x" }));
    expect(response.status).toBe(404);
  });
});

describe("hierarchy and references", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("nests one level: a parent must exist, a child cannot be a parent, an issue cannot parent itself", async () => {
    const parent = await create(t, { title: "Parent" });
    const child = await create(t, { title: "Child", parentId: `KZN-${parent.number}` });
    expect(child.parentId).toBe(parent.id);
    const grandchild = await t.app.request("/api/issues", jsonPost({ title: "G", type: "task", parentId: child.id }));
    expect(grandchild.status).toBe(400);
    expect(((await grandchild.json()) as { error: string }).error).toBe(
      `parentId: KZN-${child.number} is itself a child; issues nest one level deep`,
    );
    const missing = await t.app.request("/api/issues", jsonPost({ title: "G", type: "task", parentId: "KZN-999" }));
    expect(await missing.json()).toEqual({
      error: "parentId: issue KZN-999 does not exist",
      details: [{ path: "parentId", message: "issue KZN-999 does not exist" }],
    });
    const self = await t.app.request(`/api/issues/${parent.id}`, patch({ parentId: parent.id }));
    expect(await self.json()).toEqual({
      error: "parentId: an issue cannot be its own parent",
      details: [{ path: "parentId", message: "an issue cannot be its own parent" }],
    });
    const other = await create(t, { title: "Other" });
    const parentUnder = await t.app.request(`/api/issues/${parent.id}`, patch({ parentId: other.id }));
    expect(await parentUnder.json()).toMatchObject({
      error: `parentId: KZN-${parent.number} has children, so it cannot become a child`,
    });
  });

  it("shows parent and children on the detail, and lists by parentId", async () => {
    const parent = await create(t, { title: "Epic" });
    const kids = [
      await create(t, { title: "A", parentId: parent.id }),
      await create(t, { title: "B", parentId: parent.id }),
    ];
    const detail = await read(t, parent.id);
    expect(detail.data.parent).toBeNull();
    expect((detail.data.children as Issue[]).map((c) => c.title)).toEqual(["A", "B"]);
    expect((await read(t, kids[0]?.id ?? "")).data.parent).toMatchObject({ id: parent.id, title: "Epic" });
    expect(await total(t, `?parentId=${parent.id}`)).toBe(2);
    expect(await total(t, `?parentId=KZN-${parent.number}`)).toBe(2);
    expect(await total(t, "?parentId=KZN-9999")).toBe(0);
    expect(await total(t, "?parentId=iss_01ARZ3NDEKTSV4RRFFQ69G5FAV")).toBe(0);
    const before = t.db.usage().calls;
    await total(t, `?parentId=${parent.id}`);
    expect(t.db.usage().calls - before).toBe(3);
    const moved = await t.app.request(`/api/issues/${kids[1]?.id}`, patch({ parentId: null }));
    expect(((await moved.json()) as { data: Issue }).data.parentId).toBeNull();
    expect(await total(t, `?parentId=${parent.id}`)).toBe(1);
  });

  it("requires labels and projects to exist, storing labels under their own names", async () => {
    const catalog = catalogService({ db: t.db });
    await catalog.createLabel({ name: "Bug", color: "#ff0000" });
    const project = await catalog.createProject({ name: "Checkout" });
    const issue = await create(t, { labels: ["bug"], projectId: project.record.id });
    expect(issue).toMatchObject({ labels: ["Bug"], projectId: project.record.id });
    expect(await total(t, "?label=Bug")).toBe(1);
    expect(await total(t, `?projectId=${project.record.id}`)).toBe(1);
    const unknown = await t.app.request(
      "/api/issues",
      jsonPost({ title: "x", type: "task", labels: ["nope", "Bug", "zzz"] }),
    );
    expect(await unknown.json()).toMatchObject({ error: "labels: unknown labels: nope, zzz" });
  });
});

describe("ETag and If-Match", () => {
  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("20 concurrent PATCHes with the same If-Match: one 200, nineteen 412, the winner stored", async () => {
      const t = await testApp({}, { emulateConflicts });
      const issue = await create(t);
      const { etag } = await read(t, issue.id);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.request(
            `/api/issues/${issue.id}`,
            patch({ title: `Writer ${i}`, priority: (i % 4) + 1 }, { "If-Match": etag ?? "" }),
          ),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 412)).toHaveLength(19);
      const winning = responses[statuses.indexOf(200)];
      const winner = ((await winning?.json()) as { data: Issue } | undefined)?.data;
      const stored = await read(t, issue.id);
      expect(stored.item).toEqual(winner);
      expect(stored.etag).toBe('"2"');
      const loser = responses[statuses.indexOf(412)];
      expect(await loser?.json()).toEqual({ error: "Resource has changed (ETag mismatch)" });
    });

    it("without If-Match, concurrent PATCHes of different fields all survive", async () => {
      const t = await testApp({}, { emulateConflicts });
      const issue = await create(t);
      const bodies = [
        { title: "New title" },
        { description: "New description" },
        { priority: 2 },
        { agentSummary: "Summary" },
        { status: "backlog" },
        { type: "plan" },
        { commits: [{ sha: "abcdef1", message: "m" }] },
        { hypothesis: { statement: "s", confidence: 0.5, evidence: [], validationCriteria: "v" } },
      ];
      const responses = await Promise.all(bodies.map((body) => t.app.request(`/api/issues/${issue.id}`, patch(body))));
      expect(responses.map((r) => r.status)).toEqual(Array(bodies.length).fill(200));
      const stored = await read(t, issue.id);
      expect(stored.data).toMatchObject({
        title: "New title",
        description: "New description",
        priority: 2,
        agentSummary: "Summary",
        status: "backlog",
        type: "plan",
        commits: [{ sha: "abcdef1", message: "m" }],
        hypothesis: { statement: "s", confidence: 0.5, evidence: [], validationCriteria: "v", prediction: null },
      });
      expect(stored.etag).toBe(`"${bodies.length + 1}"`);
      expect(await total(t, "?status=backlog&type=plan&priority=2")).toBe(1);
    });
  });

  it("refuses a stale or unusable If-Match with 412 and writes nothing; takes a list that names the version", async () => {
    const t = await testApp();
    const issue = await create(t);
    for (const tag of ['"7"', 'W/"1"', "garbage", '"7", W/"1"', '"7", 1']) {
      const response = await t.app.request(`/api/issues/${issue.id}`, patch({ title: "x" }, { "If-Match": tag }));
      expect(response.status, tag).toBe(412);
    }
    expect((await read(t, issue.id)).data.title).toBe("An issue");
    const ok = await t.app.request(`/api/issues/${issue.id}`, patch({ title: "x" }, { "If-Match": '"1"' }));
    expect(ok.status).toBe(200);
    // A list matches when any strong tag in it is the current version.
    const listed = await t.app.request(`/api/issues/${issue.id}`, patch({ title: "y" }, { "If-Match": '"7", "2"' }));
    expect(listed.status).toBe(200);
    expect((await read(t, issue.id)).data.title).toBe("y");
  });
});

describe("DELETE /api/issues/:id", () => {
  it("soft-deletes: 204, then 404 everywhere, out of every list and count", async () => {
    const t = await testApp();
    const keep = await create(t, { status: "todo" });
    const gone = await create(t, { status: "todo", priority: 2 });
    const response = await t.app.request(`/api/issues/${gone.id}`, { method: "DELETE", headers: AUTH });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await t.app.request(`/api/issues/${gone.id}`, { method: "DELETE", headers: AUTH })).status).toBe(404);
    expect((await read(t, gone.id)).status).toBe(404);
    expect((await read(t, `KZN-${gone.number}`)).status).toBe(404);
    expect((await t.app.request(`/api/issues/${gone.id}`, patch({ title: "x" }))).status).toBe(404);
    for (const query of [
      "",
      "?status=todo",
      "?priority=2",
      "?sort=priority",
      "?sort=-updatedAt",
      "?q=issue",
      "?status=todo,triage",
    ]) {
      const list = (await (await t.app.request(`/api/issues${query}`, { headers: AUTH })).json()) as {
        data: Issue[];
        total: number;
      };
      expect(list.data.map((i) => i.id)).not.toContain(gone.id);
      expect(list.total).toBe(query === "?priority=2" ? 0 : 1);
    }
    expect((await read(t, keep.id)).status).toBe(200);
  });

  it("honours If-Match and keeps a parent with children (409)", async () => {
    const t = await testApp();
    const parent = await create(t);
    await create(t, { parentId: parent.id });
    const stale = await t.app.request(`/api/issues/${parent.id}`, {
      method: "DELETE",
      headers: { ...AUTH, "If-Match": '"5"' },
    });
    expect(stale.status).toBe(412);
    const refused = await t.app.request(`/api/issues/${parent.id}`, { method: "DELETE", headers: AUTH });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: `Issue KZN-${parent.number} has 1 child issues; move or delete them first`,
    });
  });
});
