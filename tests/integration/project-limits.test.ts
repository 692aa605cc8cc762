/**
 * Projects' limits (docs/api.md#projects-goals-and-labels, docs/api.md#dispatch): `limits` on projects, an agent's active dispatches of a
 * project held to `maxActivePerAgent` whatever the concurrency (429 with `Retry-After`), and claims
 * of a project's issues stopped once its agents reported `dailyCostBudgetUsd` today (204 with
 * `Kaizen-Claim-Stopped`), on both AWS conflict modes, through one-request-per-instance fleets.
 */
import { describe, expect, it } from "vitest";
import { projectKey } from "../../core/src/catalog/keys.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { AUTH, dataOf, fleetOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery, mergedPullRequest } from "../helpers/deliveries.js";

type Limits = { maxActivePerAgent: number | null; dailyCostBudgetUsd: number | null };
type Project = { id: string; name: string; limits: Limits };
type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };

/** A clock tests move by hand. */
function manualClock(start: number) {
  let now = start;
  return { clock: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
}

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

/** The 429 of an agent at its limit in a project: `Retry-After: 30` and the message naming the limit. */
async function expectAtLimit(response: Response, agent: string, projectId: string, limit: number): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get("Retry-After")).toBe("30");
  expect(await response.json()).toEqual({
    error: `Agent ${agent} holds ${limit} active dispatch${limit === 1 ? "" : "es"} of project ${projectId} (limits.maxActivePerAgent is ${limit})`,
  });
}

/** The 204 of a claim stopped by a project's daily cost budget. */
async function expectStopped(response: Response): Promise<void> {
  expect(response.status).toBe(204);
  expect(response.headers.get("Kaizen-Claim-Stopped")).toBe("daily-cost-budget");
  expect(await response.text()).toBe("");
}

function finish(t: TestApp, dispatch: Claimed["dispatch"], action: "complete" | "release", body: unknown = {}) {
  return dataOf(
    t.app.request(
      `/api/dispatch/${dispatch.id}/${action}`,
      jsonPost(body, { Authorization: `Bearer ${dispatch.token}` }),
    ),
  );
}

