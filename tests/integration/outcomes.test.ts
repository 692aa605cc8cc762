/**
 * Outcomes (docs/api.md#outcomes, docs/api.md#verification): what became of an agent's work is kept on
 * its dispatch and counted for its template version and its agent — review sending it back
 * (reworked), its pull request merging, and the watch of the merged fix ending verified (a sweep,
 * on an injected clock: no waiting) or regressed. Payloads are @octokit/webhooks-examples' and the
 * error tracker's fixtures, signed as the providers sign them; sweeps run as separate instances.
 */
import { describe, expect, it } from "vitest";
import type { Project } from "../../core/src/catalog/schemas.js";
import type { AgentPerformance } from "../../core/src/dashboard/schemas.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { verificationSweep } from "../../core/src/services.js";
import type { Signal } from "../../core/src/signals/schemas.js";
import type { TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery, errortrackerDelivery } from "../helpers/deliveries.js";
import { codehostExamples, loadFixture } from "../helpers/fixtures.js";
import { createTemplate } from "../helpers/templates.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };
type Ingested = { signal: Signal; issue: Issue | null; duplicate: boolean };
// biome-ignore lint/suspicious/noExplicitAny: provider payloads are edited as the provider would vary them.
type Body = Record<string, any>;

const HOUR = 3_600_000;
/** The examples' repository; its pull request #2 is reviewed, and a second one, #3, merges. */
const REPOSITORY = "Codertocat/Hello-World";

function example(event: string, action: string): Body {
  const found = codehostExamples([event]).find((candidate) => candidate.action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found.body) as Body;
}

function changesRequested(number: number, at: string): Body {
  const body = example("pull_request_review", "submitted");
  body.review.state = "changes_requested";
  body.review.body = "The total is still NaN for an empty cart.";
  body.review.submitted_at = at;
  body.pull_request.number = number;
  return body;
}

function merged(number: number, at: string): Body {
  const body = example("pull_request", "closed");
  body.number = number;
  body.pull_request.number = number;
  body.pull_request.merged = true;
  body.pull_request.merged_at = at;
  return body;
}

function errorCreated(id: string): Body {
  const body = structuredClone(loadFixture("errortracker/issue.created.json")) as Body;
  body.data.issue.id = id;
  return body;
}

async function deliver(t: TestApp, signed: { path: string; init: RequestInit }): Promise<Ingested> {
  const response = await t.app.request(signed.path, signed.init);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Ingested }).data;
}

const read = <T>(t: TestApp, path: string) => dataOf<T>(t.app.request(path, { headers: AUTH }));

/**
 * A claim by `agent` completed `done` with its pull request #`number` (open unless `reported` says
 * more, as `state` and `mergedAt`), or with none when `number` is null.
 */
async function claimAndComplete(
  t: TestApp,
  agent: string,
  number: number | null,
  reported: Record<string, unknown> = {},
): Promise<Claimed> {
  const claimed = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent })), 201);
  const url = `https://github.com/${REPOSITORY}/pull/${number}`;
  await dataOf(
    t.app.request(
      `/api/dispatch/${claimed.dispatch.id}/complete`,
      jsonPost(
        {
          result: "done",
          summary: `Fix attempt of ${agent}`,
          pullRequests: number === null ? [] : [{ number, title: "Guard the total", url, ...reported }],
        },
        { Authorization: `Bearer ${claimed.dispatch.token}` },
      ),
    ),
  );
  return claimed;
}

