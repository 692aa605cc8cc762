/**
 * Stopping an agent at work (docs/api.md#stopping-a-dispatch): a person stops an active dispatch
 * with a reason; its issue moves where they say; every later call with its token answers 409 with
 * the reason; its own token may not stop it; and a stop racing a completion ends the dispatch
 * exactly once, in both conflict modes. Bodies that name `then` (the API's field) are written as JSON
 * text: an object literal with a `then` would pass for a promise.
 */
import { describe, expect, it } from "vitest";
import type { AgentPerformance } from "../../core/src/dashboard/schemas.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { AUTH, dataOf, fleetOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };
type Stopped = { dispatch: Dispatch; issue: Issue | null };

async function claimOne(t: TestApp): Promise<Claimed> {
  await dataOf(
    t.app.request("/api/issues", jsonPost({ title: "Checkout times out", type: "task", status: "todo" })),
    201,
  );
  return dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-a" })), 201);
}

const as = (claimed: Claimed) => ({ Authorization: `Bearer ${claimed.dispatch.token}` });
const stop = (t: TestApp, claimed: Claimed, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(`/api/dispatch/${claimed.dispatch.id}/stop`, jsonPost(body, headers));

describe("stopping a dispatch", () => {
  it("ends it stopped with its reason, moves its issue, and answers every later token call with the reason", async () => {
    const t = await testApp();
    const claimed = await claimOne(t);
    const byToken = await stop(t, claimed, { reason: "Mine" }, as(claimed));
    expect(byToken.status).toBe(403);
    for (const [body, message] of [
      [{ reason: "" }, "reason: must be 1..500 characters"],
      [{ reason: "x".repeat(501) }, "reason: must be 1..500 characters"],
      ['{"reason": "Wrong way", "then": "done"}', "then"],
    ] as const) {
      const refused = await stop(t, claimed, body);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain(message);
    }
    const stopped = await dataOf<Stopped>(
      stop(t, claimed, '{"reason": "Rewriting the payment module", "then": "backlog"}'),
    );
    expect(stopped.dispatch).toMatchObject({
      id: claimed.dispatch.id,
      status: "stopped",
      stopReason: "Rewriting the payment module",
      finishedAt: expect.any(String),
    });
    expect(stopped.issue).toMatchObject({
      id: claimed.issue.id,
      status: "backlog",
      statusChange: { from: "in_progress" },
    });
    const message = { error: "Dispatch was stopped: Rewriting the payment module" };
    for (const [path, body] of [
      ["heartbeat", undefined],
      ["activities", { type: "thought", body: "still going" }],
      ["complete", { result: "done", summary: "Done anyway" }],
      ["release", undefined],
    ] as const) {
      const answer = await t.app.request(
        `/api/dispatch/${claimed.dispatch.id}/${path}`,
        jsonPost(body ?? {}, as(claimed)),
      );
      expect(answer.status, path).toBe(409);
      expect(await answer.json(), path).toEqual(message);
    }
    // Its token acts on nothing else any more.
    const comment = await t.app.request(
      `/api/issues/${claimed.issue.id}/comments`,
      jsonPost({ body: "late", authorType: "agent" }, as(claimed)),
    );
    expect(comment.status).toBe(403);
    const again = await stop(t, claimed, { reason: "Twice" });
    expect(again.status).toBe(409);
    const agents = await dataOf<AgentPerformance[]>(t.app.request("/api/dashboard/agents?days=1", { headers: AUTH }));
    expect(agents[0]).toMatchObject({ agent: "agent-a", claims: 1, stopped: 1, completed: 0 });
  });

  it("sends the issue back to todo by default, to be claimed again", async () => {
    const t = await testApp();
    const claimed = await claimOne(t);
    const stopped = await dataOf<Stopped>(stop(t, claimed, { reason: "Paused for the release freeze" }));
    expect(stopped.issue?.status).toBe("todo");
    const next = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-b" })), 201);
    expect(next.issue.id).toBe(claimed.issue.id);
    expect(next.dispatch.attempt).toBe(2);
  });

  it.each(CONFLICT_MODES)(
    "racing a completion through a fleet, exactly one of them ends the dispatch ($mode)",
    async ({ emulateConflicts }) => {
      const t = await testApp({}, { emulateConflicts });
      const fleet = fleetOf(t, emulateConflicts);
      for (let round = 0; round < 4; round++) {
        const claimed = await claimOne(t);
        const [stopAnswer, completeAnswer] = await Promise.all([
          fleet.request(
            `/api/dispatch/${claimed.dispatch.id}/stop`,
            jsonPost('{"reason": "Stop", "then": "canceled"}'),
          ),
          fleet.request(
            `/api/dispatch/${claimed.dispatch.id}/complete`,
            jsonPost({ result: "done", summary: "Done" }, as(claimed)),
          ),
        ]);
        expect([stopAnswer.status, completeAnswer.status].sort()).toEqual([200, 409]);
        const dispatch = await dataOf<Dispatch>(
          t.app.request(`/api/dispatch/${claimed.dispatch.id}`, { headers: AUTH }),
        );
        const issue = await dataOf<Issue>(t.app.request(`/api/issues/${claimed.issue.id}`, { headers: AUTH }));
        if (stopAnswer.status === 200) {
          expect([dispatch.status, issue.status]).toEqual(["stopped", "canceled"]);
        } else {
          expect([dispatch.status, issue.status]).toEqual(["completed", "done"]);
        }
      }
    },
  );
});
