/**
 * An experiment decided on what happened, not on what agents said (docs/api.md#experiments,
 * docs/api.md#outcomes): both arms' agents complete every dispatch and every fix merges, but the
 * candidate's fixes keep regressing — the error tracker reports the error again within the watch —
 * while the control's hold until the sweep verifies them. Completion rates are equal, so only the
 * verified rate can tell the arms apart: the candidate must be marked `loser` on it. Errors,
 * merges and regressions arrive as the providers send them; the watch window passes on an
 * injected clock.
 */
import { describe, expect, it } from "vitest";
import type { Project } from "../../core/src/catalog/schemas.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import { verificationSweep } from "../../core/src/services.js";
import type { Experiment, TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { codehostDelivery, errortrackerDelivery, mergedPullRequest } from "../helpers/deliveries.js";
import { loadFixture } from "../helpers/fixtures.js";
import { createTemplate } from "../helpers/templates.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };
const HOUR = 3_600_000;
const MIN_SAMPLES = 8;
/** Claims at most before the test gives up on a decision. */
const CLAIMS = 60;

function errorReport(id: string) {
  const body = structuredClone(loadFixture("errortracker/issue.created.json")) as { data: { issue: { id: string } } };
  body.data.issue.id = id;
  return errortrackerDelivery("issue", body);
}

async function deliver(t: TestApp, signed: { path: string; init: RequestInit }) {
  const response = await t.app.request(signed.path, signed.init);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { issue: Issue | null; signal: { action: string } } }).data;
}

describe("an experiment decided on verified rate", () => {
  it("marks `loser` a candidate whose agents complete as often but whose fixes regress", async () => {
    const clock = testClock(Date.parse("2026-11-20T08:00:00.000Z"));
    const t = await testApp({ clock });
    const project = await dataOf<Project>(
      t.app.request("/api/projects", jsonPost({ name: "Shop", verifyHours: 1 })),
      201,
    );
    const template = await createTemplate(t.app, {
      slug: "fix-errors",
      name: "Fix errors",
      specificity: 900,
      content: "A: {{issue.title}}",
    });
    const draft = await dataOf<TemplateVersion>(
      t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "B: {{issue.title}}" })),
      201,
    );
    const experiment = await dataOf<Experiment>(
      t.app.request(
        `/api/templates/${template.id}/experiments`,
        jsonPost({ candidateVersionId: draft.id, trafficPercent: 50, minSamples: MIN_SAMPLES }),
      ),
      201,
    );
    const read = () =>
      dataOf<Experiment>(
        t.app.request(`/api/templates/${template.id}/experiments/${experiment.id}`, { headers: AUTH }),
      );
    const errorOf = new Map<string, string>();
    let pullRequest = 100;
    for (let claims = 0; claims < CLAIMS && (await read()).status === "running"; claims++) {
      // A new error each round, queued in the project.
      const errorId = String(920_000 + claims);
      const opened = (await deliver(t, errorReport(errorId))).issue as Issue;
      errorOf.set(opened.id, errorId);
      await dataOf(
        t.app.request(`/api/issues/${opened.id}`, {
          method: "PATCH",
          headers: { ...AUTH, "Content-Type": "application/json" },
          body: JSON.stringify({ projectId: project.id, status: "todo" }),
        }),
      );
      const claimed = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "sim" })), 201);
      const arm = claimed.prompt?.experiment?.arm;
      expect(arm).toBeDefined();
      pullRequest += 1;
      await dataOf(
        t.app.request(
          `/api/dispatch/${claimed.dispatch.id}/complete`,
          jsonPost(
            {
              result: "done",
              summary: "Fixed",
              pullRequests: [{ number: pullRequest, title: `Fix KZN-${claimed.issue.number}` }],
            },
            { Authorization: `Bearer ${claimed.dispatch.token}` },
          ),
        ),
      );
      const merge = mergedPullRequest(pullRequest, { title: `Fix KZN-${claimed.issue.number}` });
      merge.pull_request.merged_at = clock().toISOString();
      expect((await deliver(t, codehostDelivery("pull_request", merge))).signal.action).toBe("closed_loop");
      if (arm === "candidate") {
        // The error is back within the hour: the fix regressed (the issue is queued again).
        clock.advance(60_000);
        const back = await deliver(t, errorReport(errorOf.get(claimed.issue.id) ?? ""));
        expect(back.signal.action).toBe("regressed");
        await dataOf(
          t.app.request(`/api/issues/${claimed.issue.id}`, {
            method: "PATCH",
            headers: { ...AUTH, "Content-Type": "application/json" },
            body: JSON.stringify({ status: "canceled" }),
          }),
        );
      } else {
        // The hour passes quietly: the sweep verifies the fix.
        clock.advance(HOUR + 60_000);
        await verificationSweep({ db: t.db, clock }).sweep();
      }
    }
    const ended = await read();
    expect(ended.status).toBe("loser");
    expect(ended.decision?.reason).toMatch(/^candidate worse: completion rate overlapping, .*verified rate worse$/);
    const { control, candidate } = ended.decision?.arms ?? ended.arms;
    expect(candidate.completionRate?.value).toBe(1);
    expect(control.completionRate?.value).toBe(1);
    expect(candidate).toMatchObject({ regressed: candidate.merged, verified: 0 });
    expect(control).toMatchObject({ verified: control.merged, regressed: 0 });
    expect(candidate.verifiedRate?.value).toBe(0);
    expect(control.verifiedRate?.value).toBe(1);
  }, 120_000);
});
