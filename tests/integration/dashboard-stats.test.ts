/** The dashboard's counts against a full recount of the table (testkit/recount.ts, the one the load audit uses), after a random mix of everything that changes them. */
import fc from "fast-check";
import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import type { DashboardStats } from "../../core/src/dashboard/dashboard-service.js";
import { durationBucket } from "../../core/src/stats/counts.js";
import {
  dashboardMismatches,
  listingCountMismatches,
  recountDashboard,
  scanTable,
  signalCountMismatches,
} from "../../testkit/recount.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type Body<T> = { data: T };
type SentSignal = Body<{ signal: { id: string } }>;
const TYPES = ["signal", "hypothesis", "plan", "task", "monitor"] as const;
const SOURCES = ["deploys", "pager", "support"] as const;
const HOUR_MS = 3_600_000;

const patch = (t: TestApp, id: string, body: unknown) =>
  t.app.request(`/api/issues/${id}`, {
    method: "PATCH",
    headers: { ...AUTH, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const step = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), type: fc.constantFrom(...TYPES), todo: fc.boolean() }),
  fc.record({
    kind: fc.constant("move" as const),
    pick: fc.nat(),
    to: fc.constantFrom("todo", "backlog", "done", "canceled", "triage"),
  }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("signal" as const), source: fc.constantFrom(...SOURCES), pick: fc.nat() }),
  fc.record({ kind: fc.constant("claim" as const), end: fc.constantFrom("done", "failed", "release", "keep") }),
);

