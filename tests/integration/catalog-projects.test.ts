import { beforeAll, describe, expect, it } from "vitest";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { issueStore } from "../../core/src/services.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Project = {
  id: string;
  name: string;
  description: string | null;
  status: string;
  health: string;
  goalId: string | null;
  limits: { maxActivePerAgent: number | null; dailyCostBudgetUsd: number | null };
  createdAt: string;
  updatedAt: string;
};
type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };

const MISSING_PROJECT = "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV";

function send(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { ...AUTH, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

async function createProject(t: TestApp, body: Record<string, unknown> = {}): Promise<Project> {
  const response = await t.app.request("/api/projects", jsonPost({ name: "Checkout", ...body }));
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as Body<Project>).data;
}

async function getProject(t: TestApp, id: string) {
  const response = await t.app.request(`/api/projects/${id}`, { headers: AUTH });
  return {
    response,
    body: (await response.json()) as Body<Project & { issueCounts: Record<string, number>; usage: unknown }>,
  };
}

describe("projects: create, read, update, delete", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("creates a project with defaults, absent values null, with Location and ETag", async () => {
    const response = await t.app.request("/api/projects", jsonPost({ name: "Checkout revamp" }));
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as Body<Project>;
    expect(data).toEqual({
      id: expect.stringMatching(/^prj_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "Checkout revamp",
      description: null,
      status: "backlog",
      health: "on_track",
      goalId: null,
      limits: { maxActivePerAgent: null, dailyCostBudgetUsd: null, maxInReview: null, maxCostPerDispatchUsd: null },
      sources: { codehost: [], errortracker: [], analytics: [] },
      automation: { acceptAtPriority: null, acceptAtSignals: null },
      autonomy: { planApproval: false },
      verifyHours: 72,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: data.createdAt,
    });
    expect(response.headers.get("location")).toBe(`/api/projects/${data.id}`);
    expect(response.headers.get("etag")).toBe('"1"');
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("reads the project back with issue counts for all seven statuses, zeros included", async () => {
    const project = await createProject(t, { description: "Make it fast", status: "active", health: "at_risk" });
    const issues = issueStore({ db: t.db });
    await issues.create(newIssue({ title: "a", type: "task", projectId: project.id }));
    await issues.create(newIssue({ title: "b", type: "task", projectId: project.id, status: "todo" }));
    await issues.create(newIssue({ title: "c", type: "task", projectId: project.id, status: "todo" }));
    await issues.create(newIssue({ title: "elsewhere", type: "task" }));
    const { response, body } = await getProject(t, project.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"1"');
    expect(body.data).toEqual({
      ...project,
      issueCounts: { triage: 1, backlog: 0, todo: 2, in_progress: 0, in_review: 0, done: 0, canceled: 0 },
      usage: {
        date: new Date().toISOString().slice(0, 10),
        reports: 0,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
      },
    });
  });

  it("answers 404 for missing and malformed ids", async () => {
    for (const id of [MISSING_PROJECT, "nope", "gol_01ARZ3NDEKTSV4RRFFQ69G5FAV"]) {
      const { response, body } = await getProject(t, id);
      expect(response.status).toBe(404);
      expect(body).toEqual({ error: `Project ${id} not found` });
      const patch = await t.app.request(`/api/projects/${id}`, send("PATCH", { name: "x" }));
      expect(patch.status).toBe(404);
      const del = await t.app.request(`/api/projects/${id}`, { method: "DELETE", headers: AUTH });
      expect(del.status).toBe(404);
    }
  });

  it("patches only the given fields, bumps the version and updatedAt, and clears with null", async () => {
    const project = await createProject(t, { description: "old" });
    const response = await t.app.request(
      `/api/projects/${project.id}`,
      send("PATCH", { status: "active", description: null }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"2"');
    const { data } = (await response.json()) as Body<Project>;
    expect(data).toEqual({ ...project, status: "active", description: null, updatedAt: expect.any(String) });
    expect(data.updatedAt >= project.updatedAt).toBe(true);
    const { body } = await getProject(t, project.id);
    expect(body.data).toMatchObject({ ...data });
  });

  it("writes nothing for a PATCH that changes nothing (same ETag)", async () => {
    const project = await createProject(t);
    for (const body of [{}, { name: project.name, status: "backlog" }]) {
      const response = await t.app.request(`/api/projects/${project.id}`, send("PATCH", body));
      expect(response.status).toBe(200);
      expect(response.headers.get("etag")).toBe('"1"');
      expect(((await response.json()) as Body<Project>).data).toEqual(project);
    }
  });

  it("honours If-Match on PATCH and DELETE: 412 on a mismatch, success on a match", async () => {
    const project = await createProject(t);
    // A list matches when any strong tag in it names the version: none of these does.
    for (const tag of ['"2"', 'W/"1"', '"abc"', '"2", "3"', 'W/"1", "2"']) {
      const stale = await t.app.request(
        `/api/projects/${project.id}`,
        send("PATCH", { name: "x" }, { "If-Match": tag }),
      );
      expect(stale.status).toBe(412);
      expect(await stale.json()).toEqual({ error: "Resource has changed (ETag mismatch)" });
    }
    const ok = await t.app.request(`/api/projects/${project.id}`, send("PATCH", { name: "y" }, { "If-Match": '"1"' }));
    expect(ok.status).toBe(200);
    const staleDelete = await t.app.request(`/api/projects/${project.id}`, {
      method: "DELETE",
      headers: { ...AUTH, "If-Match": '"1"' },
    });
    expect(staleDelete.status).toBe(412);
    const del = await t.app.request(`/api/projects/${project.id}`, {
      method: "DELETE",
      headers: { ...AUTH, "If-Match": '"2"' },
    });
    expect(del.status).toBe(204);
  });

  it("deletes with 204 and no body; a second DELETE is 404", async () => {
    const project = await createProject(t);
    const first = await t.app.request(`/api/projects/${project.id}`, { method: "DELETE", headers: AUTH });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe("");
    const second = await t.app.request(`/api/projects/${project.id}`, { method: "DELETE", headers: AUTH });
    expect(second.status).toBe(404);
    expect((await getProject(t, project.id)).response.status).toBe(404);
  });

  it("refuses to delete a project that has issues (409), and allows it once they are gone", async () => {
    const project = await createProject(t);
    const issues = issueStore({ db: t.db });
    await issues.create(newIssue({ title: "a", type: "task", projectId: project.id }));
    const second = await issues.create(newIssue({ title: "b", type: "task", projectId: project.id }));
    const refused = await t.app.request(`/api/projects/${project.id}`, { method: "DELETE", headers: AUTH });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: `Project ${project.id} has 2 issues` });
    expect((await getProject(t, project.id)).response.status).toBe(200);
    await t.db.transactWrite(issues.prepareUpdate(second, { projectId: null }, new Date()).writes);
    const stillOne = await t.app.request(`/api/projects/${project.id}`, { method: "DELETE", headers: AUTH });
    expect(await stillOne.json()).toEqual({ error: `Project ${project.id} has 1 issue` });
  });

  it("validates bodies: types, sizes, enums, id shapes, unknown fields", async () => {
    const cases: [unknown, string][] = [
      [{}, "name: Invalid input: expected string, received undefined"],
      [{ name: "" }, "name: must be 1..200 characters"],
      [{ name: "x".repeat(201) }, "name: must be 1..200 characters"],
      [{ name: "x", description: "d".repeat(10_001) }, "description: must be at most 10000 characters"],
      [
        { name: "x", status: "done" },
        'status: Invalid option: expected one of "backlog"|"planned"|"active"|"paused"|"completed"|"canceled"',
      ],
      [{ name: "x", health: "fine" }, 'health: Invalid option: expected one of "on_track"|"at_risk"|"off_track"'],
      [{ name: "x", goalId: "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV" }, "goalId: must be a goal id (gol_…)"],
      [{ name: "x", nam: "typo" }, "unknown field: nam"],
      [{ name: 5 }, "name: Invalid input: expected string, received number"],
      [[], "Invalid input: expected object, received array"],
    ];
    for (const [body, error] of cases) {
      const response = await t.app.request("/api/projects", jsonPost(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe(error);
    }
    const project = await createProject(t);
    const patchCases: [unknown, string][] = [
      [{ name: null }, "name: Invalid input: expected string, received null"],
      [{ status: null }, expect.stringMatching(/^status: /) as unknown as string],
      [{ id: "prj_x" }, "unknown field: id"],
      [{ createdAt: "2020-01-01T00:00:00.000Z", foo: 1 }, "unknown fields: createdAt, foo"],
    ];
    for (const [body, error] of patchCases) {
      const response = await t.app.request(`/api/projects/${project.id}`, send("PATCH", body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toEqual(error);
    }
    const notJson = await t.app.request(`/api/projects/${project.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(notJson.status).toBe(415);
    const malformed = await t.app.request("/api/projects", jsonPost("{nope"));
    expect(malformed.status).toBe(400);
  });

  it("requires the goal a project points at to exist", async () => {
    const missing = "gol_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const response = await t.app.request("/api/projects", jsonPost({ name: "x", goalId: missing }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: `goalId: goal ${missing} does not exist`,
      details: [{ path: "goalId", message: `goal ${missing} does not exist` }],
    });
    const project = await createProject(t);
    const patch = await t.app.request(`/api/projects/${project.id}`, send("PATCH", { goalId: missing }));
    expect(patch.status).toBe(400);
    expect((await getProject(t, project.id)).body.data.goalId).toBeNull();
  });

  it("requires the bearer token on every route", async () => {
    for (const [method, path] of [
      ["GET", "/api/projects"],
      ["POST", "/api/projects"],
      ["GET", `/api/projects/${MISSING_PROJECT}`],
      ["PATCH", `/api/projects/${MISSING_PROJECT}`],
      ["DELETE", `/api/projects/${MISSING_PROJECT}`],
    ]) {
      const response = await t.app.request(path ?? "", { method });
      expect(response.status).toBe(401);
    }
  });
});

describe("projects: concurrent PATCHes", () => {
  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp({}, { emulateConflicts });
    });

    it("with the same If-Match: exactly one 200, nineteen 412, and the stored project is the winner's", async () => {
      const project = await createProject(t);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.request(`/api/projects/${project.id}`, send("PATCH", { name: `Writer ${i}` }, { "If-Match": '"1"' })),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(19);
      const winner = responses.find((response) => response.status === 200);
      if (!winner) throw new Error("no PATCH won");
      expect(winner.headers.get("etag")).toBe('"2"');
      const won = ((await winner.json()) as Body<Project>).data;
      const { response, body } = await getProject(t, project.id);
      expect(response.headers.get("etag")).toBe('"2"');
      const { issueCounts: _, usage: _usage, ...stored } = body.data;
      expect(stored).toEqual(won);
    });

    it("without If-Match, changes of different fields all survive", async () => {
      const project = await createProject(t);
      const changes = [
        { name: "Renamed" },
        { description: "Now with a description" },
        { status: "active" },
        { health: "off_track" },
      ];
      const responses = await Promise.all(
        [...changes, ...changes].map((change) => t.app.request(`/api/projects/${project.id}`, send("PATCH", change))),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
      const { response, body } = await getProject(t, project.id);
      expect(body.data).toMatchObject(Object.assign({}, ...changes));
      // Each distinct change wrote once; its repeat found nothing to change.
      expect(Number(JSON.parse(response.headers.get("etag") ?? "0"))).toBe(1 + changes.length);
      const listed = (await (
        await t.app.request("/api/projects?status=active", { headers: AUTH })
      ).json()) as ListBody<Project>;
      expect(listed.data.map((p) => p.id)).toEqual([project.id]);
      expect(listed.total).toBe(1);
    });
  });
});

describe("GET /api/projects", () => {
  let t: TestApp;
  let created: Project[];
  beforeAll(async () => {
    t = await testApp();
    created = [];
    const statuses = ["backlog", "planned", "active"];
    for (let i = 0; i < 25; i++) created.push(await createProject(t, { name: `P${i}`, status: statuses[i % 3] }));
  });

  async function list(query: string) {
    const response = await t.app.request(`/api/projects${query}`, { headers: AUTH });
    return {
      status: response.status,
      body: (await response.json()) as ListBody<Project>,
      link: response.headers.get("link"),
    };
  }

  it("lists newest first in pages of 20 with total and Link", async () => {
    const first = await list("");
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(25);
    expect(first.body.data.map((p) => p.name)).toEqual(Array.from({ length: 20 }, (_, i) => `P${24 - i}`));
    expect(first.link).toBe('<http://localhost/api/projects?page=2&limit=20>; rel="next"');
    const second = await list("?page=2");
    expect(second.body.data.map((p) => p.name)).toEqual(["P4", "P3", "P2", "P1", "P0"]);
    expect(second.link).toBe('<http://localhost/api/projects?page=1&limit=20>; rel="prev"');
    const past = await list("?page=3");
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], total: 25 });
    expect(first.body.data[0]).toEqual(created[24]);
  });

  it("filters by status, counting only matches", async () => {
    const active = await list("?status=active&limit=5");
    expect(active.body.total).toBe(8);
    expect(active.body.data.map((p) => p.name)).toEqual(["P23", "P20", "P17", "P14", "P11"]);
    expect(active.link).toBe('<http://localhost/api/projects?status=active&limit=5&page=2>; rel="next"');
    const none = await list("?status=paused");
    expect(none.body).toEqual({ data: [], total: 0 });
  });

  it("refuses unknown parameters and bad values", async () => {
    for (const [query, error] of [
      ["?foo=1", "unknown field: foo"],
      ["?status=done", expect.stringMatching(/^status: Invalid option/)],
      ["?limit=0", "limit: limit must be an integer between 1 and 100"],
      ["?page=abc", "page: page must be an integer between 1 and 10000"],
    ] as const) {
      const { status, body } = await list(query);
      expect(status).toBe(400);
      expect((body as unknown as { error: string }).error).toEqual(error);
    }
  });
});