describe("projects' limits", () => {
  it("are all null by default, set on create, replaced whole by a PATCH (a key left out is null)", async () => {
    const t = await testApp();
    const plain = await createProject(t);
    expect(plain.limits).toEqual({
      maxActivePerAgent: null,
      dailyCostBudgetUsd: null,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
    const both = await createProject(t, { limits: { maxActivePerAgent: 3, dailyCostBudgetUsd: 12.5 } });
    expect(both.limits).toEqual({
      maxActivePerAgent: 3,
      dailyCostBudgetUsd: 12.5,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
    const one = await createProject(t, { limits: { maxActivePerAgent: 100 } });
    expect(one.limits).toEqual({
      maxActivePerAgent: 100,
      dailyCostBudgetUsd: null,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });

    const read = await dataOf<Project>(t.app.request(`/api/projects/${both.id}`, { headers: AUTH }));
    expect(read.limits).toEqual({
      maxActivePerAgent: 3,
      dailyCostBudgetUsd: 12.5,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
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
      maxInReview: null,
      maxCostPerDispatchUsd: null,
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
    expect(renamed.limits).toEqual({
      maxActivePerAgent: null,
      dailyCostBudgetUsd: 0.01,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
    const cleared = await dataOf<Project>(t.app.request(`/api/projects/${both.id}`, send("PATCH", { limits: {} })));
    expect(cleared.limits).toEqual({
      maxActivePerAgent: null,
      dailyCostBudgetUsd: null,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
  });

  it("answer 400 naming the field for a bad value or an unknown key, on create and on PATCH", async () => {
    const t = await testApp();
    const perAgent = "limits.maxActivePerAgent: must be an integer 1..100, or null";
    const budget = "limits.dailyCostBudgetUsd: must be a number > 0 and ≤ 1000000 (US dollars), or null";
    const inReview = "limits.maxInReview: must be an integer 1..100, or null";
    const cases: [unknown, string][] = [
      [{ maxInReview: 0 }, inReview],
      [{ maxInReview: 101 }, inReview],
      [{ maxActivePerAgent: 0 }, perAgent],
      [{ maxActivePerAgent: 101 }, perAgent],
      [{ maxActivePerAgent: 1.5 }, perAgent],
      [{ maxActivePerAgent: "2" }, perAgent],
      [{ dailyCostBudgetUsd: 0 }, budget],
      [{ dailyCostBudgetUsd: -5 }, budget],
      [{ dailyCostBudgetUsd: "5" }, budget],
      [{ dailyCostBudgetUsd: 1_000_001 }, budget],
      [{ maxCostPerDispatchUsd: 0 }, budget.replace("dailyCostBudgetUsd", "maxCostPerDispatchUsd")],
      [{ maxCostPerDispatchUsd: "2" }, budget.replace("dailyCostBudgetUsd", "maxCostPerDispatchUsd")],
      [{ maxActivePerAgents: 2 }, "limits: unknown field: maxActivePerAgents"],
      [
        null,
        "limits: must be an object { maxActivePerAgent?, dailyCostBudgetUsd?, maxInReview?, maxCostPerDispatchUsd? }",
      ],
      [
        [],
        "limits: must be an object { maxActivePerAgent?, dailyCostBudgetUsd?, maxInReview?, maxCostPerDispatchUsd? }",
      ],
      [
        5,
        "limits: must be an object { maxActivePerAgent?, dailyCostBudgetUsd?, maxInReview?, maxCostPerDispatchUsd? }",
      ],
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
    expect(read.limits).toEqual({
      maxActivePerAgent: null,
      dailyCostBudgetUsd: null,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
    await createIssues(t, 2, { projectId: project.id });
    await claimed(t.app, { agent: "old", projectId: project.id });
    await claimed(t.app, { agent: "old", projectId: project.id });
  });

  it("read as stored on a project stored with a maxInReview above today's 100, kept by a PATCH that leaves limits", async () => {
    const t = await testApp();
    const project = await createProject(t, { limits: { maxInReview: 100 } });
    // As an earlier release stored it: it took up to 1000.
    await t.db.update({
      Key: projectKey(project.id),
      UpdateExpression: "SET #limits.#maxInReview = :stored",
      ExpressionAttributeNames: { "#limits": "limits", "#maxInReview": "maxInReview" },
      ExpressionAttributeValues: { ":stored": 500 },
    });
    const read = await dataOf<Project>(t.app.request(`/api/projects/${project.id}`, { headers: AUTH }));
    expect(read.limits).toMatchObject({ maxInReview: 500 });
    const renamed = await dataOf<Project>(
      t.app.request(`/api/projects/${project.id}`, send("PATCH", { name: "Renamed" })),
    );
    expect(renamed.limits).toMatchObject({ maxInReview: 500 });
  });

  it("read a limit as null on a project stored before that limit existed, keeping the others", async () => {
    const t = await testApp();
    const project = await createProject(t, { limits: { maxActivePerAgent: 2, dailyCostBudgetUsd: 5 } });
    // As an item written before maxInReview existed: the other two keys only.
    await t.db.update({
      Key: projectKey(project.id),
      UpdateExpression: "SET #limits = :limits",
      ExpressionAttributeNames: { "#limits": "limits" },
      ExpressionAttributeValues: { ":limits": { maxActivePerAgent: 2, dailyCostBudgetUsd: 5 } },
    });
    const read = await dataOf<Project>(t.app.request(`/api/projects/${project.id}`, { headers: AUTH }));
    expect(read.limits).toEqual({
      maxActivePerAgent: 2,
      dailyCostBudgetUsd: 5,
      maxInReview: null,
      maxCostPerDispatchUsd: null,
    });
  });
});

describe("maxActivePerAgent", () => {
  for (const { mode, emulateConflicts } of CONFLICT_MODES) {
    it(`holds under concurrent claims of one agent, filtered or not; other agents are not held (${mode})`, async () => {
      const t = await testApp({}, { emulateConflicts });
      const fleet = fleetOf(t, emulateConflicts);
      try {
        const project = await createProject(t, { limits: { maxActivePerAgent: 2 } });
        await createIssues(t, 12, { projectId: project.id });
        const filtered = await Promise.all(
          Array.from({ length: 8 }, () => claim(fleet, { agent: "a1", projectId: project.id })),
        );
        expect(filtered.map((response) => response.status).sort()).toEqual([201, 201, 429, 429, 429, 429, 429, 429]);
        for (const refused of filtered.filter((response) => response.status === 429))
          await expectAtLimit(refused, "a1", project.id, 2);
        const taken = await Promise.all(
          filtered.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { data: Claimed }).data),
        );
        expect(new Set(taken.map((one) => one.issue.id)).size).toBe(2);

        // Unfiltered claims of another agent, whose only eligible issues are the project's: the same limit.
        const unfiltered = await Promise.all(Array.from({ length: 6 }, () => claim(fleet, { agent: "a2" })));
        expect(unfiltered.map((response) => response.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
        for (const refused of unfiltered.filter((response) => response.status === 429))
          await expectAtLimit(refused, "a2", project.id, 2);

        // A third agent has its own count.
        await claimed(fleet, { agent: "a3", projectId: project.id });
        const active = await dataOf<Dispatch[]>(
          t.app.request("/api/dispatch?status=active&limit=100", { headers: AUTH }),
        );
        const perAgent = Object.fromEntries(
          ["a1", "a2", "a3"].map((agent) => [agent, active.filter((d) => d.agent === agent).length]),
        );
        expect(perAgent).toEqual({ a1: 2, a2: 2, a3: 1 });
      } finally {
        fleet.destroy();
      }
    });
  }

  it("frees a place at every end of a dispatch: done, failed, released, expired, its issue moved by a PATCH", async () => {
    const { clock, advance } = manualClock(Date.parse("2026-04-01T12:00:00.000Z"));
    const t = await testApp({ clock });
    const project = await createProject(t, { limits: { maxActivePerAgent: 1 } });
    await createIssues(t, 8, { projectId: project.id });
    const take = () => claimed(t.app, { agent: "solo", projectId: project.id, leaseSeconds: 60 });
    const refused = async () =>
      expectAtLimit(await claim(t.app, { agent: "solo", projectId: project.id }), "solo", project.id, 1);

    const first = await take();
    await refused();
    await finish(t, first.dispatch, "complete", { result: "done", summary: "done" });
    const second = await take();
    await refused();
    await finish(t, second.dispatch, "complete", { result: "failed", summary: "could not" });
    const third = await take();
    await refused();
    await finish(t, third.dispatch, "release");
    await take();
    await refused();
    // The lease runs out: the next claim expires it first, and takes a place again.
    advance(61);
    const fifth = await take();
    await refused();
    const patched = await t.app.request(`/api/issues/${fifth.issue.id}`, send("PATCH", { status: "done" }));
    expect(patched.status).toBe(200);
    const sixth = await take();
    await refused();
    // Another agent was never held meanwhile.
    await claimed(t.app, { agent: "other", projectId: project.id });
    expect(sixth.dispatch.agent).toBe("solo");
  });

  it("a limit lowered below what the agent holds refuses its next claim, naming both", async () => {
    const t = await testApp();
    const project = await createProject(t, { limits: { maxActivePerAgent: 3 } });
    await createIssues(t, 4, { projectId: project.id });
    for (let i = 0; i < 3; i++) await claimed(t.app, { agent: "busy", projectId: project.id });
    const lowered = await t.app.request(
      `/api/projects/${project.id}`,
      send("PATCH", { limits: { maxActivePerAgent: 2 } }),
    );
    expect(lowered.status).toBe(200);
    const refused = await claim(t.app, { agent: "busy", projectId: project.id });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: `Agent busy holds 3 active dispatches of project ${project.id} (limits.maxActivePerAgent is 2)`,
    });
  });

  it("frees both places when one merged pull request ends two dispatches of the agent in the project at once", async () => {
    const t = await testApp();
    const project = await createProject(t, { limits: { maxActivePerAgent: 2 } });
    await createIssues(t, 3, { projectId: project.id });
    const first = await claimed(t.app, { agent: "pair", projectId: project.id });
    const second = await claimed(t.app, { agent: "pair", projectId: project.id });
    await expectAtLimit(await claim(t.app, { agent: "pair", projectId: project.id }), "pair", project.id, 2);
    const title = `Fix both (KZN-${first.issue.number}, KZN-${second.issue.number})`;
    const delivery = codehostDelivery("pull_request", mergedPullRequest(88, { title }));
    const merged = await t.app.request(delivery.path, delivery.init);
    expect(merged.status).toBe(201);
    for (const { dispatch } of [first, second]) {
      const read = await dataOf<Dispatch>(t.app.request(`/api/dispatch/${dispatch.id}`, { headers: AUTH }));
      expect(read.status).toBe("completed");
    }
    await claimed(t.app, { agent: "pair", projectId: project.id });
  });

  it("an unfiltered claim passes over the limited project's issues for the next best one; 429 only when none is left", async () => {
    const t = await testApp();
    const limited = await createProject(t, { limits: { maxActivePerAgent: 1 } });
    const [p1, p2] = await createIssues(t, 2, { projectId: limited.id, priority: 1 }, "limited");
    const [elsewhere] = await createIssues(t, 1, { priority: 4 }, "elsewhere");
    const queue = await dataOf<{ issue: Issue }[]>(t.app.request("/api/dispatch/queue", { headers: AUTH }));
    expect(queue.map((item) => item.issue.id)).toEqual([p1?.id, p2?.id, elsewhere?.id]);

    expect((await claimed(t.app, { agent: "a1" })).issue.id).toBe(p1?.id);
    expect((await claimed(t.app, { agent: "a1" })).issue.id).toBe(elsewhere?.id);
    await expectAtLimit(await claim(t.app, { agent: "a1" }), "a1", limited.id, 1);
    // The issue passed over is still the next one for anyone else.
    expect((await claimed(t.app, { agent: "a2" })).issue.id).toBe(p2?.id);
    // GET /api/dispatch/next answers the same 429.
    await createIssues(t, 1, { projectId: limited.id });
    const next = await t.app.request(`/api/dispatch/next?agent=a1&projectId=${limited.id}`, { headers: AUTH });
    await expectAtLimit(next, "a1", limited.id, 1);
  });
});

describe("dailyCostBudgetUsd", () => {
  it("stops claims of the project's issues once today's reported cost reaches it, not before; a new UTC day resumes them", async () => {
    const { clock, advance } = manualClock(Date.parse("2026-05-01T10:00:00.000Z"));
    const t = await testApp({ clock });
    const budgeted = await createProject(t, { limits: { dailyCostBudgetUsd: 1 } });
    const other = await createProject(t, { name: "Other" });
    const empty = await createProject(t, { name: "Empty" });
    await createIssues(t, 6, { projectId: budgeted.id, priority: 1 }, "budgeted");
    const [low] = await createIssues(t, 1, { projectId: other.id, priority: 4 }, "other");

    const first = await claimed(t.app, { agent: "a1", projectId: budgeted.id });
    await finish(t, first.dispatch, "complete", { result: "done", summary: "s", usage: { costUsd: 0.6 } });
    // 0.6 of 1: not yet.
    const second = await claimed(t.app, { agent: "a1", projectId: budgeted.id });
    await finish(t, second.dispatch, "complete", { result: "failed", summary: "s", usage: { costUsd: 0.4 } });
    const detail = await dataOf<{ usage: { costUsd: number; date: string } }>(
      t.app.request(`/api/projects/${budgeted.id}`, { headers: AUTH }),
    );
    expect(detail.usage).toMatchObject({ date: "2026-05-01", costUsd: 1 });

    // 1 of 1: claims of its issues stop, filtered (POST or GET) at once.
    await expectStopped(await claim(t.app, { agent: "a2", projectId: budgeted.id }));
    await expectStopped(await t.app.request(`/api/dispatch/next?agent=a2&projectId=${budgeted.id}`, { headers: AUTH }));
    // Unfiltered: the other project's (lower) issue first, then the stop.
    expect((await claimed(t.app, { agent: "a2" })).issue.id).toBe(low?.id);
    await expectStopped(await claim(t.app, { agent: "a3" }));
    await expectStopped(await t.app.request("/api/dispatch/next?agent=a3", { headers: AUTH }));
    // Nothing held back for the budget: a plain 204.
    const none = await claim(t.app, { agent: "a3", projectId: empty.id });
    expect(none.status).toBe(204);
    expect(none.headers.get("Kaizen-Claim-Stopped")).toBeNull();

    // The next UTC day starts from zero.
    advance(14 * 3600);
    const resumed = await claimed(t.app, { agent: "a3", projectId: budgeted.id });
    expect(resumed.issue.projectId).toBe(budgeted.id);
  });

  it("gives way to the agent's limit: 429 when both hold back what is left", async () => {
    const t = await testApp();
    const spent = await createProject(t, { name: "Spent", limits: { dailyCostBudgetUsd: 0.5 } });
    const limited = await createProject(t, { name: "Limited", limits: { maxActivePerAgent: 1 } });
    await createIssues(t, 3, { projectId: spent.id, priority: 1 }, "spent");
    await createIssues(t, 2, { projectId: limited.id, priority: 4 }, "limited");
    const paid = await claimed(t.app, { agent: "payer", projectId: spent.id });
    await finish(t, paid.dispatch, "complete", { result: "done", summary: "s", usage: { costUsd: 0.5 } });
    await claimed(t.app, { agent: "a1", projectId: limited.id });
    await expectAtLimit(await claim(t.app, { agent: "a1" }), "a1", limited.id, 1);
    // Another agent, not at the limit, takes the limited project's issue past the spent one's.
    expect((await claimed(t.app, { agent: "a2" })).issue.projectId).toBe(limited.id);
    await expectStopped(await claim(t.app, { agent: "a2" }));
  });
});
