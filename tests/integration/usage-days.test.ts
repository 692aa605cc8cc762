/**
 * Usage summed per UTC day (docs/api.md#dispatch `usage`, `GET /api/dashboard/usage`, a project's `usage`):
 * each finished dispatch's report counts on the day it finished, in all, for its agent and for the
 * project its issue was in when it was claimed; bursts of completions sum exactly.
 */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { UsageDay, UsageSums } from "../../core/src/stats/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Claimed = { dispatch: Dispatch & { token: string } };

/** A clock tests move by hand. */
function manualClock(start: number) {
  let now = start;
  return { clock: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
}

async function project(t: TestApp, name: string): Promise<string> {
  return (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name })), 201)).id;
}

/** A new todo task (in `projectId`, if given) claimed at once by `agent`. */
async function claimedTask(t: TestApp, agent: string, projectId: string | null): Promise<Claimed["dispatch"]> {
  const issue = await dataOf<{ id: string }>(
    t.app.request("/api/issues", jsonPost({ title: `for ${agent}`, type: "task", status: "todo", projectId })),
    201,
  );
  const claim = await dataOf<Claimed & { issue: { id: string } }>(
    t.app.request("/api/dispatch/claim", jsonPost({ agent, leaseSeconds: 7200, projectId: projectId ?? undefined })),
    201,
  );
  expect(claim.issue.id).toBe(issue.id);
  return claim.dispatch;
}

function complete(t: TestApp, dispatch: Claimed["dispatch"], usage?: Record<string, unknown>) {
  return t.app.request(
    `/api/dispatch/${dispatch.id}/complete`,
    jsonPost(
      { result: "done", summary: "Fixed", ...(usage ? { usage } : {}) },
      { Authorization: `Bearer ${dispatch.token}` },
    ),
  );
}

async function usageDays(t: TestApp, query = ""): Promise<UsageDay[]> {
  return (await dataOf<{ days: UsageDay[] }>(t.app.request(`/api/dashboard/usage${query}`, { headers: AUTH }))).days;
}

const sums = (reports: number, inputTokens: number, outputTokens: number, costUsd: number): UsageSums => ({
  reports,
  inputTokens,
  outputTokens,
  costUsd,
});

/** `actual` with its cost compared to 9 decimals (sums of decimal dollars are floating point). */
function rounded<T extends { costUsd: number }>(rows: T[]): T[] {
  return rows.map((row) => ({ ...row, costUsd: Math.round(row.costUsd * 1e9) / 1e9 }));
}