describe("dashboard stats", () => {
  it("equal a full recount after a random mix of creates, transitions, deletes, signals and dispatches", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 15, maxLength: 40 }), async (steps) => {
        const t = await testApp();
        const ids: string[] = [];
        for (const action of steps) {
          if (action.kind === "create") {
            const response = await t.app.request(
              "/api/issues",
              jsonPost({ title: "mix", type: action.type, status: action.todo ? "todo" : "triage" }),
            );
            ids.push(((await response.json()) as Body<{ id: string }>).data.id);
          } else if (action.kind === "move" && ids.length > 0) {
            await patch(t, ids[action.pick % ids.length] ?? "", { status: action.to });
          } else if (action.kind === "delete" && ids.length > 0) {
            const [id] = ids.splice(action.pick % ids.length, 1);
            await t.app.request(`/api/issues/${id}`, { method: "DELETE", headers: AUTH });
          } else if (action.kind === "signal") {
            await t.app.request(
              "/api/signals",
              jsonPost({
                source: action.source,
                type: "alert",
                title: "s",
                severity: "low",
                fingerprint: `f${action.pick % 4}`,
              }),
            );
          } else if (action.kind === "claim") {
            const claim = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "mix" }));
            if (claim.status !== 201) continue;
            const { dispatch } = ((await claim.json()) as Body<{ dispatch: { id: string } }>).data;
            if (action.end === "release") await t.app.request(`/api/dispatch/${dispatch.id}/release`, jsonPost({}));
            else if (action.end !== "keep") {
              await t.app.request(
                `/api/dispatch/${dispatch.id}/complete`,
                jsonPost({ result: action.end, summary: "x" }),
              );
            }
          }
        }
        const stats = (
          (await (await t.app.request("/api/dashboard/stats", { headers: AUTH })).json()) as Body<DashboardStats>
        ).data;
        const items = await scanTable(t.db);
        expect(dashboardMismatches(stats, recountDashboard(items, new Date(stats.generatedAt)))).toEqual([]);
        expect(listingCountMismatches(items)).toEqual([]);
        expect(signalCountMismatches(items)).toEqual([]);
      }),
      { numRuns: 4 },
    );
  });

  describe("signals per hour", () => {
    it("put each signal in the hour its id names, under its source: 24 hours, oldest first, summing to last24h", async () => {
      // The service's clock, set back while signals are sent "hours ago".
      let back = 0;
      const t = await testApp({ clock: () => new Date(Date.now() - back) });
      /** Sends `count` signals from `source` as if it were `hoursAgo` hours ago; returns their ids. */
      const sendAgo = async (hoursAgo: number, source: string, count: number) => {
        back = hoursAgo * HOUR_MS;
        const ids: string[] = [];
        for (let n = 0; n < count; n++) {
          const body = { source, type: "probe", title: `${source} ${hoursAgo}h`, severity: "low" };
          ids.push(((await (await t.app.request("/api/signals", jsonPost(body))).json()) as SentSignal).data.signal.id);
        }
        back = 0;
        return ids;
      };
      const sent = [
        { source: "deploys", ids: await sendAgo(0, "deploys", 2) },
        { source: "pager", ids: await sendAgo(0, "pager", 1) },
        { source: "pager", ids: await sendAgo(3, "pager", 2) },
        { source: "support", ids: await sendAgo(3, "support", 1) },
        { source: "support", ids: await sendAgo(23, "support", 3) },
        // Outside the last 24 hours: in last7d only.
        { source: "deploys", ids: await sendAgo(24, "deploys", 1) },
        { source: "pager", ids: await sendAgo(30, "pager", 2) },
      ];
      const stats = (
        (await (await t.app.request("/api/dashboard/stats", { headers: AUTH })).json()) as Body<DashboardStats>
      ).data;

      const currentHour = Math.floor(new Date(stats.generatedAt).getTime() / HOUR_MS) * HOUR_MS;
      const hours = Array.from({ length: 24 }, (_, index) =>
        new Date(currentHour - (23 - index) * HOUR_MS).toISOString(),
      );
      // Each signal's hour from its id, so a run that crosses the hour still knows where each belongs.
      const expected = new Map(hours.map((hour) => [hour, {} as Record<string, number>]));
      for (const { source, ids } of sent) {
        for (const id of ids) {
          const counts = expected.get(new Date(Math.floor(decodeTime(id.slice(4)) / HOUR_MS) * HOUR_MS).toISOString());
          if (counts) counts[source] = (counts[source] ?? 0) + 1;
        }
      }
      const { perHour, last24h, last7d } = stats.signals;
      expect(perHour).toHaveLength(24);
      expect(perHour.map(({ hour }) => hour)).toEqual(hours);
      expect(perHour).toEqual(
        hours.map((hour) => {
          const bySource = expected.get(hour) ?? {};
          return { hour, total: Object.values(bySource).reduce((sum, n) => sum + n, 0), bySource };
        }),
      );
      // The hours sent at: the current one, three and 23 hours ago; the rest are there with nothing.
      expect(perHour[23]?.bySource).toMatchObject({ deploys: 2, pager: 1 });
      expect(perHour[20]?.bySource).toMatchObject({ pager: 2, support: 1 });
      expect(perHour[0]?.bySource).toMatchObject({ support: 3 });
      expect(perHour.filter(({ total }) => total === 0).length).toBeGreaterThanOrEqual(18);
      for (const { total, bySource } of perHour) {
        expect(total).toBe(Object.values(bySource).reduce((sum, n) => sum + n, 0));
      }

      const summed: Record<string, number> = {};
      for (const { bySource } of perHour) {
        for (const [source, n] of Object.entries(bySource)) summed[source] = (summed[source] ?? 0) + n;
      }
      expect(last24h).toEqual({ total: perHour.reduce((sum, { total }) => sum + total, 0), bySource: summed });
      expect(last7d.total).toBe(last24h.total + 3);
      expect(dashboardMismatches(stats, recountDashboard(await scanTable(t.db), new Date(stats.generatedAt)))).toEqual(
        [],
      );
    });
  });

  it("give the median time from todo to done from the issues that made that trip", async () => {
    // Issues enter todo on the wall clock; the dispatch clock completes them 10, 20 and 30 minutes later.
    let now = Date.now();
    const t = await testApp({ clock: () => new Date(now) });
    const stats = async () =>
      ((await (await t.app.request("/api/dashboard/stats", { headers: AUTH })).json()) as Body<DashboardStats>).data;
    expect((await stats()).todoToDone).toEqual({ medianSeconds: null, count: 0 });
    for (const minutes of [10, 20, 30]) {
      await t.app.request("/api/issues", jsonPost({ title: `d${minutes}`, type: "task", status: "todo" }));
      now = Date.now();
      const claim = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "a", leaseSeconds: 3600 }));
      const { dispatch } = ((await claim.json()) as Body<{ dispatch: { id: string } }>).data;
      now = Date.now() + minutes * 60_000;
      await t.app.request(`/api/dispatch/${dispatch.id}/complete`, jsonPost({ result: "done", summary: "ok" }));
    }
    const { todoToDone } = await stats();
    expect(todoToDone.count).toBe(3);
    expect(durationBucket(todoToDone.medianSeconds ?? -1)).toBe(durationBucket(20 * 60));
  });
});

describe("computed documents' ETags", () => {
  it("are weak tags of their content: the same while nothing changes, another once something does", async () => {
    const at = new Date("2026-11-28T08:00:00.000Z");
    const t = await testApp({ clock: () => at });
    const tag = async (path: string) => {
      const response = await t.app.request(path, { headers: AUTH });
      expect(response.status, path).toBe(200);
      return response.headers.get("etag");
    };
    const paths = ["/api/dashboard/stats", "/api/dashboard/usage?days=2", "/api/me", "/"];
    const before = await Promise.all(paths.map(tag));
    for (const [i, path] of paths.entries()) expect(before[i], path).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(await Promise.all(paths.map(tag))).toEqual(before);
    await t.app.request("/api/issues", jsonPost({ title: "moves the figures", type: "task", status: "todo" }));
    expect(await tag("/api/dashboard/stats")).not.toBe(before[0]);
  });
});

