/** Projects' limits (API.md 3.3): `limits` on projects, set on create, replaced by a PATCH, checked. */
import { describe, expect, it } from "vitest";
import { projectKey } from "../../core/src/catalog/keys.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { AUTH, dataOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";

type Limits = { maxActivePerAgent: number | null; dailyCostBudgetUsd: number | null };
type Project = { id: string; name: string; limits: Limits };
type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };

function send(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { ...AUTH, "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

async function createProject(t: TestApp, body: Record<string, unknown> = {}): Promise<Project> {
  return dataOf<Project>(t.app.request("/api/projects", jsonPost({ name: "Limited", ...body })), 201);
}

async function createIssues(
  t: TestApp,
  count: number,
  fields: Record<string, unknown>,
  title = "task",
): Promise<Issue[]> {
  const made: Issue[] = [];
  for (let i = 0; i < count; i++) {
    made.push(
      await dataOf<Issue>(
        t.app.request("/api/issues", jsonPost({ title: `${title} ${i}`, type: "task", status: "todo", ...fields })),
        201,
      ),
    );
  }
  return made;
}

const claim = (app: Requester, body: Record<string, unknown>) => app.request("/api/dispatch/claim", jsonPost(body));
const claimed = (app: Requester, body: Record<string, unknown>) => dataOf<Claimed>(claim(app, body), 201);

describe("projects' limits", () => {
  it("are both null by default, set on create, replaced whole by a PATCH (a key left out is null)", async () => {
    const t = await testApp();
    const plain = await createProject(t);
    expect(plain.limits).toEqual({ maxActivePerAgent: null, dailyCostBudgetUsd: null });
    const both = await createProject(t, { limits: { maxActivePerAgent: 3, dailyCostBudgetUsd: 12.5 } });
    expect(both.limits).toEqual({ maxActivePerAgent: 3, dailyCostBudgetUsd: 12.5 });
    const one = await createProject(t, { limits: { maxActivePerAgent: 100 } });
    expect(one.limits).toEqual({ maxActivePerAgent: 100, dailyCostBudgetUsd: null });

    const read = await dataOf<Project>(t.app.request(`/api/projects/${both.id}`, { headers: AUTH }));
    expect(read.limits).toEqual({ maxActivePerAgent: 3, dailyCostBudgetUsd: 12.5 });
    const listed = await dataOf<Project[]>(t.app.request("/api/projects", { headers: AUTH }));
    expect(listed.find((project) => project.id === both.id)?.limits).toEqual(read.limits);

    const replaced = await t.app.request(
      `/api/projects/${both.id}`,
      send("PATCH", { limits: { dailyCostBudgetUsd: 0.01 } }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get("etag")).toBe('"2"');
    expect(((await replaced.json()) as { data: Project }).data.limits).toEqual({
      maxActivePerAgent: null,
      dailyCostBudgetUsd: 0.01,
    });
    // The same limits again change nothing (same ETag); a name alone leaves them.
    const same = await t.app.request(
      `/api/projects/${both.id}`,
      send("PATCH", { limits: { dailyCostBudgetUsd: 0.01 } }),
    );
    expect(same.headers.get("etag")).toBe('"2"');
    const renamed = await dataOf<Project>(
      t.app.request(`/api/projects/${both.id}`, send("PATCH", { name: "Renamed" })),
    );
    expect(renamed.limits).toEqual({ maxActivePerAgent: null, dailyCostBudgetUsd: 0.01 });
    const cleared = await dataOf<Project>(t.app.request(`/api/projects/${both.id}`, send("PATCH", { limits: {} })));
    expect(cleared.limits).toEqual({ maxActivePerAgent: null, dailyCostBudgetUsd: null });
  });

  it("answer 400 naming the field for a bad value or an unknown key, on create and on PATCH", async () => {
    const t = await testApp();
    const perAgent = "limits.maxActivePerAgent: must be an integer 1..100, or null";
    const budget = "limits.dailyCostBudgetUsd: must be a number > 0 and ≤ 1000000 (US dollars), or null";
    const cases: [unknown, string][] = [
      [{ maxActivePerAgent: 0 }, perAgent],
      [{ maxActivePerAgent: 101 }, perAgent],
      [{ maxActivePerAgent: 1.5 }, perAgent],
      [{ maxActivePerAgent: "2" }, perAgent],
      [{ dailyCostBudgetUsd: 0 }, budget],
      [{ dailyCostBudgetUsd: -5 }, budget],
      [{ dailyCostBudgetUsd: "5" }, budget],
      [{ dailyCostBudgetUsd: 1_000_001 }, budget],
      [{ maxActivePerAgents: 2 }, "limits: unknown field: maxActivePerAgents"],
      [null, "limits: must be an object { maxActivePerAgent?, dailyCostBudgetUsd? }"],
      [[], "limits: must be an object { maxActivePerAgent?, dailyCostBudgetUsd? }"],
      [5, "limits: must be an object { maxActivePerAgent?, dailyCostBudgetUsd? }"],
    ];
    const project = await createProject(t);
    for (const [limits, error] of cases) {
      const created = await t.app.request("/api/projects", jsonPost({ name: "x", limits }));
      expect(created.status, JSON.stringify(limits)).toBe(400);
      expect(((await created.json()) as { error: string }).error, JSON.stringify(limits)).toBe(error);
      const patched = await t.app.request(`/api/projects/${project.id}`, send("PATCH", { limits }));
      expect(patched.status, JSON.stringify(limits)).toBe(400);
      expect(((await patched.json()) as { error: string }).error, JSON.stringify(limits)).toBe(error);
    }
    const unchanged = await t.app.request(`/api/projects/${project.id}`, { headers: AUTH });
    expect(unchanged.headers.get("etag")).toBe('"1"');
  });

  it("read as both null on a project stored before limits existed, whose issues claim as before", async () => {
    const t = await testApp();
    const project = await createProject(t, { limits: { maxActivePerAgent: 1 } });
    // As an item written before the field existed: no `limits` attribute at all.
    await t.db.update({
      Key: projectKey(project.id),
      UpdateExpression: "REMOVE #limits",
      ExpressionAttributeNames: { "#limits": "limits" },
    });
    const read = await dataOf<Project>(t.app.request(`/api/projects/${project.id}`, { headers: AUTH }));
    expect(read.limits).toEqual({ maxActivePerAgent: null, dailyCostBudgetUsd: null });
    await createIssues(t, 2, { projectId: project.id });
    await claimed(t.app, { agent: "old", projectId: project.id });
    await claimed(t.app, { agent: "old", projectId: project.id });
  });
});