describe("usage per day, agent and project", () => {
  it("counts each report on the UTC day its dispatch finished, in all, per agent and per project", async () => {
    const { clock, advance } = manualClock(Date.parse("2026-03-09T23:30:00.000Z"));
    const t = await testApp({ clock });
    const [checkout, search] = [await project(t, "Checkout"), await project(t, "Search")];
    // An agent's name is free text: the keys' separators in it change nothing.
    const odd = "team#7 ~ bot%2F";
    const a = await claimedTask(t, odd, checkout);
    const b = await claimedTask(t, "plain", checkout);
    const c = await claimedTask(t, "plain", search);
    const d = await claimedTask(t, odd, null);
    const silent = await claimedTask(t, "plain", search);

    advance(600); // 23:40, the 9th
    await dataOf(complete(t, a, { inputTokens: 1000, outputTokens: 100, costUsd: 0.25, model: "m" }));
    await dataOf(complete(t, b, { costUsd: 0.5 }));
    await dataOf(complete(t, silent)); // no report: counts nowhere
    advance(1800); // 00:10, the 10th
    await dataOf(complete(t, c, { inputTokens: 10, outputTokens: 1, costUsd: 2 }));
    await dataOf(complete(t, d, { model: "only the model" }));

    const days = await usageDays(t, "?days=3");
    expect(days.map((day) => day.date)).toEqual(["2026-03-10", "2026-03-09", "2026-03-08"]);
    const [tenth, ninth, eighth] = days;
    expect(eighth).toEqual({ date: "2026-03-08", ...sums(0, 0, 0, 0), agents: [], projects: [] });
    expect(ninth).toEqual({
      date: "2026-03-09",
      ...sums(2, 1000, 100, 0.75),
      agents: [
        { agent: "plain", ...sums(1, 0, 0, 0.5) },
        { agent: odd, ...sums(1, 1000, 100, 0.25) },
      ],
      projects: [{ projectId: checkout, ...sums(2, 1000, 100, 0.75) }],
    });
    expect(tenth).toEqual({
      date: "2026-03-10",
      ...sums(2, 10, 1, 2),
      agents: [
        { agent: "plain", ...sums(1, 10, 1, 2) },
        { agent: odd, ...sums(1, 0, 0, 0) },
      ],
      projects: [{ projectId: search, ...sums(1, 10, 1, 2) }],
    });

    // Seven days by default, newest first.
    const week = await usageDays(t);
    expect(week.map((day) => day.date)).toEqual([
      "2026-03-10",
      "2026-03-09",
      "2026-03-08",
      "2026-03-07",
      "2026-03-06",
      "2026-03-05",
      "2026-03-04",
    ]);

    // A project's detail shows today's sums (UTC), the figure its daily budget is held against.
    const detail = (id: string) =>
      dataOf<{ usage: unknown }>(t.app.request(`/api/projects/${id}`, { headers: AUTH })).then((p) => p.usage);
    expect(await detail(search)).toEqual({ date: "2026-03-10", ...sums(1, 10, 1, 2) });
    expect(await detail(checkout)).toEqual({ date: "2026-03-10", ...sums(0, 0, 0, 0) });
  });

  it("counts toward the project the issue was in when it was claimed, whatever it moved to since", async () => {
    const t = await testApp();
    const [before, after] = [await project(t, "Before"), await project(t, "After")];
    const dispatch = await claimedTask(t, "mover", before);
    const moved = await t.app.request(`/api/issues/${dispatch.issueId}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: after }),
    });
    expect(moved.status).toBe(200);
    await dataOf(complete(t, dispatch, { costUsd: 1.5 }));
    const [today] = await usageDays(t, "?days=1");
    expect(today?.projects).toEqual([{ projectId: before, ...sums(1, 0, 0, 1.5) }]);
  });

  for (const { mode, emulateConflicts } of CONFLICT_MODES) {
    it(`sums 20 completions sent at once exactly, per day, agent and project (${mode})`, async () => {
      const t = await testApp({}, { emulateConflicts });
      const [p1, p2] = [await project(t, "One"), await project(t, "Two")];
      const dispatches: { dispatch: Claimed["dispatch"]; agent: string; projectId: string | null }[] = [];
      for (let i = 0; i < 20; i++) {
        const agent = `agent-${i % 4}`;
        const projectId = [p1, p2, null][i % 3] ?? null;
        dispatches.push({ dispatch: await claimedTask(t, agent, projectId), agent, projectId });
      }
      const answers = await Promise.all(
        dispatches.map(({ dispatch }) => complete(t, dispatch, { inputTokens: 100, outputTokens: 7, costUsd: 0.1 })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(dispatches.map(() => 200));

      const expected = (rows: { key: string | null }[]) => {
        const totals = new Map<string, number>();
        for (const { key } of rows) if (key) totals.set(key, (totals.get(key) ?? 0) + 1);
        return totals;
      };
      const [today] = await usageDays(t, "?days=1");
      if (!today) throw new Error("no day");
      expect(rounded([today])[0]).toMatchObject(sums(20, 2000, 140, 2));
      const perAgent = expected(dispatches.map(({ agent }) => ({ key: agent })));
      expect(rounded(today.agents).sort((x, y) => (x.agent < y.agent ? -1 : 1))).toEqual(
        [...perAgent].sort().map(([agent, n]) => ({ agent, ...sums(n, 100 * n, 7 * n, Math.round(n * 1e8) / 1e9) })),
      );
      const perProject = expected(dispatches.map(({ projectId }) => ({ key: projectId })));
      expect(rounded(today.projects).sort((x, y) => (x.projectId < y.projectId ? -1 : 1))).toEqual(
        [...perProject]
          .sort()
          .map(([projectId, n]) => ({ projectId, ...sums(n, 100 * n, 7 * n, Math.round(n * 1e8) / 1e9) })),
      );
    });
  }
});

describe("GET /api/dashboard/usage", () => {
  it("answers 400 naming `days` for anything but an integer 1..31, and refuses unknown parameters", async () => {
    const t = await testApp();
    for (const days of ["0", "32", "-1", "1.5", "abc", "", "7 "]) {
      const response = await t.app.request(`/api/dashboard/usage?days=${encodeURIComponent(days)}`, { headers: AUTH });
      expect(response.status, days).toBe(400);
      const body = (await response.json()) as { error: string; details: { path: string; message: string }[] };
      expect(body.error, days).toMatch(/^days: /);
      expect(body.details.map((detail) => detail.path)).toEqual(["days"]);
    }
    const unknown = await t.app.request("/api/dashboard/usage?day=3", { headers: AUTH });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain("unknown field: day");
    expect((await usageDays(t, "?days=31")).length).toBe(31);
    expect((await usageDays(t, "?days=1")).length).toBe(1);
    const anonymous = await t.app.request("/api/dashboard/usage");
    expect(anonymous.status).toBe(401);
  });
});