describe("dashboard activity and prompts", () => {
  it("chain each latest signal to its issue, that issue's latest dispatch and its outcome, newest first", async () => {
    const t = await testApp();
    const send = (title: string, fingerprint: string) =>
      t.app.request("/api/signals", jsonPost({ source: "pager", type: "alert", title, severity: "high", fingerprint }));
    const first = ((await (await send("first", "a")).json()) as Body<{ issue: { id: string } }>).data.issue;
    await patch(t, first.id, { status: "todo" });
    const claim = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "fixer" }));
    const { dispatch } = ((await claim.json()) as Body<{ dispatch: { id: string } }>).data;
    await t.app.request(`/api/dispatch/${dispatch.id}/complete`, jsonPost({ result: "done", summary: "Fixed it" }));
    await send("second", "b");
    await t.app.request("/api/signals", jsonPost({ source: "pager", type: "ping", title: "noise", severity: "low" }));
    const response = await t.app.request("/api/dashboard/activity?limit=2", { headers: AUTH });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown>[]; total: number };
    expect(body.total).toBe(3);
    expect(body.data.map((chain) => (chain.signal as { title: string }).title)).toEqual(["noise", "second"]);
    const page2 = (await (await t.app.request("/api/dashboard/activity?limit=2&page=2", { headers: AUTH })).json()) as {
      data: Record<string, unknown>[];
    };
    expect(page2.data).toEqual([
      expect.objectContaining({
        signal: expect.objectContaining({ title: "first", action: "opened" }),
        issue: expect.objectContaining({ id: first.id, status: "done" }),
        dispatch: expect.objectContaining({ id: dispatch.id, agent: "fixer", status: "completed" }),
        outcome: { summary: "Fixed it", commits: [], pullRequests: [], reviewRounds: 0, verification: null },
      }),
    ]);
    expect((await t.app.request("/api/dashboard/activity?limit=0", { headers: AUTH })).status).toBe(400);
  });

  it("list each template's active version with its usage, review score and completion rate", async () => {
    const t = await testApp();
    await t.app.request("/api/issues", jsonPost({ title: "w", type: "task", status: "todo" }));
    const claim = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" }));
    const { dispatch, prompt } = ((await claim.json()) as Body<{ dispatch: { id: string }; prompt: { id: string } }>)
      .data;
    await t.app.request(
      `/api/prompts/${prompt.id}/reviews`,
      jsonPost({ clarity: 4, completeness: 4, relevance: 4, authorType: "agent" }),
    );
    await t.app.request(`/api/dispatch/${dispatch.id}/complete`, jsonPost({ result: "done", summary: "ok" }));
    const body = (await (await t.app.request("/api/dashboard/prompts?limit=100", { headers: AUTH })).json()) as {
      data: { template: { slug: string }; activeVersion: Record<string, unknown> | null; experiment: unknown }[];
      total: number;
    };
    expect(body.total).toBe(5);
    const task = body.data.find((item) => item.template.slug === "task-execution");
    expect(task?.activeVersion).toMatchObject({
      version: 1,
      usageCount: 1,
      reviewCount: 1,
      reviewScore: 4,
      completionRate: 1,
    });
    const monitor = body.data.find((item) => item.template.slug === "monitor-check");
    expect(monitor?.activeVersion).toMatchObject({ usageCount: 0, reviewScore: null, completionRate: null });
    expect(body.data.map((item) => item.experiment)).toEqual([null, null, null, null, null]);
  });

  it("say which templates run an experiment, and stop saying so once it ends", async () => {
    const t = await testApp();
    const prompts = async () =>
      (
        (await (await t.app.request("/api/dashboard/prompts?limit=100", { headers: AUTH })).json()) as {
          data: { template: { slug: string }; experiment: Record<string, unknown> | null }[];
        }
      ).data;
    const draft = (await (
      await t.app.request("/api/templates/task-execution/versions", jsonPost({ content: "Try this wording" }))
    ).json()) as Body<{ id: string; version: number }>;
    const started = await t.app.request(
      "/api/templates/task-execution/experiments",
      jsonPost({ candidateVersionId: draft.data.id, trafficPercent: 30 }),
    );
    expect(started.status).toBe(201);
    const experiment = ((await started.json()) as Body<{ id: string; templateId: string }>).data;
    const running = await prompts();
    expect(running.find((item) => item.template.slug === "task-execution")?.experiment).toEqual({
      id: experiment.id,
      candidateVersionId: draft.data.id,
      candidateVersionNumber: 2,
      trafficPercent: 30,
    });
    expect(running.filter((item) => item.experiment !== null)).toHaveLength(1);

    const stopped = await t.app.request(`/api/templates/task-execution/experiments/${experiment.id}`, {
      method: "DELETE",
      headers: AUTH,
    });
    expect(stopped.status).toBe(200);
    expect((await prompts()).map((item) => item.experiment)).toEqual([null, null, null, null, null]);
  });
});