/** An app on `clock` with a project watching fixes for 2 hours, one template for every issue, and an error's issue queued. */
async function setup(emulateConflicts: boolean, clock = testClock(Date.parse("2026-11-20T08:00:00.000Z"))) {
  const t = await testApp({ clock }, { emulateConflicts });
  const project = await dataOf<Project>(
    t.app.request("/api/projects", jsonPost({ name: "Shop", verifyHours: 2 })),
    201,
  );
  const template = await createTemplate(t.app, {
    slug: "fix",
    name: "Fix",
    specificity: 900,
    content: "Fix {{issue.title}}",
  });
  const opened = await deliver(t, errortrackerDelivery("issue", errorCreated("910001")));
  const issue = opened.issue as Issue;
  await dataOf(
    t.app.request(`/api/issues/${issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: project.id, status: "todo" }),
    }),
  );
  const version = async () => (await read<TemplateVersion[]>(t, `/api/templates/${template.id}/versions`))[0];
  const agents = async () => await read<AgentPerformance[]>(t, "/api/dashboard/agents?days=1");
  return { t, clock, issue, version, agents };
}

describe("outcomes", () => {
  it.each(CONFLICT_MODES)(
    "review sends the first agent's work back (reworked), the second's merges and its quiet window ends verified, once, whatever the sweeps at once ($mode)",
    async ({ emulateConflicts }) => {
      const { t, clock, issue, version, agents } = await setup(emulateConflicts);
      const first = await claimAndComplete(t, "agent-a", 2);
      const review = changesRequested(2, new Date(clock().getTime()).toISOString());
      const sentBack = await deliver(t, codehostDelivery("pull_request_review", review));
      expect(sentBack.issue).toMatchObject({ id: issue.id, status: "todo", reviewRounds: 1 });
      // The same review delivered again (another delivery id) is kept and counted once.
      await deliver(t, codehostDelivery("pull_request_review", review));
      expect((await read<Dispatch>(t, `/api/dispatch/${first.dispatch.id}`)).outcome).toMatchObject({
        reviewRounds: 1,
        verification: null,
      });

      const second = await claimAndComplete(t, "agent-b", 3);
      const mergedAt = clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");
      const done = await deliver(t, codehostDelivery("pull_request", merged(3, mergedAt)));
      const until = new Date(Date.parse(mergedAt) + 2 * HOUR).toISOString();
      expect(done.issue?.verification).toMatchObject({ status: "pending", until, dispatchId: second.dispatch.id });
      expect((await read<Dispatch>(t, `/api/dispatch/${second.dispatch.id}`)).outcome?.verification).toMatchObject({
        status: "pending",
        until,
      });

      // Within the window the sweep finds nothing to end.
      clock.advance(HOUR);
      expect(await verificationSweep({ db: t.db, clock }).sweep()).toBe(0);
      clock.advance(HOUR + 60_000);
      // Three instances sweep at once: the watch ends once.
      await Promise.all([1, 2, 3].map(() => verificationSweep({ db: t.db, clock }).sweep()));
      expect((await read<Issue>(t, `/api/issues/${issue.id}`)).verification).toMatchObject({
        status: "verified",
        until,
        dispatchId: second.dispatch.id,
      });
      expect((await read<Dispatch>(t, `/api/dispatch/${second.dispatch.id}`)).outcome?.verification).toMatchObject({
        status: "verified",
      });
      expect(await verificationSweep({ db: t.db, clock }).sweep()).toBe(0);
      // The verdict is Kaizen's own, recorded once in the audit log.
      const verdicts = await read<{ action: string; targetId: string }[]>(t, "/api/audit?actorId=kaizen");
      expect(verdicts.map(({ action, targetId }) => ({ action, targetId }))).toEqual([
        { action: "issue.verified", targetId: issue.id },
      ]);

      expect(await version()).toMatchObject({
        completionRate: 1,
        outcomes: { completed: 2, merged: 1, reworked: 1, regressed: 0, verified: 1 },
        verifiedRate: 1,
      });
      const rows = await agents();
      expect(rows.map(({ agent }) => agent)).toEqual(["agent-a", "agent-b"]);
      expect(rows[0]).toMatchObject({
        claims: 1,
        completed: 1,
        reworked: 1,
        merged: 0,
        verified: 0,
        verifiedRate: null,
      });
      expect(rows[1]).toMatchObject({ claims: 1, completed: 1, reworked: 0, merged: 1, verified: 1, verifiedRate: 1 });
    },
  );

  it.each(CONFLICT_MODES)(
    "the error back within the window charges the merged dispatch: regressed on it, its version and its agent ($mode)",
    async ({ emulateConflicts }) => {
      const { t, clock, issue, version, agents } = await setup(emulateConflicts);
      const worked = await claimAndComplete(t, "agent-a", 2);
      // The code host sends merged_at without milliseconds; it is kept as the instant in UTC with them.
      const sent = clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");
      const mergedAt = new Date(sent).toISOString();
      await deliver(t, codehostDelivery("pull_request", merged(2, sent)));
      clock.advance(HOUR);
      const back = await deliver(t, errortrackerDelivery("issue", errorCreated("910001")));
      expect(back.signal.action).toBe("regressed");
      const outcome = (await read<Dispatch>(t, `/api/dispatch/${worked.dispatch.id}`)).outcome;
      expect(outcome?.verification).toMatchObject({
        status: "regressed",
        mergedAt,
        regressedAt: back.signal.receivedAt,
        signalId: back.signal.id,
      });
      // The regression took the watch out: a later sweep verifies nothing.
      clock.advance(2 * HOUR);
      expect(await verificationSweep({ db: t.db, clock }).sweep()).toBe(0);
      expect((await read<Issue>(t, `/api/issues/${issue.id}`)).verification?.status).toBe("regressed");
      expect(await version()).toMatchObject({
        outcomes: { completed: 1, merged: 1, reworked: 0, regressed: 1, verified: 0 },
        verifiedRate: 0,
      });
      expect((await agents())[0]).toMatchObject({ agent: "agent-a", merged: 1, regressed: 1, verifiedRate: 0 });
    },
  );

  it("a merge while the agent still works completes its dispatch merged; a fix reopened by hand is not verified", async () => {
    const { t, clock, issue, version } = await setup(true);
    const claimed = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-a" })), 201);
    const body = merged(
      7,
      clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z"),
    );
    body.pull_request.title = `Fix KZN-${issue.number}`;
    await deliver(t, codehostDelivery("pull_request", body));
    const dispatch = await read<Dispatch>(t, `/api/dispatch/${claimed.dispatch.id}`);
    expect(dispatch).toMatchObject({ status: "completed", outcome: { verification: { status: "pending" } } });
    expect(await version()).toMatchObject({ outcomes: { completed: 1, merged: 1 } });
    // Reopened by hand within the window: not verified when it ends.
    const reopened = await t.app.request(`/api/issues/${issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "todo" }),
    });
    expect(reopened.status).toBe(200);
    clock.advance(3 * HOUR);
    expect(await verificationSweep({ db: t.db, clock }).sweep()).toBe(1);
    expect((await read<Issue>(t, `/api/issues/${issue.id}`)).verification?.status).toBe("pending");
    expect(await version()).toMatchObject({ outcomes: { verified: 0, regressed: 0 } });
    const deleted = await t.app.request(`/api/issues/${issue.id}`, { method: "DELETE", headers: AUTH });
    expect(deleted.status).toBe(204);
  });

  it.each(CONFLICT_MODES)(
    "an agent that merged its own pull request is watched from the code host's merge, not from its word: merged, then verified, each counted once ($mode)",
    async ({ emulateConflicts }) => {
      const { t, clock, issue, version, agents } = await setup(emulateConflicts);
      const sent = clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");
      const claimed = await claimAndComplete(t, "agent-a", 4, { state: "merged", mergedAt: sent });
      // The agent's word: done, but nothing is watched and nothing counted as merged yet.
      expect(await read<Issue>(t, `/api/issues/${issue.id}`)).toMatchObject({ status: "done", verification: null });
      expect(await version()).toMatchObject({ outcomes: { completed: 1, merged: 0 } });

      // The code host's merge of the pull request the issue keeps starts the watch and charges the dispatch.
      clock.advance(60_000);
      const merge = await deliver(t, codehostDelivery("pull_request", merged(4, sent)));
      expect(merge.signal).toMatchObject({ action: "closed_loop", issueId: issue.id });
      const mergedAt = new Date(sent).toISOString();
      const watch = {
        status: "pending",
        mergedAt,
        until: new Date(Date.parse(mergedAt) + 2 * HOUR).toISOString(),
        dispatchId: claimed.dispatch.id,
      };
      expect(merge.issue).toMatchObject({ status: "done", verification: watch });
      expect((await read<Dispatch>(t, `/api/dispatch/${claimed.dispatch.id}`)).outcome?.verification).toMatchObject(
        watch,
      );
      // The merge links to the issue and is listed with its signals, but the detail's latest signals
      // are those that tell of the problem (docs/api.md#issue-endpoints).
      const detail = await read<{ signals: { id: string }[] }>(t, `/api/issues/${issue.id}`);
      expect(detail.signals.map(({ id }) => id)).not.toContain(merge.signal.id);
      expect(detail.signals).toHaveLength(1);
      const linked = await read<Signal[]>(t, `/api/issues/${issue.id}/signals`);
      expect(linked.map(({ id }) => id)).toContain(merge.signal.id);
      // A redelivery of the merge (another delivery id) starts nothing new and counts nothing more.
      await deliver(t, codehostDelivery("pull_request", merged(4, sent)));
      expect((await read<Issue>(t, `/api/issues/${issue.id}`)).verification).toMatchObject(watch);
      expect(await version()).toMatchObject({ outcomes: { completed: 1, merged: 1 } });

      clock.advance(3 * HOUR);
      expect(await verificationSweep({ db: t.db, clock }).sweep()).toBe(1);
      expect((await read<Issue>(t, `/api/issues/${issue.id}`)).verification?.status).toBe("verified");
      expect(await version()).toMatchObject({ outcomes: { completed: 1, merged: 1, verified: 1 }, verifiedRate: 1 });
      expect((await agents())[0]).toMatchObject({ agent: "agent-a", merged: 1, verified: 1, verifiedRate: 1 });
    },
  );

  it("a merge only naming a done issue that was never watched leaves it unwatched: only the pull requests it keeps are its fix", async () => {
    const { t, clock, issue, version } = await setup(true);
    await claimAndComplete(t, "agent-a", null);
    const body = merged(
      9,
      clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z"),
    );
    body.pull_request.title = `Tidy after KZN-${issue.number}`;
    const merge = await deliver(t, codehostDelivery("pull_request", body));
    expect(merge.signal.action).toBe("closed_loop");
    expect(merge.issue).toMatchObject({ status: "done", verification: null, pullRequests: [{ number: 9 }] });
    expect(await version()).toMatchObject({ outcomes: { completed: 1, merged: 0 } });
  });
});

