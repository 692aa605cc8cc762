import { beforeAll, describe, expect, it } from "vitest";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { catalogLookups, catalogService, issueStore } from "../../core/src/services.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Label = { id: string; name: string; color: string; createdAt: string };
type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };

async function createLabel(t: TestApp, name: string, color = "#AbCdEf"): Promise<Label> {
  const response = await t.app.request("/api/labels", jsonPost({ name, color }));
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as Body<Label>).data;
}

const remove = (t: TestApp, id: string, headers: Record<string, string> = {}) =>
  t.app.request(`/api/labels/${id}`, { method: "DELETE", headers: { ...AUTH, ...headers } });

describe("labels", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("creates a label, storing the colour lowercase, with Location and ETag", async () => {
    const response = await t.app.request("/api/labels", jsonPost({ name: "bug", color: "#FF00aa" }));
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as Body<Label>;
    expect(data).toEqual({
      id: expect.stringMatching(/^lbl_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "bug",
      color: "#ff00aa",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(response.headers.get("location")).toBe(`/api/labels/${data.id}`);
    expect(response.headers.get("etag")).toBe('"1"');
  });

  it("refuses a second label with the same name in any case (409)", async () => {
    await createLabel(t, "Perf");
    for (const name of ["Perf", "perf", "PERF"]) {
      const response = await t.app.request("/api/labels", jsonPost({ name, color: "#000000" }));
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: `Label "${name}" already exists` });
    }
  });

  it("validates name and colour, and refuses unknown fields", async () => {
    const cases: [unknown, string][] = [
      [{ color: "#000000" }, "name: Invalid input: expected string, received undefined"],
      [{ name: "", color: "#000000" }, "name: must be 1..50 characters"],
      [{ name: "x".repeat(51), color: "#000000" }, "name: must be 1..50 characters"],
      [{ name: "x" }, "color: Invalid input: expected string, received undefined"],
      [{ name: "x", color: "red" }, "color: must be a colour #rrggbb"],
      [{ name: "x", color: "#fff" }, "color: must be a colour #rrggbb"],
      [{ name: "x", color: "#gggggg" }, "color: must be a colour #rrggbb"],
      [{ name: "x", color: "#0000000" }, "color: must be a colour #rrggbb"],
      [{ name: "x", color: "#000000", description: "d" }, "unknown field: description"],
    ];
    for (const [body, error] of cases) {
      const response = await t.app.request("/api/labels", jsonPost(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe(error);
    }
    expect((await createLabel(t, "x".repeat(50))).name).toHaveLength(50);
  });

  it("deletes a label (204, then 404), freeing its name; honours If-Match", async () => {
    const label = await createLabel(t, "Temporary");
    expect((await remove(t, label.id, { "If-Match": '"2"' })).status).toBe(412);
    const deleted = await remove(t, label.id, { "If-Match": '"1"' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await remove(t, label.id)).status).toBe(404);
    expect(await (await remove(t, "lbl_nope")).json()).toEqual({ error: "Label lbl_nope not found" });
    expect((await createLabel(t, "TEMPORARY")).name).toBe("TEMPORARY");
  });

  it("refuses to delete a label issues carry (409), and does not strip it from them", async () => {
    const label = await createLabel(t, "in-use");
    const issues = issueStore({ db: t.db });
    await issues.create(newIssue({ title: "one", type: "task", labels: ["in-use"] }));
    await issues.create(newIssue({ title: "two", type: "task", labels: ["in-use"] }));
    const refused = await remove(t, label.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: 'Label "in-use" is used by 2 issues' });
    const listed = (await (await t.app.request("/api/labels?limit=100", { headers: AUTH })).json()) as ListBody<Label>;
    expect(listed.data.map((l) => l.id)).toContain(label.id);
  });

  it("resolves names case-insensitively to the stored spelling, for the issue service", async () => {
    await createLabel(t, "Frontend");
    const lookups = catalogLookups({ db: t.db });
    expect(await lookups.resolveLabels(["frontend", "FRONTEND", "nope", "bug", "nope"])).toEqual({
      found: ["Frontend", "bug"],
      missing: ["nope"],
    });
    expect((await lookups.resolveLabels(["Bug", "backend"])).missing).toEqual(["backend"]);
    expect(await lookups.resolveLabels([])).toEqual({ found: [], missing: [] });
    const before = t.db.usage().calls;
    await lookups.resolveLabels(Array.from({ length: 20 }, (_, i) => `name-${i}`));
    expect(t.db.usage().calls - before).toBe(1);
  });

  it("answers projectExists for the issue service", async () => {
    const project = await catalogService({ db: t.db }).createProject({ name: "p" });
    const lookups = catalogLookups({ db: t.db });
    expect(await lookups.projectExists(project.record.id)).toBe(true);
    expect(await lookups.projectExists("prj_01ARZ3NDEKTSV4RRFFQ69G5FAV")).toBe(false);
    expect(await lookups.projectExists("nope")).toBe(false);
  });
});

describe("labels under concurrency", () => {
  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("twenty creates of one name (in varying case) give exactly one 201 and nineteen 409", async () => {
      const t = await testApp({}, { emulateConflicts });
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.request("/api/labels", jsonPost({ name: i % 2 === 0 ? "race" : "RACE", color: "#123456" })),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(19);
      const listed = (await (await t.app.request("/api/labels", { headers: AUTH })).json()) as ListBody<Label>;
      expect(listed.total).toBe(1);
      expect(listed.data).toHaveLength(1);
    });

    it("twenty creates of different names all succeed and all count", async () => {
      const t = await testApp({}, { emulateConflicts });
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.request("/api/labels", jsonPost({ name: `l${i}`, color: "#123456" })),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
      const listed = (await (
        await t.app.request("/api/labels?limit=100", { headers: AUTH })
      ).json()) as ListBody<Label>;
      expect(listed.total).toBe(20);
      expect(new Set(listed.data.map((label) => label.name)).size).toBe(20);
    });
  });
});

