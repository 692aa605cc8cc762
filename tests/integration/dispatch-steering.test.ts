/**
 * Steering an agent at work (docs/api.md#questions-and-answers, docs/api.md#plan-approval,
 * docs/api.md#budget-per-dispatch): a question makes the dispatch wait with its lease paused for at
 * most 7 days and a person's message sets it to work again; a project's plan approval holds a
 * completion until a person approves the latest plan; the running usage is kept, counted once, and
 * held to the dispatch's budget, which Kaizen enforces by stopping it. A person's answers never
 * come from the dispatch's own token, and answers racing the agent keep the sequence whole.
 */
import { describe, expect, it } from "vitest";
import type { Comment } from "../../core/src/comments/schemas.js";
import type { Activity, Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import { AUTH, dataOf, fleetOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { type TestClock, testClock } from "../helpers/clock.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };

const DAY_MS = 24 * 3600 * 1000;

async function project(t: TestApp, fields: Record<string, unknown>): Promise<string> {
  return (await dataOf<{ id: string }>(t.app.request("/api/projects", jsonPost({ name: "Shop", ...fields })), 201)).id;
}

async function claimOne(t: TestApp, projectId?: string, agent = "agent-a"): Promise<Claimed> {
  await dataOf(
    t.app.request("/api/issues", jsonPost({ title: "Checkout times out", type: "task", status: "todo", projectId })),
    201,
  );
  return dataOf<Claimed>(
    t.app.request("/api/dispatch/claim", jsonPost({ agent, ...(projectId ? { projectId } : {}) })),
    201,
  );
}

const as = (claimed: Claimed) => ({ Authorization: `Bearer ${claimed.dispatch.token}` });
const post = (t: TestApp, claimed: Claimed, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(`/api/dispatch/${claimed.dispatch.id}/${path}`, jsonPost(body, headers));
const dispatchOf = (t: TestApp, claimed: Claimed) =>
  dataOf<Dispatch>(t.app.request(`/api/dispatch/${claimed.dispatch.id}`, { headers: AUTH }));
const issueOf = (t: TestApp, claimed: Claimed) =>
  dataOf<Issue>(t.app.request(`/api/issues/${claimed.issue.id}`, { headers: AUTH }));
const activitiesOf = (t: TestApp, claimed: Claimed, after = 0) =>
  dataOf<Activity[]>(
    t.app.request(`/api/dispatch/${claimed.dispatch.id}/activities?after=${after}&limit=100`, { headers: as(claimed) }),
  );
const at = (clock: TestClock, ms: number) => new Date(clock().getTime() + ms).toISOString();

describe("questions and answers", () => {
  it("a question makes the dispatch wait with its lease paused; a person's message sets it to work again", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const claimed = await claimOne(t);
    const question = await dataOf<Activity>(
      post(t, claimed, "activities", { type: "elicitation", body: "Keep the v1 endpoint?" }, as(claimed)),
      201,
    );
    expect(question).toMatchObject({ sequence: 1, type: "elicitation", authorType: "agent" });
    const waiting = await dispatchOf(t, claimed);
    expect(waiting).toMatchObject({ status: "waiting", waitingFor: "input", leaseExpiresAt: at(clock, 7 * DAY_MS) });

    // Far past its 30-minute lease it is still the issue's dispatch: a claim does not take the issue.
    clock.advance(3 * DAY_MS);
    const heartbeat = await dataOf<Dispatch>(post(t, claimed, "heartbeat", {}, as(claimed)));
    expect(heartbeat).toMatchObject({ status: "waiting", leaseExpiresAt: waiting.leaseExpiresAt });
    const thought = await dataOf<Activity>(
      post(t, claimed, "activities", { type: "thought", body: "Reading the v1 callers meanwhile" }, as(claimed)),
      201,
    );
    expect(thought.sequence).toBe(2);
    expect((await dispatchOf(t, claimed)).leaseExpiresAt).toBe(waiting.leaseExpiresAt);
    const other = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-b" }));
    expect(other.status).toBe(204);
    expect((await issueOf(t, claimed)).status).toBe("in_progress");

    // A person answers; the agent's own token may not.
    const byToken = await post(t, claimed, "messages", { body: "Yes" }, as(claimed));
    expect(byToken.status).toBe(403);
    const empty = await post(t, claimed, "messages", { body: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "body: must be 1..20000 characters" });
    const answer = await post(t, claimed, "messages", { body: "Keep it until March" });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({
      data: { sequence: 3, type: "message", body: "Keep it until March", authorType: "human", authorName: null },
    });
    const active = await dispatchOf(t, claimed);
    expect(active).toMatchObject({ status: "active", waitingFor: null, leaseExpiresAt: at(clock, 1800 * 1000) });

    // The agent reads the answer after its question, with its own token.
    const after = await activitiesOf(t, claimed, question.sequence);
    expect(after.map(({ type, authorType }) => [type, authorType])).toEqual([
      ["thought", "agent"],
      ["message", "human"],
    ]);
    // A message to an active dispatch is simply there; it does not move the lease.
    clock.advance(60_000);
    await dataOf(post(t, claimed, "messages", { body: "Also check the mobile app" }), 201);
    expect(await dispatchOf(t, claimed)).toMatchObject({ status: "active", leaseExpiresAt: active.leaseExpiresAt });

    await dataOf(post(t, claimed, "complete", { result: "done", summary: "Kept v1" }, as(claimed)));
    const late = await post(t, claimed, "messages", { body: "Thanks" });
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: `Dispatch ${claimed.dispatch.id} is completed` });
  });

  it("a dispatch waits at most 7 days: then it expires and its issue is claimed again", async () => {
    const clock = testClock();
    const t = await testApp({ clock });
    const claimed = await claimOne(t);
    await dataOf(post(t, claimed, "activities", { type: "elicitation", body: "Which region?" }, as(claimed)), 201);
    clock.advance(7 * DAY_MS - 1000);
    expect((await t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-b" }))).status).toBe(204);
    clock.advance(2000);
    const next = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-b" })), 201);
    expect(next.issue.id).toBe(claimed.issue.id);
    expect(await dispatchOf(t, claimed)).toMatchObject({ status: "expired", waitingFor: null });
    const answer = await post(t, claimed, "messages", { body: "eu-west-1" });
    expect(answer.status).toBe(409);
  });

  it("a waiting dispatch can still be released, completed or stopped", async () => {
    const t = await testApp();
    for (const [path, body, status] of [
      ["release", {}, "released"],
      ["complete", { result: "failed", summary: "Nobody answered" }, "failed"],
      ["stop", { reason: "Not now" }, "stopped"],
    ] as const) {
      const claimed = await claimOne(t);
      await dataOf(post(t, claimed, "activities", { type: "elicitation", body: "?" }, as(claimed)), 201);
      const ended = await post(t, claimed, path, body, path === "stop" ? {} : as(claimed));
      expect(ended.status, path).toBe(200);
      expect(await dispatchOf(t, claimed), path).toMatchObject({ status, waitingFor: null });
      expect((await issueOf(t, claimed)).status, path).toBe("todo");
    }
  });

  it.each(CONFLICT_MODES)(
    "an agent and people posting at once through a fleet keep one whole sequence ($mode)",
    async ({ emulateConflicts }) => {
      const t = await testApp({}, { emulateConflicts });
      const fleet = fleetOf(t, emulateConflicts);
      const claimed = await claimOne(t);
      await dataOf(post(t, claimed, "activities", { type: "elicitation", body: "Which one?" }, as(claimed)), 201);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2 === 0
            ? fleet.request(`/api/dispatch/${claimed.dispatch.id}/messages`, jsonPost({ body: `answer ${i}` }))
            : fleet.request(
                `/api/dispatch/${claimed.dispatch.id}/activities`,
                jsonPost({ type: "thought", body: `thought ${i}` }, as(claimed)),
              ),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
      const all = await activitiesOf(t, claimed);
      expect(all.map((activity) => activity.sequence)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
      expect(all.filter((activity) => activity.type === "message")).toHaveLength(6);
      expect(await dispatchOf(t, claimed)).toMatchObject({ status: "active", waitingFor: null });
    },
  );
});

describe("plan approval", () => {
  it("holds `done` until a person approves the latest plan; rejection sends the feedback", async () => {
    const t = await testApp();
    const projectId = await project(t, { autonomy: { planApproval: true } });
    const claimed = await claimOne(t, projectId);
    expect(claimed.dispatch).toMatchObject({ planApproved: false, waitingFor: null });
    expect(claimed.prompt?.text).toContain("This project wants a person to approve your plan first");

    const required = { error: "Plan approval required: post a plan activity and wait for approval" };
    const early = await post(t, claimed, "complete", { result: "done", summary: "Done" }, as(claimed));
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual(required);
    const notWaiting = await post(t, claimed, "approve", {});
    expect(notWaiting.status).toBe(409);
    expect(await notWaiting.json()).toEqual({ error: `Dispatch ${claimed.dispatch.id} is not waiting for approval` });

    await dataOf(post(t, claimed, "activities", { type: "plan", body: "1. Raise the timeout" }, as(claimed)), 201);
    expect(await dispatchOf(t, claimed)).toMatchObject({ status: "waiting", waitingFor: "approval" });
    for (const path of ["approve", "reject"]) {
      const byToken = await post(t, claimed, path, { feedback: "mine" }, as(claimed));
      expect(byToken.status, path).toBe(403);
    }
    const noFeedback = await post(t, claimed, "reject", {});
    expect(noFeedback.status).toBe(400);
    const rejected = await dataOf<{ dispatch: Dispatch; activity: Activity }>(
      post(t, claimed, "reject", { feedback: "Find why it is slow instead" }),
    );
    expect(rejected.dispatch).toMatchObject({ status: "active", waitingFor: null, planApproved: false });
    expect(rejected.activity).toMatchObject({
      type: "message",
      authorType: "human",
      body: "Find why it is slow instead",
      data: { decision: "rejected" },
    });
    expect((await post(t, claimed, "complete", { result: "done", summary: "Done" }, as(claimed))).status).toBe(409);

    await dataOf(post(t, claimed, "activities", { type: "plan", body: "1. Profile the query" }, as(claimed)), 201);
    const approved = await dataOf<{ dispatch: Dispatch; activity: Activity }>(
      post(t, claimed, "approve", { comment: "Go" }),
    );
    expect(approved.dispatch).toMatchObject({ status: "active", planApproved: true });
    expect(approved.activity).toMatchObject({ type: "message", body: "Go", data: { decision: "approved" } });
    const done = await post(t, claimed, "complete", { result: "done", summary: "Indexed the query" }, as(claimed));
    expect(done.status).toBe(200);
    expect(await issueOf(t, claimed)).toMatchObject({ status: "done" });
  });

  it("a new plan after an approval needs approving again; `failed` never waits for one", async () => {
    const t = await testApp();
    const projectId = await project(t, { autonomy: { planApproval: true } });
    const claimed = await claimOne(t, projectId);
    await dataOf(post(t, claimed, "activities", { type: "plan", body: "A" }, as(claimed)), 201);
    await dataOf(post(t, claimed, "approve", {}));
    await dataOf(post(t, claimed, "activities", { type: "plan", body: "B, bigger" }, as(claimed)), 201);
    expect(await dispatchOf(t, claimed)).toMatchObject({ waitingFor: "approval", planApproved: false });
    const failed = await post(t, claimed, "complete", { result: "failed", summary: "Gave up" }, as(claimed));
    expect(failed.status).toBe(200);
  });

  it("on a project that asks for none, a plan is only an activity and the prompt says nothing of approval", async () => {
    const t = await testApp();
    const claimed = await claimOne(t, await project(t, {}));
    expect(claimed.dispatch.planApproved).toBeNull();
    expect(claimed.prompt?.text).not.toContain("approve your plan");
    expect(claimed.prompt?.text).toContain("elicitation");
    await dataOf(post(t, claimed, "activities", { type: "plan", body: "A" }, as(claimed)), 201);
    expect(await dispatchOf(t, claimed)).toMatchObject({ status: "active", waitingFor: null });
    expect((await post(t, claimed, "complete", { result: "done", summary: "Done" }, as(claimed))).status).toBe(200);
  });

  it("autonomy is set on create, replaced by a PATCH, refused when malformed, and read false when never set", async () => {
    const t = await testApp();
    const id = await project(t, {});
    const read = () => dataOf<{ autonomy: unknown }>(t.app.request(`/api/projects/${id}`, { headers: AUTH }));
    expect((await read()).autonomy).toEqual({ planApproval: false });
    const patch = (autonomy: unknown) =>
      t.app.request(`/api/projects/${id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ autonomy }),
      });
    expect((await patch({ planApproval: true })).status).toBe(200);
    expect((await read()).autonomy).toEqual({ planApproval: true });
    expect((await patch({})).status).toBe(200);
    expect((await read()).autonomy).toEqual({ planApproval: false });
    for (const [autonomy, error] of [
      [{ planApproval: "yes" }, "autonomy.planApproval: must be true or false"],
      [{ approve: true }, "autonomy: unknown field: approve"],
      [null, "autonomy: must be an object { planApproval? }"],
    ] as const) {
      const refused = await patch(autonomy);
      expect(refused.status, JSON.stringify(autonomy)).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe(error);
    }
  });
});

describe("budget per dispatch", () => {
  it("keeps the highest running usage, and stops the dispatch as Kaizen when its cost passes the budget", async () => {
    const t = await testApp();
    const projectId = await project(t, { limits: { maxCostPerDispatchUsd: 1 } });
    const claimed = await claimOne(t, projectId);
    expect(claimed.dispatch.costBudgetUsd).toBe(1);
    const beat = await dataOf<Dispatch>(
      post(t, claimed, "heartbeat", { usage: { costUsd: 0.5, inputTokens: 1000, model: "m1" } }, as(claimed)),
    );
    expect(beat.usage).toEqual({ costUsd: 0.5, inputTokens: 1000, outputTokens: null, model: "m1" });
    // A lower total is ignored; a new figure and model are kept.
    await dataOf(
      post(
        t,
        claimed,
        "activities",
        { type: "action", body: "ran tests", usage: { costUsd: 0.4, outputTokens: 20, model: "m2" } },
        as(claimed),
      ),
      201,
    );
    expect((await dispatchOf(t, claimed)).usage).toEqual({
      costUsd: 0.5,
      inputTokens: 1000,
      outputTokens: 20,
      model: "m2",
    });
    // Read back from the table, its figures keep the API's order.
    expect(Object.keys((await dispatchOf(t, claimed)).usage ?? {})).toEqual([
      "inputTokens",
      "outputTokens",
      "costUsd",
      "model",
    ]);
    // Exactly at the budget is within it.
    expect((await post(t, claimed, "heartbeat", { usage: { costUsd: 1 } }, as(claimed))).status).toBe(200);

    const reason =
      "Cost budget passed: $1.25 reported, the project's limit is $1 per dispatch (limits.maxCostPerDispatchUsd)";
    const over = await post(
      t,
      claimed,
      "activities",
      { type: "thought", body: "one more try", usage: { costUsd: 1.25 } },
      as(claimed),
    );
    expect(over.status).toBe(409);
    expect(await over.json()).toEqual({ error: `Dispatch was stopped: ${reason}` });
    const stopped = await dispatchOf(t, claimed);
    expect(stopped).toMatchObject({ status: "stopped", stopReason: reason, usage: { costUsd: 1.25 } });
    // The activity that reported it was not kept.
    expect(await activitiesOf(t, claimed)).toHaveLength(1);
    const issue = await issueOf(t, claimed);
    expect(issue).toMatchObject({
      status: "backlog",
      statusChange: { from: "in_progress", to: "backlog", by: "automation" },
    });
    // Kaizen's own action, in the audit log with the stop's transaction; the agent's reports are not recorded.
    const records = await dataOf<{ actor: { kind: string } | null; action: string | null; targetId: string }[]>(
      t.app.request("/api/audit?actorId=kaizen", { headers: AUTH }),
    );
    expect(records).toEqual([
      expect.objectContaining({
        actor: { kind: "automation", id: "kaizen", name: "kaizen" },
        action: `dispatch.stopped ${claimed.dispatch.id}: ${reason}; issue.status in_progress→backlog`,
        targetId: claimed.issue.id,
      }),
    ]);
    const comments = await dataOf<Comment[]>(
      t.app.request(`/api/issues/${claimed.issue.id}/comments`, { headers: AUTH }),
    );
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ authorName: "kaizen", authorType: "agent" });
    expect(comments[0]?.body).toContain(reason);
    for (const path of ["heartbeat", "complete"]) {
      const later = await post(
        t,
        claimed,
        path,
        path === "complete" ? { result: "done", summary: "x" } : {},
        as(claimed),
      );
      expect(later.status, path).toBe(409);
      expect(await later.json(), path).toEqual({ error: `Dispatch was stopped: ${reason}` });
    }
    // Its cost counts once, toward the day's usage.
    const usage = await dataOf<{ days: { costUsd: number; reports: number }[] }>(
      t.app.request("/api/dashboard/usage?days=1", { headers: AUTH }),
    );
    expect(usage.days[0]).toMatchObject({ costUsd: 1.25, reports: 1 });
  });

  it("a completion over the budget stops the dispatch instead of finishing it", async () => {
    const t = await testApp();
    const claimed = await claimOne(t, await project(t, { limits: { maxCostPerDispatchUsd: 2 } }));
    const answer = await post(
      t,
      claimed,
      "complete",
      { result: "done", summary: "Done", usage: { costUsd: 3 } },
      as(claimed),
    );
    expect(answer.status).toBe(409);
    expect(await dispatchOf(t, claimed)).toMatchObject({ status: "stopped", outcome: null });
    expect((await issueOf(t, claimed)).status).toBe("backlog");
  });

  it("running usage reported on the way counts once, as the completion's total", async () => {
    const t = await testApp();
    const claimed = await claimOne(t);
    expect(claimed.dispatch.costBudgetUsd).toBeNull();
    await dataOf(post(t, claimed, "heartbeat", { usage: { costUsd: 0.3 } }, as(claimed)));
    await dataOf(post(t, claimed, "heartbeat", { usage: { costUsd: 0.4 } }, as(claimed)));
    const done = await dataOf<{ dispatch: Dispatch }>(
      post(t, claimed, "complete", { result: "done", summary: "Done", usage: { costUsd: 0.5 } }, as(claimed)),
    );
    expect(done.dispatch.usage?.costUsd).toBe(0.5);
    const usage = await dataOf<{ days: { costUsd: number; reports: number }[] }>(
      t.app.request("/api/dashboard/usage?days=1", { headers: AUTH }),
    );
    expect(usage.days[0]).toMatchObject({ costUsd: 0.5, reports: 1 });
  });
});