describe("people's code-host reviews teach the prompt", () => {
  type Review = { source: string; state: string | null; composite: number | null; sequence: number | null };
  const reviewBy = (state: string, login: string, text: string, at: string) => {
    const body = changesRequested(2, at);
    body.review.state = state;
    body.review.body = text;
    body.review.user.login = login;
    return body;
  };

  it.each(CONFLICT_MODES)(
    "each submitted review is kept once as an unrated human review of the prompt; half of 4 asking for changes opens one improvement task ($mode)",
    async ({ emulateConflicts }) => {
      const { t, version } = await setup(emulateConflicts);
      const claimed = await dataOf<Claimed & { prompt: { id: string } }>(
        t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-a" })),
        201,
      );
      await dataOf(
        t.app.request(
          `/api/dispatch/${claimed.dispatch.id}/complete`,
          jsonPost(
            {
              result: "done",
              summary: "Guarded the total",
              pullRequests: [{ number: 2, title: "Guard", url: `https://github.com/${REPOSITORY}/pull/2` }],
            },
            { Authorization: `Bearer ${claimed.dispatch.token}` },
          ),
        ),
      );
      const approved = reviewBy("approved", "ana", "Looks right.", "2026-11-20T09:00:00Z");
      await deliver(t, codehostDelivery("pull_request_review", approved));
      await deliver(t, codehostDelivery("pull_request_review", approved));
      // A review comment is feedback on the issue, not a review of the prompt.
      const comment = example("pull_request_review_comment", "created");
      comment.pull_request.number = 2;
      await deliver(t, codehostDelivery("pull_request_review_comment", comment));
      const reviews = () => read<Review[]>(t, `/api/prompts/${claimed.prompt.id}/reviews`);
      expect(await reviews()).toEqual([
        expect.objectContaining({
          source: "codehost",
          state: "approved",
          authorType: "human",
          authorName: "ana",
          feedback: "Looks right.",
          // The review's submitted_at, "2026-11-20T09:00:00Z", in UTC with milliseconds.
          createdAt: "2026-11-20T09:00:00.000Z",
          clarity: null,
          composite: null,
          sequence: null,
        }),
      ]);
      expect(await version()).toMatchObject({
        reviewCount: 0,
        reviewScore: null,
        humanReviews: { approved: 1, changesRequested: 0, commented: 0 },
      });
      const tasks = async () =>
        (await read<Issue[]>(t, "/api/issues?label=prompt-improvement")).filter(({ title }) =>
          title.startsWith("Improve prompt template: fix"),
        );
      await deliver(
        t,
        codehostDelivery("pull_request_review", reviewBy("changes_requested", "bo", "NaN.", "2026-11-20T09:10:00Z")),
      );
      expect(await tasks()).toEqual([]);
      // The third and fourth at once: two of four ask for changes, and one task opens.
      await Promise.all([
        deliver(
          t,
          codehostDelivery("pull_request_review", reviewBy("commented", "cy", "Why here?", "2026-11-20T09:20:00Z")),
        ),
        deliver(
          t,
          codehostDelivery(
            "pull_request_review",
            reviewBy("changes_requested", "di", "Still NaN.", "2026-11-20T09:30:00Z"),
          ),
        ),
      ]);
      expect(await version()).toMatchObject({ humanReviews: { approved: 1, changesRequested: 2, commented: 1 } });
      const opened = await tasks();
      expect(opened).toHaveLength(1);
      expect(opened[0]?.description).toContain(
        "2 of the 4 reviews people gave its agents' pull requests asked for changes.",
      );
      await deliver(
        t,
        codehostDelivery("pull_request_review", reviewBy("changes_requested", "ed", "No.", "2026-11-20T09:40:00Z")),
      );
      expect(await tasks()).toHaveLength(1);
      expect((await reviews()).map(({ state }) => state).sort()).toEqual([
        "approved",
        "changes_requested",
        "changes_requested",
        "changes_requested",
        "commented",
      ]);
    },
  );
});
