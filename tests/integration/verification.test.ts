/**
 * Verification after merge (docs/api.md#verification): a merged fix is watched for its project's
 * `verifyHours`; the problem's return within the window (a signal of the issue's fingerprint, an
 * error tracker's `issue.unresolved`, a code host's `issues.reopened`) reopens the same issue to
 * `todo` as `regressed`, charged to the dispatch whose pull request merged; after the window the
 * signal goes its old way. Payloads are the error tracker's fixtures and the code host's shapes,
 * signed as the providers sign them.
 */
import { describe, expect, it } from "vitest";
import { projectKey } from "../../core/src/catalog/keys.js";
import type { Project } from "../../core/src/catalog/schemas.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Signal } from "../../core/src/signals/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, errortrackerDelivery, issueEvent, mergedPullRequest } from "../helpers/deliveries.js";
import { loadFixture } from "../helpers/fixtures.js";

type Ingested = { signal: Signal; issue: Issue | null; duplicate: boolean };
type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };
const HOUR = 3_600_000;

async function send(t: TestApp, delivery: { path: string; init: RequestInit }) {
  const response = await t.app.request(delivery.path, delivery.init);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Ingested }).data;
}

/** The error tracker's `issue.<action>` fixture, about error tracker issue `id`. */
function errorEvent(action: "created" | "unresolved", id: string) {
  const body = structuredClone(loadFixture(`errortracker/issue.${action}.json`)) as { data: { issue: { id: string } } };
  body.data.issue.id = id;
  return errortrackerDelivery("issue", body);
}

