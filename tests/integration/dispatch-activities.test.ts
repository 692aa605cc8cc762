/**
 * What an agent says while it works (docs/api.md#activities): activities posted with the dispatch's
 * token take sequences 1, 2, … without gaps or repeats, even posted all at once through a fleet of
 * one-request instances (both conflict modes); each counts as a heartbeat; `after` tails them; an
 * ended dispatch takes none, and its activities stay readable.
 */
import { describe, expect, it } from "vitest";
import type { Activity, Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { AUTH, dataOf, fleetOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };

async function claimOne(t: TestApp, title = "Checkout times out"): Promise<Claimed> {
  await dataOf(t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" })), 201);
  return dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-a", leaseSeconds: 600 })), 201);
}

const as = (claimed: Claimed) => ({ Authorization: `Bearer ${claimed.dispatch.token}` });
const post = (t: TestApp, claimed: Claimed, body: unknown) =>
  t.app.request(`/api/dispatch/${claimed.dispatch.id}/activities`, jsonPost(body, as(claimed)));
const list = (t: TestApp, claimed: Claimed, query = "") =>
  t.app.request(`/api/dispatch/${claimed.dispatch.id}/activities${query}`, { headers: AUTH });

describe("activities", () => {
  it("are numbered in order, each a heartbeat, listed oldest first and tailed with after", async () => {
    const clock = testClock(Date.parse("2026-11-20T08:00:00.000Z"));
    const t = await testApp({ clock });
    const claimed = await claimOne(t);
    clock.advance(60_000);
    const first = await dataOf<Activity>(
      post(t, claimed, { type: "thought", body: "The total is undefined for empty carts", data: { file: "cart.ts" } }),
      201,
    );
    expect(first).toEqual({
      id: expect.stringMatching(/^act_[0-9A-HJKMNP-TV-Z]{26}$/),
      dispatchId: claimed.dispatch.id,
      issueId: claimed.issue.id,
      sequence: 1,
      type: "thought",
      body: "The total is undefined for empty carts",
      data: { file: "cart.ts" },
      authorType: "agent",
      authorName: "agent-a",
      createdAt: clock().toISOString(),
    });
    // A heartbeat: the lease runs its length from the activity.
    const read = await dataOf<Dispatch>(t.app.request(`/api/dispatch/${claimed.dispatch.id}`, { headers: AUTH }));
    expect(read).toMatchObject({
      heartbeatAt: clock().toISOString(),
      leaseExpiresAt: new Date(clock().getTime() + 600_000).toISOString(),
    });
    for (const [type, body] of [
      ["action", "Ran the cart tests"],
      ["error", "One test times out"],
      ["response", "Guarded the total"],
    ] as const) {
      await dataOf(post(t, claimed, { type, body }), 201);
    }
    const page = (await (await list(t, claimed)).json()) as { data: Activity[]; total: number };
    expect(page.data.map(({ sequence, type }) => [sequence, type])).toEqual([
      [1, "thought"],
      [2, "action"],
      [3, "error"],
      [4, "response"],
    ]);
    expect(page.total).toBe(4);
    const tail = (await (await list(t, claimed, "?after=2")).json()) as { data: Activity[]; total: number };
    expect(tail.data.map(({ sequence }) => sequence)).toEqual([3, 4]);
    expect(tail.total).toBe(2);
    const second = await dataOf<Activity[]>(list(t, claimed, "?after=1&limit=2&page=2"));
    expect(second.map(({ sequence }) => sequence)).toEqual([4]);
    expect(await dataOf<Activity[]>(list(t, claimed, "?after=4"))).toEqual([]);
  });

  it.each(CONFLICT_MODES)(
    "posted all at once through a fleet, take 1..N once each, in the order they were taken ($mode)",
    async ({ emulateConflicts }) => {
      const t = await testApp({}, { emulateConflicts });
      const claimed = await claimOne(t);
      const fleet = fleetOf(t, emulateConflicts);
      const posts = 20;
      const answers = await Promise.all(
        Array.from({ length: posts }, (_, n) =>
          fleet.request(
            `/api/dispatch/${claimed.dispatch.id}/activities`,
            jsonPost({ type: "action", body: `step ${n}` }, as(claimed)),
          ),
        ),
      );
      expect(answers.map(({ status }) => status)).toEqual(Array(posts).fill(201));
      const taken = await Promise.all(
        answers.map(async (answer) => ((await answer.json()) as { data: Activity }).data),
      );
      expect(taken.map(({ sequence }) => sequence).sort((a, b) => a - b)).toEqual(
        Array.from({ length: posts }, (_, n) => n + 1),
      );
      const listed = await dataOf<Activity[]>(list(t, claimed, "?limit=100"));
      expect(listed.map(({ sequence }) => sequence)).toEqual(Array.from({ length: posts }, (_, n) => n + 1));
      // Each listed as the post that took its sequence answered.
      const bySequence = new Map(taken.map((activity) => [activity.sequence, activity]));
      for (const activity of listed) expect(activity).toEqual(bySequence.get(activity.sequence));
    },
  );

  it("refuse bad input, another dispatch's token, an ended dispatch and an ended lease; stay readable", async () => {
    const clock = testClock(Date.parse("2026-11-20T08:00:00.000Z"));
    const t = await testApp({ clock });
    const claimed = await claimOne(t, "First");
    const other = await claimOne(t, "Second");
    const refused = async (body: unknown, message: string) => {
      const answer = await post(t, claimed, body);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(await answer.json())).toContain(message);
    };
    await refused({ type: "message", body: "x" }, "type");
    await refused({ type: "thought", body: "" }, "body: must be 1..20000 characters");
    await refused({ type: "thought", body: "x".repeat(20_001) }, "body: must be 1..20000 characters");
    await refused(
      { type: "thought", body: "x", data: { blob: "y".repeat(17_000) } },
      "data: must be at most 16384 bytes as JSON",
    );
    await refused({ type: "thought", body: "x", extra: 1 }, "extra");
    const foreign = await t.app.request(
      `/api/dispatch/${claimed.dispatch.id}/activities`,
      jsonPost({ type: "thought", body: "not mine" }, as(other)),
    );
    expect(foreign.status).toBe(403);
    await dataOf(post(t, claimed, { type: "thought", body: "kept" }), 201);
    await dataOf(
      t.app.request(
        `/api/dispatch/${claimed.dispatch.id}/complete`,
        jsonPost({ result: "done", summary: "Done" }, as(claimed)),
      ),
    );
    const ended = await t.app.request(
      `/api/dispatch/${claimed.dispatch.id}/activities`,
      jsonPost({ type: "thought", body: "late" }, AUTH),
    );
    expect(ended.status).toBe(409);
    expect(await ended.json()).toEqual({ error: `Dispatch ${claimed.dispatch.id} is completed` });
    expect((await dataOf<Activity[]>(list(t, claimed))).map(({ body }) => body)).toEqual(["kept"]);
    // The other's lease runs out: its next activity finds it expired.
    clock.advance(601_000);
    const late = await t.app.request(
      `/api/dispatch/${other.dispatch.id}/activities`,
      jsonPost({ type: "thought", body: "still here" }, AUTH),
    );
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: `Dispatch ${other.dispatch.id} is expired` });
    const missing = await t.app.request("/api/dispatch/dsp_01HZZZZZZZZZZZZZZZZZZZZZZZ/activities", { headers: AUTH });
    expect(missing.status).toBe(404);
  });
});
