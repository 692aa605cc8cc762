/** The loop closed end to end: signal → triage → todo → claim → merged pull request → done. */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, issueEvent, mergedPullRequest } from "../helpers/deliveries.js";

type Body<T> = { data: T };
type Issue = { id: string; number: number; status: string; pullRequests: { number: number; title: string }[] };

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function deliver(t: TestApp, event: string, body: unknown) {
  const delivery = codehostDelivery(event, body);
  return t.app.request(delivery.path, delivery.init);
}

const patch = (t: TestApp, id: string, body: unknown) =>
  t.app.request(`/api/issues/${id}`, {
    method: "PATCH",
    headers: { ...AUTH, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("closing the loop", () => {
  it("signal → triage → todo → claim → merged pull request naming KZN-n → done, dispatch completed", async () => {
    const t = await testApp();
    const opened = await deliver(t, "issues", issueEvent("opened", 77, "Checkout button does nothing"));
    expect(opened.status).toBe(201);
    const issue = (await json<Body<{ issue: Issue }>>(opened)).data.issue;
    expect(issue.status).toBe("triage");
    expect((await patch(t, issue.id, { status: "todo" })).status).toBe(200);
    const claim = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "fixer" }));
    expect(claim.status).toBe(201);
    const { dispatch } = (await json<Body<{ dispatch: Dispatch }>>(claim)).data;
    expect(dispatch.issueId).toBe(issue.id);

    const merged = await deliver(
      t,
      "pull_request",
      mergedPullRequest(501, { title: `Fix checkout button (KZN-${issue.number})` }),
    );
    expect(merged.status).toBe(201);
    const answer = (await json<Body<{ signal: { action: string; issueId: string }; issue: Issue }>>(merged)).data;
    expect(answer.signal).toMatchObject({ action: "closed_loop", issueId: issue.id });
    expect(answer.issue).toMatchObject({ id: issue.id, status: "done" });

    const after = await json<Body<Issue>>(await t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }));
    expect(after.data.status).toBe("done");
    expect(after.data.pullRequests).toEqual([
      {
        number: 501,
        title: `Fix checkout button (KZN-${issue.number})`,
        url: "https://codehost.example/octo-org/shop/pull/501",
        repository: "octo-org/shop",
        state: "merged",
        // The code host's merged_at, "2026-11-20T10:00:00Z", in UTC with milliseconds.
        mergedAt: "2026-11-20T10:00:00.000Z",
      },
    ]);
    const finished = await json<Body<Dispatch>>(await t.app.request(`/api/dispatch/${dispatch.id}`, { headers: AUTH }));
    expect(finished.data).toMatchObject({
      status: "completed",
      outcome: { summary: `Merged pull request #501: Fix checkout button (KZN-${issue.number})` },
    });
    const late = await t.app.request(`/api/dispatch/${dispatch.id}/heartbeat`, jsonPost({}));
    expect(late.status).toBe(409);
  });

  it("names issues by a kaizen/<n> branch too, closes open issues without a dispatch, and leaves others alone", async () => {
    const t = await testApp();
    const create = async (body: Record<string, unknown>) =>
      (await json<Body<Issue>>(await t.app.request("/api/issues", jsonPost(body)))).data;
    const backlog = await create({ title: "b", type: "task", status: "backlog" });
    const untouched = await create({ title: "u", type: "task", status: "todo" });
    const merged = await deliver(t, "pull_request", mergedPullRequest(9, { branch: `kaizen/${backlog.number}-tidy` }));
    expect((await json<Body<{ signal: { action: string } }>>(merged)).data.signal.action).toBe("closed_loop");
    const read = async (id: string) =>
      (await json<Body<Issue>>(await t.app.request(`/api/issues/${id}`, { headers: AUTH }))).data;
    expect((await read(backlog.id)).status).toBe("done");
    expect((await read(untouched.id)).status).toBe("todo");
    // Redelivered: nothing new; merged again under another delivery id: the pull request is not listed twice.
    await deliver(t, "pull_request", mergedPullRequest(9, { branch: `kaizen/${backlog.number}-tidy` }));
    expect((await read(backlog.id)).pullRequests).toHaveLength(1);
  });

  it("does not close anything for a pull request closed without merging, or naming no existing issue", async () => {
    const t = await testApp();
    const issue = (await json<Body<Issue>>(await t.app.request("/api/issues", jsonPost({ title: "x", type: "task" }))))
      .data;
    const unmerged = await deliver(
      t,
      "pull_request",
      mergedPullRequest(3, { title: `KZN-${issue.number}`, merged: false }),
    );
    expect((await json<Body<{ signal: { action: string } }>>(unmerged)).data.signal.action).not.toBe("closed_loop");
    const nowhere = await deliver(t, "pull_request", mergedPullRequest(4, { title: "KZN-999999" }));
    expect((await json<Body<{ signal: { action: string } }>>(nowhere)).data.signal.action).not.toBe("closed_loop");
    const read = await json<Body<Issue>>(await t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }));
    expect(read.data.status).toBe("triage");
  });
});
