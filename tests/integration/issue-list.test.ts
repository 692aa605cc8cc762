import { beforeAll, describe, expect, it } from "vitest";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { issueStore } from "../../core/src/services.js";
import { AUTH, createIssues, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type ListBody = {
  data: { id: string; number: number; status: string; type: string; priority: number }[];
  total: number;
};

const STATUSES = ["triage", "backlog", "todo", "done", "canceled"];
const TYPES = ["signal", "hypothesis", "plan", "task", "monitor"];

async function list(t: TestApp, query: string): Promise<{ status: number; body: ListBody; link: string | null }> {
  const response = await t.app.request(`/api/issues${query}`, { headers: AUTH });
  return { status: response.status, body: (await response.json()) as ListBody, link: response.headers.get("link") };
}

describe("GET /api/issues over 45 issues", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    await createIssues(t.app, 45, (i) => ({
      title: `Issue ${i}`,
      type: TYPES[i % 5],
      status: STATUSES[i % 5],
      priority: i % 3,
    }));
  });

  it("reads 20/20/5 with total 45, newest first by default", async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(t, `?page=${page}`)));
    expect(pages.map((p) => p.body.data.length)).toEqual([20, 20, 5]);
    expect(pages.every((p) => p.body.total === 45)).toBe(true);
    const numbers = pages.flatMap((p) => p.body.data.map((issue) => issue.number));
    expect(numbers).toEqual(Array.from({ length: 45 }, (_, i) => 45 - i));
  });

  it("sorts oldest first with sort=createdAt, and createdAt agrees with the order", async () => {
    const { body } = await list(t, "?sort=createdAt&limit=100");
    expect(body.data.map((issue) => issue.number)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    const times = (body.data as unknown as { createdAt: string }[]).map((issue) => issue.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it("walks pages across bucket boundaries without gaps or repeats at any limit", async () => {
    for (const limit of [1, 7, 13]) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(45 / limit); page++) {
        const { body } = await list(t, `?sort=createdAt&limit=${limit}&page=${page}`);
        seen.push(...body.data.map((issue) => issue.number));
      }
      expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    }
  });

  it("accepts limit 100 and refuses 101", async () => {
    const ok = await list(t, "?limit=100");
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(45);
    const tooMany = await list(t, "?limit=101");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: "limit: limit must be an integer between 1 and 100" });
  });

  it.each(["0", "-1", "1.5", "abc", ""])("refuses page=%j with 400 naming page", async (page) => {
    const { status, body } = await list(t, `?page=${page}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "page: page must be an integer between 1 and 10000" });
  });

  it("answers past the end with empty data and the right total", async () => {
    const { status, body, link } = await list(t, "?page=4");
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], total: 45 });
    expect(link).toContain('page=3&limit=20>; rel="prev"');
    expect(link).not.toContain('rel="next"');
    expect(await list(t, "?page=10000&status=todo")).toMatchObject({ status: 200, body: { data: [], total: 9 } });
  });

  it("sends Link with next and prev", async () => {
    const { link } = await list(t, "?page=2&status=todo&limit=3");
    expect(link).toBe(
      '<http://localhost/api/issues?page=3&status=todo&limit=3>; rel="next", ' +
        '<http://localhost/api/issues?page=1&status=todo&limit=3>; rel="prev"',
    );
  });

  it("filters by status, type and priority, and total follows the filter", async () => {
    for (const status of STATUSES) {
      const { body } = await list(t, `?status=${status}&limit=100`);
      expect(body.total).toBe(9);
      expect(body.data.every((issue) => issue.status === status)).toBe(true);
    }
    const byType = await list(t, "?type=task&limit=5");
    expect(byType.body.total).toBe(9);
    expect(byType.body.data.map((issue) => issue.type)).toEqual(Array(5).fill("task"));
    const byPriority = await list(t, "?priority=0&limit=100");
    expect(byPriority.body.total).toBe(15);
    expect(byPriority.body.data.map((issue) => issue.number)).toEqual(Array.from({ length: 15 }, (_, i) => 45 - 3 * i));
  });

  it("combines filters (all must hold) with exact totals and pages", async () => {
    // i % 5 gives status and type together; i % 3 gives priority.
    const both = await list(t, "?status=todo&type=plan&limit=100");
    expect(both.body.data.map((issue) => issue.number)).toEqual([42, 37, 32, 27, 22, 17, 12, 7, 2]);
    expect(both.body.total).toBe(9);
    const three = await list(t, "?status=todo&type=plan&priority=2&sort=createdAt");
    expect(three.body.data.map((issue) => issue.number)).toEqual([2, 17, 32]);
    expect(three.body.total).toBe(3);
    const paged = await list(t, "?status=todo&priority=2&limit=1&page=2&sort=createdAt");
    expect(paged.body).toMatchObject({ total: 3, data: [{ number: 17 }] });
    const none = await list(t, "?status=todo&type=task");
    expect(none.body).toEqual({ data: [], total: 0 });
  });

  it.each([
    [
      "status=open",
      "status: must be a comma-separated list of: triage, backlog, todo, in_progress, in_review, done, canceled",
    ],
    ["status=todo,,done", "status: must be a comma-separated list of"],
    ["type=bug", "type: must be a comma-separated list of: signal, hypothesis, plan, task, monitor"],
    ["priority=5", "priority: must be an integer between 0 and 4"],
    ["projectId=nope", "projectId: must be a project id (prj_…)"],
    ["sort=title", "sort: Invalid option"],
    ["colour=red", "unknown field: colour"],
  ])("refuses %s with 400", async (query, message) => {
    const { status, body } = await list(t, `?${query}`);
    expect(status).toBe(400);
    expect((body as unknown as { error: string }).error.startsWith(message)).toBe(true);
  });
});

describe("project and label listings", () => {
  it("filter by projectId and label, alone and combined", async () => {
    const t = await testApp();
    const store = issueStore({ db: t.db });
    const project = "prj_01JD0000000000000000000000";
    for (let i = 1; i <= 12; i++) {
      await store.create(
        newIssue({
          title: `Issue ${i}`,
          type: "task",
          status: i % 2 === 0 ? "todo" : "backlog",
          projectId: i <= 6 ? project : null,
          labels: [i % 3 === 0 ? "bug" : "feature", ...(i === 12 ? ["urgent"] : [])],
        }),
      );
    }
    const byProject = await list(t, `?projectId=${project}&sort=createdAt`);
    expect(byProject.body.data.map((issue) => issue.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(byProject.body.total).toBe(6);
    const byLabel = await list(t, "?label=bug");
    expect(byLabel.body.data.map((issue) => issue.number)).toEqual([12, 9, 6, 3]);
    expect(byLabel.body.total).toBe(4);
    const labelAndProject = await list(t, `?label=bug&projectId=${project}`);
    expect(labelAndProject.body.data.map((issue) => issue.number)).toEqual([6, 3]);
    const labelAndStatus = await list(t, "?label=urgent&status=todo");
    expect(labelAndStatus.body).toMatchObject({ total: 1, data: [{ number: 12 }] });
    expect((await list(t, "?label=none")).body).toEqual({ data: [], total: 0 });
  });

  it("filter by label in any case, as labels match everywhere: the label's own spelling is what issues carry", async () => {
    const t = await testApp();
    await dataOf(t.app.request("/api/labels", jsonPost({ name: "Perf", color: "#112233" })), 201);
    const tagged = await dataOf<{ number: number; labels: string[] }>(
      t.app.request("/api/issues", jsonPost({ title: "Slow search", type: "task", status: "todo", labels: ["perf"] })),
      201,
    );
    expect(tagged.labels).toEqual(["Perf"]);
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "Untagged", type: "task" })), 201);
    for (const spelling of ["Perf", "perf", "PERF"]) {
      expect((await list(t, `?label=${spelling}`)).body).toMatchObject({ total: 1, data: [{ number: tagged.number }] });
      expect((await list(t, `?label=${spelling}&status=todo`)).body.total).toBe(1);
      expect((await list(t, `?label=${spelling}&status=backlog`)).body).toEqual({ data: [], total: 0 });
    }
    expect((await list(t, "?label=perfx")).body).toEqual({ data: [], total: 0 });
  });
});