describe("GET /api/labels", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    for (let i = 0; i < 25; i++) await createLabel(t, `label-${i}`);
  });

  async function list(query: string) {
    const response = await t.app.request(`/api/labels${query}`, { headers: AUTH });
    return {
      status: response.status,
      body: (await response.json()) as ListBody<Label>,
      link: response.headers.get("link"),
    };
  }

  it("pages 20/5 with total 25, newest first, and an empty page past the end", async () => {
    const first = await list("");
    const second = await list("?page=2");
    expect(first.body.data).toHaveLength(20);
    expect(second.body.data).toHaveLength(5);
    expect(first.body.total).toBe(25);
    expect(second.body.total).toBe(25);
    expect([...first.body.data, ...second.body.data].map((label) => label.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `label-${24 - i}`),
    );
    expect(first.link).toBe('<http://localhost/api/labels?page=2&limit=20>; rel="next"');
    expect(second.link).toBe('<http://localhost/api/labels?page=1&limit=20>; rel="prev"');
    expect(await list("?page=3")).toEqual({ status: 200, body: { data: [], total: 25 }, link: expect.any(String) });
    expect(await list("?page=2&limit=100")).toMatchObject({ status: 200, body: { data: [], total: 25 } });
  });

  it("walks every limit without gaps or repeats", async () => {
    for (const limit of [1, 7, 13]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(25 / limit); page++) {
        seen.push(...(await list(`?limit=${limit}&page=${page}`)).body.data.map((label) => label.name));
      }
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `label-${24 - i}`));
    }
  });

  it("takes no filters", async () => {
    const response = await list("?name=label-1");
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "unknown field: name" });
  });

  it("reads a page in at most three DynamoDB calls", async () => {
    const before = t.db.usage().calls;
    await list("?page=2&limit=7");
    expect(t.db.usage().calls - before).toBeLessThanOrEqual(3);
  });
});
