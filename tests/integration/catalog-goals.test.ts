import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Goal = {
  id: string;
  title: string;
  description: string | null;
  metric: string | null;
  targetValue: number | null;
  currentValue: number | null;
  unit: string | null;
  status: string;
  projectId: string | null;
  createdAt: string;
  updatedAt: string;
};
type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };

const MISSING_GOAL = "gol_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const GOAL_VALUE_RANGE = "must be a number between -9007199254740991 and 9007199254740991, or null";

function send(method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { ...AUTH, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

async function create<T>(t: TestApp, path: string, body: Record<string, unknown>): Promise<T> {
  const response = await t.app.request(path, jsonPost(body));
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as Body<T>).data;
}

const createGoal = (t: TestApp, body: Record<string, unknown> = {}) =>
  create<Goal>(t, "/api/goals", { title: "Cut churn", ...body });
const createProject = (t: TestApp, body: Record<string, unknown> = {}) =>
  create<{ id: string; goalId: string | null }>(t, "/api/projects", { name: "Checkout", ...body });

describe("goals: create, read, update, delete", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("creates a goal with defaults, absent values null, with Location and ETag", async () => {
    const response = await t.app.request("/api/goals", jsonPost({ title: "Cut churn" }));
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as Body<Goal>;
    expect(data).toEqual({
      id: expect.stringMatching(/^gol_[0-9A-HJKMNP-TV-Z]{26}$/),
      title: "Cut churn",
      description: null,
      metric: null,
      targetValue: null,
      currentValue: null,
      unit: null,
      status: "active",
      projectId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: data.createdAt,
    });
    expect(response.headers.get("location")).toBe(`/api/goals/${data.id}`);
    expect(response.headers.get("etag")).toBe('"1"');
  });

  it("stores every field and reads it back with its ETag", async () => {
    const project = await createProject(t);
    const input = {
      title: "Checkout conversion",
      description: "Raise it",
      metric: "conversion rate",
      targetValue: 4.5,
      currentValue: 3.1,
      unit: "%",
      status: "achieved",
      projectId: project.id,
    };
    const goal = await createGoal(t, input);
    expect(goal).toMatchObject(input);
    const response = await t.app.request(`/api/goals/${goal.id}`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"1"');
    expect(((await response.json()) as Body<Goal>).data).toEqual(goal);
  });

  it("answers 404 for missing and malformed ids", async () => {
    for (const id of [MISSING_GOAL, "nope", "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV"]) {
      const get = await t.app.request(`/api/goals/${id}`, { headers: AUTH });
      expect(get.status).toBe(404);
      expect(await get.json()).toEqual({ error: `Goal ${id} not found` });
      expect((await t.app.request(`/api/goals/${id}`, send("PATCH", { title: "x" }))).status).toBe(404);
      expect((await t.app.request(`/api/goals/${id}`, send("DELETE"))).status).toBe(404);
    }
  });

  it("keeps a measure at the edge of what is exact, and refuses one past it on a PATCH", async () => {
    const goal = await createGoal(t, { targetValue: Number.MAX_SAFE_INTEGER, currentValue: -0.125 });
    expect([goal.targetValue, goal.currentValue]).toEqual([9007199254740991, -0.125]);
    const read = await t.app.request(`/api/goals/${goal.id}`, { headers: AUTH });
    expect(((await read.json()) as Body<Goal>).data.targetValue).toBe(9007199254740991);
    const past = await t.app.request(`/api/goals/${goal.id}`, send("PATCH", { currentValue: -(2 ** 53) }));
    expect(past.status).toBe(400);
    expect(((await past.json()) as { error: string }).error).toBe(`currentValue: ${GOAL_VALUE_RANGE}`);
  });

  it("patches partially, clears with null and honours If-Match", async () => {
    const goal = await createGoal(t, { metric: "churn", targetValue: 2 });
    const stale = await t.app.request(
      `/api/goals/${goal.id}`,
      send("PATCH", { currentValue: 3 }, { "If-Match": '"7"' }),
    );
    expect(stale.status).toBe(412);
    const response = await t.app.request(
      `/api/goals/${goal.id}`,
      send("PATCH", { currentValue: 3, metric: null, status: "abandoned" }, { "If-Match": '"1"' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"2"');
    expect(((await response.json()) as Body<Goal>).data).toEqual({
      ...goal,
      currentValue: 3,
      metric: null,
      status: "abandoned",
      updatedAt: expect.any(String),
    });
  });

  it("validates bodies", async () => {
    const cases: [unknown, string][] = [
      [{}, "title: Invalid input: expected string, received undefined"],
      [{ title: "" }, "title: must be 1..200 characters"],
      [{ title: "x".repeat(201) }, "title: must be 1..200 characters"],
      [{ title: "x", metric: "m".repeat(201) }, "metric: must be at most 200 characters"],
      [{ title: "x", unit: "u".repeat(51) }, "unit: must be at most 50 characters"],
      [{ title: "x", targetValue: "10" }, `targetValue: ${GOAL_VALUE_RANGE}`],
      // Past 2^53 a JSON number is no longer exact, and the table would refuse it.
      [{ title: "x", targetValue: 2 ** 53 }, `targetValue: ${GOAL_VALUE_RANGE}`],
      [{ title: "x", currentValue: -1e300 }, `currentValue: ${GOAL_VALUE_RANGE}`],
      [{ title: "x", status: "done" }, 'status: Invalid option: expected one of "active"|"achieved"|"abandoned"'],
      [{ title: "x", projectId: MISSING_GOAL }, "projectId: must be a project id (prj_…)"],
      [{ title: "x", target: 1 }, "unknown field: target"],
    ];
    for (const [body, error] of cases) {
      const response = await t.app.request("/api/goals", jsonPost(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe(error);
    }
  });

  it("requires the project a goal points at to exist", async () => {
    const missing = "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV";
    const response = await t.app.request("/api/goals", jsonPost({ title: "x", projectId: missing }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(`projectId: project ${missing} does not exist`);
  });

  it("refuses to delete a goal a project points at, until the project lets go; then 204, then 404", async () => {
    const goal = await createGoal(t);
    const a = await createProject(t, { goalId: goal.id });
    const b = await createProject(t);
    expect((await t.app.request(`/api/projects/${b.id}`, send("PATCH", { goalId: goal.id }))).status).toBe(200);
    const refused = await t.app.request(`/api/goals/${goal.id}`, send("DELETE"));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: `Goal ${goal.id} is used by 2 projects` });
    // Pointing elsewhere and deleting the project both let go.
    const other = await createGoal(t, { title: "Other" });
    expect((await t.app.request(`/api/projects/${a.id}`, send("PATCH", { goalId: other.id }))).status).toBe(200);
    expect((await t.app.request(`/api/projects/${b.id}`, send("DELETE"))).status).toBe(204);
    // Pointing at a goal does not change the goal's ETag.
    const read = await t.app.request(`/api/goals/${goal.id}`, { headers: AUTH });
    expect(read.headers.get("etag")).toBe('"1"');
    const deleted = await t.app.request(`/api/goals/${goal.id}`, send("DELETE", undefined, { "If-Match": '"1"' }));
    expect(deleted.status).toBe(204);
    expect((await t.app.request(`/api/goals/${goal.id}`, send("DELETE"))).status).toBe(404);
    expect((await t.app.request(`/api/goals/${other.id}`, send("DELETE"))).status).toBe(409);
  });

  it("refuses to delete a project a goal points at", async () => {
    const project = await createProject(t);
    const goal = await createGoal(t, { projectId: project.id });
    const refused = await t.app.request(`/api/projects/${project.id}`, send("DELETE"));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: `Project ${project.id} has 1 goal` });
    expect((await t.app.request(`/api/goals/${goal.id}`, send("PATCH", { projectId: null }))).status).toBe(200);
    expect((await t.app.request(`/api/projects/${project.id}`, send("DELETE"))).status).toBe(204);
  });

  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("never lets a project point at a goal deleted concurrently", async () => {
      const t = await testApp({}, { emulateConflicts });
      for (let round = 0; round < 5; round++) {
        const goal = await createGoal(t);
        const [created, deleted] = await Promise.all([
          t.app.request("/api/projects", jsonPost({ name: "racer", goalId: goal.id })),
          t.app.request(`/api/goals/${goal.id}`, send("DELETE")),
        ]);
        const goalGone = (await t.app.request(`/api/goals/${goal.id}`, { headers: AUTH })).status === 404;
        if (created.status === 201) {
          expect(deleted.status).toBe(409);
          expect(goalGone).toBe(false);
        } else {
          expect(created.status).toBe(400);
          expect(deleted.status).toBe(204);
          expect(goalGone).toBe(true);
        }
      }
    });
  });
});

describe("GET /api/goals", () => {
  let t: TestApp;
  let projects: { id: string }[];
  beforeAll(async () => {
    t = await testApp();
    projects = [await createProject(t), await createProject(t)];
    const statuses = ["active", "achieved", "abandoned"];
    for (let i = 0; i < 12; i++) {
      await createGoal(t, { title: `G${i}`, status: statuses[i % 3], projectId: i % 2 === 0 ? projects[0]?.id : null });
    }
  });

  async function titles(query: string) {
    const response = await t.app.request(`/api/goals${query}`, { headers: AUTH });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ListBody<Goal>;
    return { titles: body.data.map((goal) => goal.title), total: body.total };
  }

  it("lists newest first, paginated with total", async () => {
    expect(await titles("?limit=5&page=2")).toEqual({ titles: ["G6", "G5", "G4", "G3", "G2"], total: 12 });
    expect(await titles("?limit=5&page=4")).toEqual({ titles: [], total: 12 });
  });

  it("filters by status, by projectId, and by both", async () => {
    expect(await titles("?status=achieved")).toEqual({ titles: ["G10", "G7", "G4", "G1"], total: 4 });
    expect(await titles(`?projectId=${projects[0]?.id}`)).toEqual({
      titles: ["G10", "G8", "G6", "G4", "G2", "G0"],
      total: 6,
    });
    expect(await titles(`?projectId=${projects[0]?.id}&status=active`)).toEqual({ titles: ["G6", "G0"], total: 2 });
    expect(await titles(`?projectId=${projects[0]?.id}&status=active&limit=1&page=2`)).toEqual({
      titles: ["G0"],
      total: 2,
    });
    expect(await titles(`?projectId=${projects[1]?.id}`)).toEqual({ titles: [], total: 0 });
  });

  it("moves a goal between listings when its status or project changes", async () => {
    const { data } = (await (await t.app.request("/api/goals?status=abandoned&limit=1", { headers: AUTH })).json()) as {
      data: Goal[];
    };
    const goal = data[0] as Goal;
    const moved = await t.app.request(
      `/api/goals/${goal.id}`,
      send("PATCH", { status: "active", projectId: projects[1]?.id }),
    );
    expect(moved.status).toBe(200);
    expect((await titles("?status=abandoned")).total).toBe(3);
    expect((await titles("?status=active")).total).toBe(5);
    expect(await titles(`?projectId=${projects[1]?.id}&status=active`)).toEqual({ titles: [goal.title], total: 1 });
    expect((await titles("")).total).toBe(12);
  });

  it("refuses unknown parameters and malformed project ids", async () => {
    for (const query of ["?project=prj_x", "?projectId=nope", "?status=open", "?limit=101"]) {
      const response = await t.app.request(`/api/goals${query}`, { headers: AUTH });
      expect(response.status, query).toBe(400);
    }
  });
});
