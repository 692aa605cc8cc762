import { describe, expect, it, vi } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import { tokenMatches } from "../../core/src/dispatch/token.js";
import { scoreOf } from "../../core/src/issues/scoring.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import { AUTH, anotherInstance, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };
type Issue = {
  id: string;
  number: number;
  status: string;
  type: string;
  priority: number;
  agentSummary: string | null;
  commits: unknown[];
  pullRequests: unknown[];
};
type Claim = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };
type QueueItem = { issue: Issue; score: number; breakdown: Record<string, number> };

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** A clock tests move by hand. */
function manualClock(start = Date.parse("2026-11-01T12:00:00.000Z")) {
  let now = start;
  return { clock: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
}

async function createIssue(t: Pick<TestApp, "app">, body: Record<string, unknown>): Promise<Issue> {
  const response = await t.app.request("/api/issues", jsonPost({ status: "todo", ...body }));
  if (response.status !== 201) throw new Error(`issue create answered ${response.status}: ${await response.text()}`);
  return (await json<Body<Issue>>(response)).data;
}

async function claim(t: Pick<TestApp, "app">, body: Record<string, unknown> = { agent: "agent-1" }) {
  return t.app.request("/api/dispatch/claim", jsonPost(body));
}

async function claimed(t: Pick<TestApp, "app">, body: Record<string, unknown> = { agent: "agent-1" }): Promise<Claim> {
  const response = await claim(t, body);
  if (response.status !== 201) throw new Error(`claim answered ${response.status}: ${await response.text()}`);
  return (await json<Body<Claim>>(response)).data;
}

const post = (t: Pick<TestApp, "app">, path: string, body: unknown = {}) => t.app.request(path, jsonPost(body));

/*
 * Every test makes its own table (and clock), so the tests after this first describe run side by
 * side, two at a time (more would stretch the queue's 50 claims toward the timeout). This one runs
 * first and alone: a dispatch's `claimedAt` is read from its id, and ids are made in order within
 * a process, so a claim on a clock behind ids made meanwhile (by another test's claims) would be
 * dated after them.
 */
vi.setConfig({ maxConcurrency: 2 });

describe("claims", () => {
  it("take the highest score, move the issue to in_progress, and hand over the rendered prompt with its token", async () => {
    const { clock } = manualClock();
    const t = await testApp({ clock });
    await createIssue(t, { title: "low task", type: "task", priority: 4 });
    const urgent = await createIssue(t, { title: "urgent signal", type: "signal", priority: 1 });
    await createIssue(t, { title: "in triage", type: "signal", priority: 1, status: "triage" });
    const response = await claim(t, { agent: "claude", leaseSeconds: 600 });
    expect(response.status).toBe(201);
    const { data } = await json<Body<Claim>>(response);
    expect(data.issue).toMatchObject({ id: urgent.id, status: "in_progress" });
    expect(data.dispatch).toMatchObject({
      id: expect.stringMatching(/^dsp_[0-9A-HJKMNP-TV-Z]{26}$/),
      issueId: urgent.id,
      agent: "claude",
      status: "active",
      attempt: 1,
      leaseSeconds: 600,
      claimedAt: "2026-11-01T12:00:00.000Z",
      heartbeatAt: null,
      leaseExpiresAt: "2026-11-01T12:10:00.000Z",
      finishedAt: null,
      outcome: null,
      usage: null,
      promptId: data.prompt?.id,
      token: expect.stringMatching(/^kzd_/),
    });
    expect(response.headers.get("location")).toBe(`/api/dispatch/${data.dispatch.id}`);
    expect(data.prompt?.text).toContain(`Bearer ${data.dispatch.token}`);
    expect(data.prompt?.text).toContain("status: in_progress");
    expect(data.prompt?.text).toContain(`/api/dispatch/${data.dispatch.id}/heartbeat`);
    expect(data.prompt?.text).toContain(`/api/prompts/${data.prompt?.id}/reviews`);
    // Only a hash of the token is kept: the recorded prompt and the dispatch do not hold it.
    const stored = await json<Body<Prompt>>(await t.app.request(`/api/prompts/${data.prompt?.id}`, { headers: AUTH }));
    expect(stored.data.text).not.toContain(data.dispatch.token);
    expect(stored.data.text).toContain("Bearer [dispatch token]");
    const dispatch = await json<Body<Record<string, unknown>>>(
      await t.app.request(`/api/dispatch/${data.dispatch.id}`, { headers: AUTH }),
    );
    expect(dispatch.data).not.toHaveProperty("token");
    expect(JSON.stringify(dispatch.data)).not.toContain(data.dispatch.token);
    const item = await t.db.get({ pk: `$kaizen#dispatch_1#${data.dispatch.id}`, sk: "$kaizen#dispatch_1" });
    expect(JSON.stringify(item)).not.toContain(data.dispatch.token);
    expect(tokenMatches(data.dispatch.token, String(item?.tokenHash))).toBe(true);
  });

  it("answer 204 when nothing is eligible: no todo issue, blocked ones, or filters that match none", async () => {
    const t = await testApp();
    expect((await claim(t)).status).toBe(204);
    const blocker = await createIssue(t, { title: "blocker", type: "task", status: "backlog" });
    const blocked = await createIssue(t, { title: "blocked", type: "signal", priority: 1 });
    const relation = await post(t, `/api/issues/${blocked.id}/relations`, {
      type: "blocked_by",
      relatedIssueId: blocker.id,
    });
    expect(relation.status).toBe(201);
    expect((await claim(t)).status).toBe(204);
    const queue = await json<ListBody<QueueItem>>(await t.app.request("/api/dispatch/queue", { headers: AUTH }));
    expect(queue).toEqual({ data: [], total: 0 });
    // The blocker finishing unblocks it.
    await t.app.request(`/api/issues/${blocker.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "canceled" }),
    });
    const plan = await createIssue(t, { title: "plan", type: "plan" });
    expect((await claim(t, { agent: "a", types: ["monitor"] })).status).toBe(204);
    expect((await claimed(t, { agent: "a", types: ["plan", "monitor"] })).issue.id).toBe(plan.id);
    expect((await claimed(t, { agent: "a" })).issue.id).toBe(blocked.id);
    const next = await t.app.request("/api/dispatch/next?agent=x", { headers: AUTH });
    expect(next.status).toBe(204);
  });

  it("filter by project and type", async () => {
    const t = await testApp();
    const project = await json<Body<{ id: string }>>(await post(t, "/api/projects", { name: "P" }));
    await createIssue(t, { title: "elsewhere", type: "signal", priority: 1 });
    const inProject = await createIssue(t, { title: "here", type: "task", priority: 4, projectId: project.data.id });
    const planInProject = await createIssue(t, {
      title: "plan",
      type: "plan",
      priority: 4,
      projectId: project.data.id,
    });
    expect((await claimed(t, { agent: "a", projectId: project.data.id, types: ["task"] })).issue.id).toBe(inProject.id);
    expect((await claimed(t, { agent: "a", projectId: project.data.id })).issue.id).toBe(planInProject.id);
    expect((await claim(t, { agent: "a", projectId: project.data.id })).status).toBe(204);
    const viaGet = await t.app.request("/api/dispatch/next?agent=getter&types=signal,task", { headers: AUTH });
    expect(viaGet.status).toBe(200);
    expect((await json<Body<Claim>>(viaGet)).data.dispatch.agent).toBe("getter");
  });

  it("validate the claim body and the next query", async () => {
    const t = await testApp();
    const cases: [Record<string, unknown>, string][] = [
      [{}, "agent:"],
      [{ agent: "" }, "agent: must be 1..100 characters"],
      [{ agent: "x".repeat(101) }, "agent: must be 1..100 characters"],
      [{ agent: "a", leaseSeconds: 59 }, "leaseSeconds: must be between 60 and 7200"],
      [{ agent: "a", leaseSeconds: 7201 }, "leaseSeconds: must be between 60 and 7200"],
      [{ agent: "a", types: ["bug"] }, "types.0:"],
      [{ agent: "a", projectId: "nope" }, "projectId: must be a project id (prj_…)"],
      [{ agent: "a", extra: 1 }, "unknown field: extra"],
    ];
    for (const [body, message] of cases) {
      const response = await claim(t, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ error: string }>(response)).error).toContain(message);
    }
    expect((await t.app.request("/api/dispatch/next?leaseSeconds=5", { headers: AUTH })).status).toBe(400);
    expect((await t.app.request("/api/dispatch/next?types=bug", { headers: AUTH })).status).toBe(400);
  });
});

describe.concurrent("the queue", () => {
  it("previews 50 in exactly the order 50 successive claims take, with scores and breakdowns", async () => {
    // Issues are created on the wall clock; the queue is read three days later.
    const { clock } = manualClock(Date.now() + 3 * 86_400_000);
    const t = await testApp({ clock });
    const types = ["signal", "hypothesis", "plan", "task", "monitor"];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createIssue(t, { title: `q${i}`, type: types[i % 5], priority: (i * 3) % 5 }),
      ),
    );
    const preview: QueueItem[] = [];
    for (let page = 1; page <= 3; page++) {
      const response = await t.app.request(`/api/dispatch/queue?limit=20&page=${page}`, { headers: AUTH });
      const body = await json<ListBody<QueueItem>>(response);
      expect(body.total).toBe(50);
      preview.push(...body.data);
    }
    expect(preview).toHaveLength(50);
    for (const [i, item] of preview.entries()) {
      expect(item.score).toBeCloseTo(
        Object.values(item.breakdown).reduce((a, b) => a + b, 0),
        9,
      );
      if (i > 0) expect(item.score).toBeLessThanOrEqual(preview[i - 1]?.score ?? Number.POSITIVE_INFINITY);
      const expected = scoreOf(
        { ...item.issue, createdAt: String((item.issue as unknown as { createdAt: string }).createdAt) } as never,
        false,
        clock(),
      );
      expect(item.score).toBeCloseTo(expected.score, 9);
      expect(item.breakdown.age).toBeGreaterThan(2.9);
    }
    const order: string[] = [];
    for (let i = 0; i < 50; i++) order.push((await claimed(t, { agent: `a${i}` })).issue.id);
    expect(order).toEqual(preview.map(({ issue }) => issue.id));
    expect((await claim(t)).status).toBe(204);
  });
});

describe.concurrent("the goal bonus", () => {
  it("follows the project's active goal: gained, lost, and for issues that join the project", async () => {
    const t = await testApp();
    const project = await json<Body<{ id: string }>>(await post(t, "/api/projects", { name: "Goals" }));
    const outside = await createIssue(t, { title: "older, outside", type: "task", priority: 3 });
    const inside = await createIssue(t, {
      title: "newer, inside",
      type: "task",
      priority: 3,
      projectId: project.data.id,
    });
    const order = async () =>
      (await json<ListBody<QueueItem>>(await t.app.request("/api/dispatch/queue", { headers: AUTH }))).data.map(
        (item) => [item.issue.id, item.breakdown.goal],
      );
    expect(await order()).toEqual([
      [outside.id, 0],
      [inside.id, 0],
    ]);
    const goal = await json<Body<{ id: string }>>(
      await post(t, "/api/goals", { title: "Faster checkout", projectId: project.data.id, status: "active" }),
    );
    expect(await order()).toEqual([
      [inside.id, 20],
      [outside.id, 0],
    ]);
    const joining = await createIssue(t, { title: "joins later", type: "task", priority: 3 });
    await t.app.request(`/api/issues/${joining.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: project.data.id }),
    });
    expect((await order())[1]).toEqual([joining.id, 20]);
    expect((await claimed(t)).issue.id).toBe(inside.id);
    await t.app.request(`/api/goals/${goal.data.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "achieved" }),
    });
    expect(await order()).toEqual([
      [outside.id, 0],
      [joining.id, 0],
    ]);
  });
});

describe.concurrent("leases", () => {
  it("run out: the issue is claimable again, the old dispatch expired, and its heartbeat, completion and release answer 409", async () => {
    const { clock, advance } = manualClock();
    const t = await testApp({ clock });
    const issue = await createIssue(t, { title: "lease", type: "task" });
    const first = await claimed(t, { agent: "slow", leaseSeconds: 60 });
    advance(30);
    const beat = await post(t, `/api/dispatch/${first.dispatch.id}/heartbeat`);
    expect(beat.status).toBe(200);
    expect((await json<Body<Dispatch>>(beat)).data).toMatchObject({
      heartbeatAt: "2026-11-01T12:00:30.000Z",
      leaseExpiresAt: "2026-11-01T12:01:30.000Z",
    });
    advance(59);
    expect((await claim(t, { agent: "eager" })).status).toBe(204);
    const queued = await json<ListBody<QueueItem>>(await t.app.request("/api/dispatch/queue", { headers: AUTH }));
    expect(queued.total).toBe(0);
    advance(2);
    const preview = await json<ListBody<QueueItem>>(await t.app.request("/api/dispatch/queue", { headers: AUTH }));
    expect(preview.data.map((item) => item.issue.id)).toEqual([issue.id]);
    const second = await claimed(t, { agent: "eager" });
    expect(second.issue.id).toBe(issue.id);
    expect(second.dispatch.attempt).toBe(2);
    const old = await json<Body<Dispatch>>(
      await t.app.request(`/api/dispatch/${first.dispatch.id}`, { headers: AUTH }),
    );
    expect(old.data).toMatchObject({ status: "expired", finishedAt: "2026-11-01T12:01:31.000Z" });
    for (const action of ["heartbeat", "release"]) {
      const response = await post(t, `/api/dispatch/${first.dispatch.id}/${action}`);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: `Dispatch ${first.dispatch.id} is expired` });
    }
    const late = await post(t, `/api/dispatch/${first.dispatch.id}/complete`, { result: "done", summary: "late" });
    expect(late.status).toBe(409);
    const issueNow = await json<Body<Issue>>(await t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }));
    expect(issueNow.data.status).toBe("in_progress");
  });

  it("an active dispatch whose lease ran out answers 409 on heartbeat and is expired at once", async () => {
    const { clock, advance } = manualClock();
    const t = await testApp({ clock });
    const issue = await createIssue(t, { title: "x", type: "task" });
    const { dispatch } = await claimed(t, { agent: "a", leaseSeconds: 60 });
    advance(60);
    const response = await post(t, `/api/dispatch/${dispatch.id}/heartbeat`);
    expect(response.status).toBe(409);
    const list = await json<ListBody<Dispatch>>(
      await t.app.request(`/api/dispatch?issueId=${issue.id}&status=expired`, { headers: AUTH }),
    );
    expect(list.data.map(({ id }) => id)).toEqual([dispatch.id]);
    const back = await json<Body<Issue>>(await t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }));
    expect(back.data.status).toBe("todo");
  });
});

describe.concurrent("outcomes", () => {
  it("done: the issue is done with the summary, commits and merged pull requests; a second completion is a 409", async () => {
    const t = await testApp();
    const issue = await createIssue(t, { title: "work", type: "task" });
    const { dispatch } = await claimed(t);
    const outcome = {
      result: "done",
      summary: "Fixed the timeout",
      commits: [{ sha: "abc1234", message: "Fix" }],
      pullRequests: [{ number: 12, title: `KZN-${issue.number}: fix`, mergedAt: "2026-11-20T10:00:00Z" }],
    };
    const response = await post(t, `/api/dispatch/${dispatch.id}/complete`, outcome);
    expect(response.status).toBe(200);
    const { data } = await json<Body<{ dispatch: Dispatch; issue: Issue }>>(response);
    expect(data.dispatch).toMatchObject({
      status: "completed",
      outcome: {
        summary: "Fixed the timeout",
        commits: outcome.commits,
        // Kept as the instant in UTC with milliseconds (docs/api.md#identifiers-and-fields).
        pullRequests: [{ ...outcome.pullRequests[0], mergedAt: "2026-11-20T10:00:00.000Z" }],
      },
    });
    expect(data.issue).toMatchObject({ status: "done", agentSummary: "Fixed the timeout" });
    expect(data.issue.commits).toHaveLength(1);
    const again = await post(t, `/api/dispatch/${dispatch.id}/complete`, outcome);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: `Dispatch ${dispatch.id} is completed` });
    const bad = await post(t, `/api/dispatch/${dispatch.id}/complete`, { result: "maybe", summary: "x" });
    expect(bad.status).toBe(400);
  });

  it("failed: back to todo with the summary in the next prompt; the third failure cancels the issue", async () => {
    const t = await testApp();
    const issue = await createIssue(t, { title: "hard", type: "task" });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const claim = await claimed(t, { agent: `agent-${attempt}` });
      expect(claim.dispatch.attempt).toBe(attempt);
      if (attempt > 1) expect(claim.prompt?.text).toContain(`Attempt ${attempt - 1} by agent-${attempt - 1}: failed`);
      if (attempt > 1) expect(claim.prompt?.text).toContain(`tried approach ${attempt - 1}`);
      const response = await post(t, `/api/dispatch/${claim.dispatch.id}/complete`, {
        result: "failed",
        summary: `tried approach ${attempt}`,
      });
      expect(response.status).toBe(200);
      const { data } = await json<Body<{ issue: Issue }>>(response);
      expect(data.issue.status).toBe(attempt < 3 ? "todo" : "canceled");
    }
    expect((await claim(t)).status).toBe(204);
    const dispatches = await json<ListBody<Dispatch>>(
      await t.app.request(`/api/dispatch?issueId=${issue.id}`, { headers: AUTH }),
    );
    expect(dispatches.data.map(({ status }) => status)).toEqual(["failed", "failed", "failed"]);
    // The issue by its number names the same dispatches; a number no issue has names none.
    const byNumber = await json<ListBody<Dispatch>>(
      await t.app.request(`/api/dispatch?issueId=KZN-${issue.number}`, { headers: AUTH }),
    );
    expect(byNumber.data.map(({ id }) => id)).toEqual(dispatches.data.map(({ id }) => id));
    const none = await json<ListBody<Dispatch>>(
      await t.app.request("/api/dispatch?issueId=KZN-999", { headers: AUTH }),
    );
    expect(none.data).toEqual([]);
    const bad = await t.app.request("/api/dispatch?issueId=KZN-0", { headers: AUTH });
    expect(bad.status).toBe(400);
  });

  it("count toward the completion rate of the version the prompt came from", async () => {
    const t = await testApp();
    const rate = async () =>
      (
        await json<Body<{ activeVersion: { completionRate: number | null; usageCount: number } }>>(
          await t.app.request("/api/templates/task-execution", { headers: AUTH }),
        )
      ).data.activeVersion;
    expect(await rate()).toMatchObject({ completionRate: null, usageCount: 0 });
    for (let i = 0; i < 4; i++) await createIssue(t, { title: `r${i}`, type: "task" });
    const results = ["done", "failed", "done"];
    for (const result of results) {
      const { dispatch } = await claimed(t);
      await post(t, `/api/dispatch/${dispatch.id}/complete`, { result, summary: result });
    }
    const { dispatch } = await claimed(t);
    await post(t, `/api/dispatch/${dispatch.id}/release`);
    expect(await rate()).toMatchObject({ completionRate: 2 / 4, usageCount: 4 });
  });

  it("release: the issue goes back to todo untouched and can be claimed again", async () => {
    const t = await testApp();
    const issue = await createIssue(t, { title: "r", type: "task" });
    const { dispatch } = await claimed(t);
    // It takes no body: one that says anything is refused, and the dispatch works on.
    for (const [body, error] of [
      ['{"bogus":true}', "unknown field: bogus"],
      ["notjson", "Malformed JSON body"],
    ]) {
      const refused = await t.app.request(`/api/dispatch/${dispatch.id}/release`, {
        method: "POST",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body,
      });
      expect(refused.status, body).toBe(400);
      expect(await refused.json(), body).toMatchObject({ error });
    }
    const working = await t.app.request(`/api/dispatch/${dispatch.id}`, { headers: AUTH });
    expect((await json<Body<Dispatch>>(working)).data.status).toBe("active");
    const response = await post(t, `/api/dispatch/${dispatch.id}/release`);
    expect(response.status).toBe(200);
    expect((await json<Body<{ dispatch: Dispatch; issue: Issue }>>(response)).data).toMatchObject({
      dispatch: { status: "released" },
      issue: { id: issue.id, status: "todo" },
    });
    expect((await claimed(t)).issue.id).toBe(issue.id);
    expect((await post(t, "/api/dispatch/dsp_01JD0000000000000000000000/release")).status).toBe(404);
  });
});

describe.concurrent("a dispatch's ETag", () => {
  it("is its version: 1 as claimed, moved by each step and its end, the same in every answer about it", async () => {
    const t = await testApp();
    const issue = await createIssue(t, { title: "Tagged", type: "task" });
    const made = await claim(t);
    expect(made.status).toBe(201);
    const { dispatch } = (await json<Body<Claim>>(made)).data;
    expect(made.headers.get("location")).toBe(`/api/dispatch/${dispatch.id}`);
    expect(made.headers.get("etag")).toBe('"1"');
    const read = async () =>
      (await t.app.request(`/api/dispatch/${dispatch.id}`, { headers: AUTH })).headers.get("etag");
    expect(await read()).toBe('"1"');
    const asAgent = { Authorization: `Bearer ${dispatch.token}` };
    const beat = await t.app.request(`/api/dispatch/${dispatch.id}/heartbeat`, jsonPost({}, asAgent));
    expect(beat.status).toBe(200);
    expect(beat.headers.get("etag")).toBe('"2"');
    expect(await read()).toBe('"2"');
    // An activity is a resource of its own, written once.
    const said = await t.app.request(
      `/api/dispatch/${dispatch.id}/activities`,
      jsonPost({ type: "thought", body: "Looking" }, asAgent),
    );
    expect(said.status).toBe(201);
    expect(said.headers.get("etag")).toBe('"1"');
    const done = await t.app.request(
      `/api/dispatch/${dispatch.id}/complete`,
      jsonPost({ result: "done", summary: "Done" }, asAgent),
    );
    expect(done.status).toBe(200);
    expect(done.headers.get("etag")).toBe(await read());
    expect(done.headers.get("etag")).toBe('"4"');
    expect((await json<Body<{ issue: Issue }>>(done)).data.issue.id).toBe(issue.id);
  });
});

describe.concurrent("a PATCH that moves a claimed issue", () => {
  it("ends its dispatch (released) in the same write: back to todo it is claimable, to done it stays done", async () => {
    const t = await testApp();
    const issue = await createIssue(t, { title: "p", type: "task" });
    const first = await claimed(t);
    const patch = (body: unknown) =>
      t.app.request(`/api/issues/${issue.id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await patch({ status: "in_progress" })).status).toBe(200);
    const back = await patch({ status: "todo" });
    expect(back.status).toBe(200);
    const ended = await json<Body<Dispatch>>(
      await t.app.request(`/api/dispatch/${first.dispatch.id}`, { headers: AUTH }),
    );
    expect(ended.data.status).toBe("released");
    expect((await post(t, `/api/dispatch/${first.dispatch.id}/heartbeat`)).status).toBe(409);
    const second = await claimed(t);
    expect(second.issue.id).toBe(issue.id);
    expect((await patch({ status: "done" })).status).toBe(200);
    const done = await json<Body<Dispatch>>(
      await t.app.request(`/api/dispatch/${second.dispatch.id}`, { headers: AUTH }),
    );
    expect(done.data.status).toBe("released");
    expect((await claim(t)).status).toBe(204);
    const refused = await patch({ status: "in_progress" });
    expect(refused.status).toBe(409);
  });
});

describe.concurrent.each(CONFLICT_MODES)("concurrent claims ($mode)", ({ emulateConflicts }) => {
  it("30 claimers across two instances against 20 eligible issues: 20 claimed once each, 10 × 204", async () => {
    const t = await testApp({}, { emulateConflicts });
    const other = anotherInstance(t, emulateConflicts);
    const issues = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createIssue(t, { title: `c${i}`, type: "task", priority: (i % 4) + 1 })),
    );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => claim(i % 2 ? t : other, { agent: `agent-${i}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(20).fill(201), ...Array(10).fill(204)]);
    const claims = await Promise.all(
      answers.filter((answer) => answer.status === 201).map(async (answer) => (await json<Body<Claim>>(answer)).data),
    );
    expect(new Set(claims.map((c) => c.issue.id))).toEqual(new Set(issues.map((issue) => issue.id)));
    const active = await json<ListBody<Dispatch>>(
      await t.app.request("/api/dispatch?status=active&limit=100", { headers: AUTH }),
    );
    expect(active.total).toBe(20);
    expect(new Set(active.data.map(({ issueId }) => issueId)).size).toBe(20);
  });
});