const patch = (t: TestApp, id: string, body: unknown) =>
  dataOf<Issue>(
    t.app.request(`/api/issues/${id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

/** `issue` claimed and completed with its open pull request #`number`, then merged `mergedAgoMs` ago. */
async function fixAndMerge(t: TestApp, issue: Issue, number: number, mergedAgoMs: number) {
  await patch(t, issue.id, { status: "todo" });
  const claimed = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "fixer" })), 201);
  expect(claimed.issue.id).toBe(issue.id);
  const url = `https://codehost.example/octo-org/shop/pull/${number}`;
  await dataOf(
    t.app.request(
      `/api/dispatch/${claimed.dispatch.id}/complete`,
      jsonPost(
        { result: "done", summary: "Guarded the total", pullRequests: [{ number, title: "Guard the total", url }] },
        { Authorization: `Bearer ${claimed.dispatch.token}` },
      ),
    ),
  );
  // The code host sends merged_at without milliseconds; it is kept as the instant in UTC with them.
  const sent = new Date(Date.now() - mergedAgoMs).toISOString().replace(/\.\d{3}Z$/, "Z");
  const body = mergedPullRequest(number);
  body.pull_request.merged_at = sent;
  const merged = await send(t, codehostDelivery("pull_request", body));
  expect(merged.signal.action).toBe("closed_loop");
  return { issue: merged.issue as Issue, dispatch: claimed.dispatch, mergedAt: new Date(sent).toISOString() };
}

describe("verification", () => {
  it("projects watch merged fixes for verifyHours (72 by default, 1..720)", async () => {
    const t = await testApp();
    expect((await dataOf<Project>(t.app.request("/api/projects", jsonPost({ name: "A" })), 201)).verifyHours).toBe(72);
    const set = await dataOf<Project>(t.app.request("/api/projects", jsonPost({ name: "B", verifyHours: 6 })), 201);
    expect(set.verifyHours).toBe(6);
    const longest = await dataOf<Project>(
      t.app.request("/api/projects", jsonPost({ name: "L", verifyHours: 720 })),
      201,
    );
    expect(longest.verifyHours).toBe(720);
    for (const verifyHours of [0, 721, 2160]) {
      const refused = await t.app.request("/api/projects", jsonPost({ name: "C", verifyHours }));
      expect(refused.status, String(verifyHours)).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe(
        "verifyHours: must be an integer 1..720 (hours)",
      );
    }
    const patched = await t.app.request(`/api/projects/${set.id}`, {
      ...jsonPost({ verifyHours: 721 }),
      method: "PATCH",
    });
    expect(patched.status).toBe(400);
  });

  it("a project stored with more verifyHours than today's 720 reads, renames and watches by what it holds", async () => {
    const t = await testApp();
    const project = await dataOf<Project>(
      t.app.request("/api/projects", jsonPost({ name: "Old", verifyHours: 720 })),
      201,
    );
    // As an earlier release stored it: it took up to 2160.
    await t.db.update({
      Key: projectKey(project.id),
      UpdateExpression: "SET #verifyHours = :stored",
      ExpressionAttributeNames: { "#verifyHours": "verifyHours" },
      ExpressionAttributeValues: { ":stored": 2000 },
    });
    expect((await dataOf<Project>(t.app.request(`/api/projects/${project.id}`, { headers: AUTH }))).verifyHours).toBe(
      2000,
    );
    const renamed = await dataOf<Project>(
      t.app.request(`/api/projects/${project.id}`, { ...jsonPost({ name: "Older" }), method: "PATCH" }),
    );
    expect(renamed).toMatchObject({ name: "Older", verifyHours: 2000 });
    const issue = (await send(t, errorEvent("created", "900009"))).issue as Issue;
    await patch(t, issue.id, { projectId: project.id });
    const { issue: done, mergedAt } = await fixAndMerge(t, issue, 79, 0);
    expect(done.verification?.until).toBe(new Date(Date.parse(mergedAt) + 2000 * HOUR).toISOString());
  });

  it("a merge starts the watch; the error coming back within it reopens the same issue as regressed", async () => {
    const t = await testApp();
    const project = await dataOf<Project>(
      t.app.request("/api/projects", jsonPost({ name: "Shop", verifyHours: 2 })),
      201,
    );
    const opened = await send(t, errorEvent("created", "900001"));
    const issue = opened.issue as Issue;
    await patch(t, issue.id, { projectId: project.id });
    const { issue: done, dispatch, mergedAt } = await fixAndMerge(t, issue, 71, HOUR);
    expect(done).toMatchObject({
      status: "done",
      verification: {
        status: "pending",
        mergedAt,
        until: new Date(Date.parse(mergedAt) + 2 * HOUR).toISOString(),
        regressedAt: null,
        signalId: null,
        dispatchId: dispatch.id,
      },
    });

    const back = await send(t, errorEvent("created", "900001"));
    expect(back.signal).toMatchObject({ action: "regressed", issueId: issue.id });
    expect(back.issue).toMatchObject({
      id: issue.id,
      status: "todo",
      completedAt: null,
      signalCount: 2,
      statusChange: { from: "done", to: "todo", by: "signal" },
      verification: {
        status: "regressed",
        mergedAt,
        regressedAt: back.signal.receivedAt,
        signalId: back.signal.id,
        dispatchId: dispatch.id,
      },
    });
    const all = await dataOf<Issue[]>(t.app.request("/api/issues", { headers: AUTH }));
    expect(all).toHaveLength(1);
    // Fixed and merged again: a new watch.
    const again = await fixAndMerge(t, back.issue as Issue, 72, 0);
    expect(again.issue.verification).toMatchObject({ status: "pending", mergedAt: again.mergedAt, regressedAt: null });
  });

  it("the error tracker's issue.unresolved and the code host's issues.reopened are regressions too", async () => {
    const t = await testApp();
    const error = (await send(t, errorEvent("created", "900002"))).issue as Issue;
    await fixAndMerge(t, error, 81, HOUR);
    const unresolved = await send(t, errorEvent("unresolved", "900002"));
    expect(unresolved.signal.action).toBe("regressed");
    expect(unresolved.issue).toMatchObject({ id: error.id, status: "todo", verification: { status: "regressed" } });
    await patch(t, error.id, { status: "backlog" }); // out of the queue: the next claim is the next fix's

    const reported = (await send(t, codehostDelivery("issues", issueEvent("opened", 5, "Totals are NaN"))))
      .issue as Issue;
    await fixAndMerge(t, reported, 82, HOUR);
    const reopened = await send(t, codehostDelivery("issues", issueEvent("reopened", 5, "Totals are NaN")));
    expect(reopened.signal.action).toBe("regressed");
    // Not back to triage, as a reopen of an unwatched done issue goes: the fix was known, it did not hold.
    expect(reopened.issue).toMatchObject({ id: reported.id, status: "todo", verification: { status: "regressed" } });
  });

  it("after the window, the problem's return goes its old way: a new issue, the fix's watch untouched", async () => {
    const t = await testApp();
    const issue = (await send(t, errorEvent("created", "900003"))).issue as Issue;
    const { issue: done } = await fixAndMerge(t, issue, 91, 73 * HOUR);
    expect(done.verification?.status).toBe("pending");
    const later = await send(t, errorEvent("created", "900003"));
    expect(later.signal.action).toBe("opened");
    expect(later.issue?.id).not.toBe(issue.id);
    const kept = await dataOf<Issue>(t.app.request(`/api/issues/${issue.id}`, { headers: AUTH }));
    expect(kept).toMatchObject({ status: "done", verification: { status: "pending" } });
  });

  it("a close event is no regression", async () => {
    const t = await testApp();
    const reported = (await send(t, codehostDelivery("issues", issueEvent("opened", 6, "Slow search")))).issue as Issue;
    await fixAndMerge(t, reported, 83, HOUR);
    const closedAgain = await send(t, codehostDelivery("issues", issueEvent("closed", 6, "Slow search")));
    expect(closedAgain.signal.action).toBe("recorded");
    const kept = await dataOf<Issue>(t.app.request(`/api/issues/${reported.id}`, { headers: AUTH }));
    expect(kept).toMatchObject({ status: "done", verification: { status: "pending" } });
  });
});
