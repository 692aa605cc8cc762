/**
 * Experiments between a template's active version and a candidate draft (docs/api.md#experiments), through
 * the API on DynamoDB Local: what a start checks, how claims split per issue and keep their arm,
 * what each arm counts, the rule's decisions and their effects, stops by request or by a promotion,
 * and one decision however many finishes arrive at once (fleet, both conflict modes). Every test
 * makes its own table, so the tests run side by side, two at a time (more would stretch each one's
 * dozens of claims toward the timeout).
 */
import { describe, expect, it, vi } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import type { Experiment, TemplateDetail, TemplatePreview, TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, dataOf, fleetOf, jsonPost, type Requester, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { createTemplate } from "../helpers/templates.js";

// Two tests at a time (see above).
vi.setConfig({ maxConcurrency: 2 });

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };

const CONTROL_TEXT = "CONTROL for {{issue.title}}";
const CANDIDATE_TEXT = "CANDIDATE for {{issue.title}}";

/** A template that takes every task (above the defaults), its version 1 active and a draft version 2. */
async function experimentTemplate(t: TestApp, slug = "exp-task") {
  const template = await createTemplate(t.app, {
    slug,
    name: "Experimented",
    conditions: { type: "task" },
    specificity: 900,
    content: CONTROL_TEXT,
  });
  const draft = await dataOf<TemplateVersion>(
    t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: CANDIDATE_TEXT })),
    201,
  );
  return { template, draft };
}

function start(t: Requester, templateId: string, body: Record<string, unknown>) {
  return t.request(`/api/templates/${templateId}/experiments`, jsonPost(body));
}

function experimentOf(t: Requester, templateId: string, id: string) {
  return dataOf<Experiment>(t.request(`/api/templates/${templateId}/experiments/${id}`, { headers: AUTH }));
}

function detailOf(t: Requester, templateId: string) {
  return dataOf<TemplateDetail>(t.request(`/api/templates/${templateId}`, { headers: AUTH }));
}

async function newTask(t: Requester, title: string, priority = 3): Promise<Issue> {
  return dataOf<Issue>(t.request("/api/issues", jsonPost({ title, type: "task", status: "todo", priority })), 201);
}

async function claim(t: Requester, agent = "exp-agent"): Promise<Claimed> {
  return dataOf<Claimed>(t.request("/api/dispatch/claim", jsonPost({ agent })), 201);
}

function finish(t: Requester, claimed: Claimed, result: "done" | "failed", usage?: Record<string, unknown>) {
  return t.request(
    `/api/dispatch/${claimed.dispatch.id}/complete`,
    jsonPost(
      { result, summary: result, ...(usage ? { usage } : {}) },
      { Authorization: `Bearer ${claimed.dispatch.token}` },
    ),
  );
}

/** The arm a claim's prompt names, checked against the text it was rendered from. */
function armOfClaim(claimed: Claimed, experimentId: string): "control" | "candidate" {
  const prompt = claimed.prompt;
  if (!prompt?.experiment) throw new Error(`claim of ${claimed.issue.title} has no experiment arm`);
  expect(prompt.experiment.id).toBe(experimentId);
  const expected = prompt.experiment.arm === "candidate" ? "CANDIDATE" : "CONTROL";
  expect(prompt.text).toBe(`${expected} for ${claimed.issue.title}`);
  return prompt.experiment.arm;
}

describe.concurrent("starting an experiment", () => {
  it("answers 201 with Location, the defaults and empty arms, and marks the template", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const response = await start(t.app, template.slug, { candidateVersionId: draft.id, trafficPercent: 30 });
    expect(response.status).toBe(201);
    const experiment = ((await response.json()) as { data: Experiment }).data;
    expect(response.headers.get("location")).toBe(`/api/templates/${template.id}/experiments/${experiment.id}`);
    expect(experiment).toMatchObject({
      templateId: template.id,
      candidateVersionId: draft.id,
      controlVersionId: template.activeVersionId,
      trafficPercent: 30,
      minSamples: 20,
      autoPromote: true,
      status: "running",
      endedAt: null,
      decision: null,
    });
    expect(experiment.id).toMatch(/^exp_[0-9A-HJKMNP-TV-Z]{26}$/);
    const emptyArm = {
      claims: 0,
      finished: 0,
      completions: 0,
      failures: 0,
      merged: 0,
      reworked: 0,
      regressed: 0,
      verified: 0,
      reviews: 0,
      completionRate: null,
      reviewScore: null,
      verifiedRate: null,
      costUsd: null,
    };
    expect(experiment.arms).toEqual({
      control: { versionId: template.activeVersionId, versionNumber: 1, ...emptyArm },
      candidate: { versionId: draft.id, versionNumber: 2, ...emptyArm },
    });
    expect(await experimentOf(t.app, template.id, experiment.id)).toEqual(experiment);
    const listed = await t.app.request(`/api/templates/${template.slug}/experiments`, { headers: AUTH });
    expect(await listed.json()).toEqual({ data: [experiment], total: 1 });
  });

  it("answers 400 naming the field for a bad body", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ candidateVersionId: draft.id, trafficPercent: 0 }, "trafficPercent"],
      [{ candidateVersionId: draft.id, trafficPercent: 51 }, "trafficPercent"],
      [{ candidateVersionId: draft.id, trafficPercent: 12.5 }, "trafficPercent"],
      [{ candidateVersionId: draft.id }, "trafficPercent"],
      [{ candidateVersionId: "v2", trafficPercent: 10 }, "candidateVersionId"],
      [{ trafficPercent: 10 }, "candidateVersionId"],
      [{ candidateVersionId: draft.id, trafficPercent: 10, minSamples: 0 }, "minSamples"],
      [{ candidateVersionId: draft.id, trafficPercent: 10, autoPromote: "yes" }, "autoPromote"],
      [{ candidateVersionId: draft.id, trafficPercent: 10, arms: 2 }, "arms"],
    ];
    for (const [body, field] of cases) {
      const response = await start(t.app, template.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(field);
    }
    const list = await t.app.request(`/api/templates/${template.id}/experiments`, { headers: AUTH });
    expect(((await list.json()) as { total: number }).total).toBe(0);
  });

  it("answers 404 for an unknown template, version or experiment, and 409 for what cannot run", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const other = await experimentTemplate(t, "exp-other");
    const bare = await createTemplate(t.app, { slug: "no-active", name: "Bare" });
    const bareDraft = await dataOf<TemplateVersion>(
      t.app.request(`/api/templates/${bare.id}/versions`, jsonPost({ content: "draft" })),
      201,
    );
    const expectError = async (response: Response, status: number, message: string) => {
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: string }).error).toBe(message);
    };
    await expectError(
      await start(t.app, "nope", { candidateVersionId: draft.id, trafficPercent: 10 }),
      404,
      "Template nope not found",
    );
    await expectError(
      await start(t.app, template.id, { candidateVersionId: other.draft.id, trafficPercent: 10 }),
      404,
      `Version ${other.draft.id} of template ${template.id} not found`,
    );
    await expectError(
      await start(t.app, template.id, { candidateVersionId: template.activeVersionId, trafficPercent: 10 }),
      409,
      "Version 1 of template exp-task is active; a candidate must be a draft",
    );
    await expectError(
      await start(t.app, bare.id, { candidateVersionId: bareDraft.id, trafficPercent: 10 }),
      409,
      "Template no-active has no active version to compare a candidate with",
    );
    const first = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 10 }),
      201,
    );
    await expectError(
      await start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 20 }),
      409,
      `Template exp-task already runs experiment ${first.id}; stop it first`,
    );
    const missing = "exp_01JAAAAAAAAAAAAAAAAAAAAAAA";
    await expectError(
      await t.app.request(`/api/templates/${template.id}/experiments/${missing}`, { headers: AUTH }),
      404,
      `Experiment ${missing} of template ${template.id} not found`,
    );
    await expectError(
      await t.app.request(`/api/templates/${other.template.id}/experiments/${first.id}`, { headers: AUTH }),
      404,
      `Experiment ${first.id} of template ${other.template.id} not found`,
    );
  });
});

describe.concurrent("claims during an experiment", () => {
  it("split per issue, keep an issue in its arm when it is claimed again, and count per arm", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50, minSamples: 1000 }),
      201,
    );
    const arms = new Map<string, "control" | "candidate">();
    const claims: Claimed[] = [];
    await Promise.all(Array.from({ length: 12 }, (_, i) => newTask(t.app, `task ${i}`)));
    for (let i = 0; i < 12; i++) {
      const claimed = await claim(t.app);
      arms.set(claimed.issue.id, armOfClaim(claimed, experiment.id));
      claims.push(claimed);
    }
    const count = (arm: string) => [...arms.values()].filter((value) => value === arm).length;
    // 12 issues at 50 %: both arms have some (the hash of these ids puts none on one side only by a chance of 1 in 2,048).
    expect(count("candidate")).toBeGreaterThan(0);
    expect(count("control")).toBeGreaterThan(0);

    // The preview shows each issue the version its claim got.
    for (const claimed of claims.slice(0, 4)) {
      const preview = await dataOf<TemplatePreview>(
        t.app.request(`/api/templates/preview/${claimed.issue.id}`, { headers: AUTH }),
      );
      expect(preview.experiment).toEqual({ id: experiment.id, arm: arms.get(claimed.issue.id) });
      expect(preview.version?.id).toBe(
        arms.get(claimed.issue.id) === "candidate" ? draft.id : template.activeVersionId,
      );
    }

    // Failed, released and expired dispatches put the issue back: claimed again, it is in the same arm.
    const [failed, released, done] = claims;
    if (!failed || !released || !done) throw new Error("claims missing");
    await dataOf(finish(t.app, failed, "failed", { costUsd: 0.5 }));
    await dataOf(
      t.app.request(
        `/api/dispatch/${released.dispatch.id}/release`,
        jsonPost({}, { Authorization: `Bearer ${released.dispatch.token}` }),
      ),
    );
    await dataOf(finish(t.app, done, "done", { costUsd: 1.5, inputTokens: 10 }));
    for (const again of [await claim(t.app), await claim(t.app)]) {
      expect([failed.issue.id, released.issue.id]).toContain(again.issue.id);
      expect(armOfClaim(again, experiment.id)).toBe(arms.get(again.issue.id));
    }

    const figures = await experimentOf(t.app, template.id, experiment.id);
    const arm = (issueId: string) => arms.get(issueId) ?? "control";
    const expected = {
      control: { claims: 0, finished: 0, completions: 0, failures: 0 },
      candidate: { claims: 0, finished: 0, completions: 0, failures: 0 },
    };
    for (const issueId of arms.keys()) expected[arm(issueId)].claims += 1;
    expected[arm(failed.issue.id)].claims += 1;
    expected[arm(released.issue.id)].claims += 1;
    for (const ended of [failed, released, done]) expected[arm(ended.issue.id)].finished += 1;
    expected[arm(failed.issue.id)].failures += 1;
    expected[arm(done.issue.id)].completions += 1;
    for (const side of ["control", "candidate"] as const) {
      expect(figures.arms[side]).toMatchObject(expected[side]);
    }
    expect(figures.arms[arm(done.issue.id)].costUsd?.value).toBe(arm(done.issue.id) === arm(failed.issue.id) ? 1 : 1.5);
    expect(figures.status).toBe("running");

    // Reviews of a prompt count toward its arm: the mean composite with its interval.
    const reviewed = done.prompt;
    if (!reviewed) throw new Error("no prompt");
    for (const ratings of [
      { clarity: 5, completeness: 4, relevance: 3 },
      { clarity: 2, completeness: 2, relevance: 2 },
    ]) {
      await dataOf(
        t.app.request(`/api/prompts/${reviewed.id}/reviews`, jsonPost({ ...ratings, authorType: "agent" })),
        201,
      );
    }
    const afterReviews = await experimentOf(t.app, template.id, experiment.id);
    const side = arm(done.issue.id);
    expect(afterReviews.arms[side].reviews).toBe(2);
    expect(afterReviews.arms[side].reviewScore?.value).toBe(3);
    expect(afterReviews.arms[side].reviewScore?.samples).toBe(2);
    // t(0.975, 1) × s/√2 with s = √2: 12.706 around 3, clipped to the 1..5 scale.
    expect(afterReviews.arms[side].reviewScore?.low).toBe(1);
    expect(afterReviews.arms[side].reviewScore?.high).toBe(5);
    expect(afterReviews.arms[side === "control" ? "candidate" : "control"].reviews).toBe(0);
  });
});

/**
 * Runs claims on `t` until the experiment ends or `limit` claims were made: each new issue is
 * claimed and finished, done when `succeeds(arm)` says so.
 */
async function drive(
  t: Requester,
  template: TemplateDetail,
  experimentId: string,
  succeeds: (arm: "control" | "candidate", n: number) => boolean,
  limit: number,
): Promise<Experiment> {
  for (let n = 0; n < limit; n++) {
    await newTask(t, `issue ${n}`);
    const claimed = await claim(t);
    const arm = armOfClaim(claimed, experimentId);
    await dataOf(finish(t, claimed, succeeds(arm, n) ? "done" : "failed"));
    const now = await experimentOf(t, template.id, experimentId);
    if (now.status !== "running") return now;
  }
  return experimentOf(t, template.id, experimentId);
}

describe.concurrent("the rule's decisions", () => {
  it("promotes a candidate better on completion rate, at the finish that makes it so, with the figures it used", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50, minSamples: 6 }),
      201,
    );
    const ended = await drive(t.app, template, experiment.id, (arm) => arm === "candidate", 80);
    expect(ended.status).toBe("promoted");
    const decision = ended.decision;
    if (!decision) throw new Error("no decision");
    expect(decision.outcome).toBe("promoted");
    expect(decision.reason).toBe(
      "candidate better: completion rate better, review score too few data, verified rate too few data",
    );
    expect(ended.endedAt).toBe(decision.decidedAt);
    // Decided as soon as both arms had 6 finished dispatches, on exactly those figures.
    const { control, candidate } = decision.arms;
    expect(Math.min(control.finished, candidate.finished)).toBe(6);
    expect(candidate.completionRate).toMatchObject({ value: 1, samples: candidate.finished });
    expect(control.completionRate).toMatchObject({ value: 0, samples: control.finished });
    expect(candidate.completionRate?.low ?? 0).toBeGreaterThan(control.completionRate?.high ?? 1);

    // Promoted atomically: the candidate is the one active version, the control retired, the split over.
    const detail = await detailOf(t.app, template.id);
    expect(detail.activeVersionId).toBe(draft.id);
    const versions = await dataOf<TemplateVersion[]>(
      t.app.request(`/api/templates/${template.id}/versions`, { headers: AUTH }),
    );
    expect(versions.map(({ version, status }) => [version, status])).toEqual([
      [2, "active"],
      [1, "retired"],
    ]);
    // Urgent, so that it goes before the failed issues waiting for another attempt.
    await newTask(t.app, "after", 1);
    const after = await claim(t.app);
    expect(after.prompt?.experiment).toBeNull();
    expect(after.prompt?.text).toBe("CANDIDATE for after");
  });

  it("marks a worse candidate `loser` and leaves the active version alone", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50, minSamples: 6 }),
      201,
    );
    const ended = await drive(t.app, template, experiment.id, (arm) => arm === "control", 80);
    expect(ended.status).toBe("loser");
    expect(ended.decision?.reason).toBe(
      "candidate worse: completion rate worse, review score too few data, verified rate too few data",
    );
    const detail = await detailOf(t.app, template.id);
    expect(detail.activeVersionId).toBe(template.activeVersionId);
    const versions = await dataOf<TemplateVersion[]>(
      t.app.request(`/api/templates/${template.id}/versions`, { headers: AUTH }),
    );
    expect(versions.map(({ status }) => status)).toEqual(["draft", "active"]);
    await newTask(t.app, "after", 1);
    expect((await claim(t.app)).prompt?.text).toBe("CONTROL for after");
  });

  it("marks a better candidate `winner` without promoting it when autoPromote is false", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, {
        candidateVersionId: draft.id,
        trafficPercent: 50,
        minSamples: 6,
        autoPromote: false,
      }),
      201,
    );
    const ended = await drive(t.app, template, experiment.id, (arm) => arm === "candidate", 80);
    expect(ended.status).toBe("winner");
    expect((await detailOf(t.app, template.id)).activeVersionId).toBe(template.activeVersionId);
    // The template may run a new experiment now.
    await dataOf(start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 5 }), 201);
  });

  it("decides on review scores when a review arrives, the completion rates being alike", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50, minSamples: 2 }),
      201,
    );
    const prompts = { control: [] as Prompt[], candidate: [] as Prompt[] };
    for (let n = 0; prompts.control.length < 3 || prompts.candidate.length < 3; n++) {
      await newTask(t.app, `reviewed ${n}`);
      const claimed = await claim(t.app);
      const arm = armOfClaim(claimed, experiment.id);
      if (claimed.prompt) prompts[arm].push(claimed.prompt);
      await dataOf(finish(t.app, claimed, "done"));
    }
    // Every dispatch done: the rates overlap, and without reviews nothing is decided.
    expect((await experimentOf(t.app, template.id, experiment.id)).status).toBe("running");
    const review = (prompt: Prompt, rating: number) =>
      dataOf(
        t.app.request(
          `/api/prompts/${prompt.id}/reviews`,
          jsonPost({ clarity: rating, completeness: rating, relevance: rating, authorType: "agent" }),
        ),
        201,
      );
    for (const prompt of prompts.control.slice(0, 3)) await review(prompt, 1);
    const [first, second] = prompts.candidate;
    if (!first || !second) throw new Error("too few candidate prompts");
    // One review is no interval yet: too few data, so no decision.
    await review(first, 5);
    expect((await experimentOf(t.app, template.id, experiment.id)).status).toBe("running");
    await review(second, 5);
    const ended = await experimentOf(t.app, template.id, experiment.id);
    expect(ended.status).toBe("promoted");
    expect(ended.decision?.reason).toBe(
      "candidate better: completion rate overlapping, review score better, verified rate too few data",
    );
    expect(ended.decision?.arms.candidate).toMatchObject({ reviews: 2, reviewScore: { value: 5, low: 5, high: 5 } });
    expect(ended.decision?.arms.control).toMatchObject({ reviews: 3, reviewScore: { value: 1, low: 1, high: 1 } });
  });

  it("does not decide while the arms have fewer than minSamples finished, however far apart", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50, minSamples: 40 }),
      201,
    );
    const ended = await drive(t.app, template, experiment.id, (arm) => arm === "candidate", 30);
    expect(ended.status).toBe("running");
  });
});

describe.concurrent("ending an experiment by hand", () => {
  it("DELETE stops it with its figures, once; the template may start another", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50 }),
      201,
    );
    await newTask(t.app, "one");
    await claim(t.app);
    const stopped = await dataOf<Experiment>(
      t.app.request(`/api/templates/${template.id}/experiments/${experiment.id}`, { method: "DELETE", headers: AUTH }),
    );
    expect(stopped.status).toBe("stopped");
    expect(stopped.decision).toMatchObject({ outcome: "stopped", reason: "stopped on request" });
    const used = stopped.decision?.arms;
    expect((used?.control.claims ?? 0) + (used?.candidate.claims ?? 0)).toBe(1);
    expect(await experimentOf(t.app, template.id, experiment.id)).toEqual(stopped);
    const again = await t.app.request(`/api/templates/${template.id}/experiments/${experiment.id}`, {
      method: "DELETE",
      headers: AUTH,
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: `Experiment ${experiment.id} is stopped` });
    await newTask(t.app, "two");
    const plain = await claim(t.app);
    expect(plain.prompt?.experiment).toBeNull();
    expect(plain.prompt?.text).toBe("CONTROL for two");
    await dataOf(start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 10 }), 201);
  });

  it("DELETE honours If-Match: a stale or weak tag is a 412 that stops nothing; the tag it carries stops it", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const started = await start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50 });
    expect(started.headers.get("etag")).toBe('"1"');
    const experiment = ((await started.json()) as { data: Experiment }).data;
    const path = `/api/templates/${template.id}/experiments/${experiment.id}`;
    expect((await t.app.request(path, { headers: AUTH })).headers.get("etag")).toBe('"1"');
    const stop = (ifMatch: string) =>
      t.app.request(path, { method: "DELETE", headers: { ...AUTH, "If-Match": ifMatch } });
    for (const tag of ['"2"', 'W/"1"']) {
      const stale = await stop(tag);
      expect(stale.status, tag).toBe(412);
      expect(await stale.json()).toEqual({ error: "Resource has changed (ETag mismatch)" });
    }
    expect(await experimentOf(t.app, template.id, experiment.id)).toEqual(experiment);
    await newTask(t.app, "still split");
    expect((await claim(t.app)).prompt?.experiment).toMatchObject({ id: experiment.id });

    const stopped = await stop('"1"');
    expect(stopped.status).toBe(200);
    expect(stopped.headers.get("etag")).toBe('"2"');
    expect(((await stopped.json()) as { data: Experiment }).data.status).toBe("stopped");
    expect((await t.app.request(path, { headers: AUTH })).headers.get("etag")).toBe('"2"');
    expect((await stop('"1"')).status).toBe(412);
    expect((await stop('"2"')).status).toBe(409);
  });

  it("a promotion by hand ends it: `promoted` for its candidate, `stopped` for another version", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const first = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50 }),
      201,
    );
    await dataOf(t.app.request(`/api/templates/${template.id}/versions/${draft.id}/promote`, jsonPost({})));
    expect(await experimentOf(t.app, template.id, first.id)).toMatchObject({
      status: "promoted",
      decision: { outcome: "promoted", reason: "version 2 promoted by request" },
    });
    // Ended by the promotion, not by its DELETE: it moved on all the same.
    const ended = await t.app.request(`/api/templates/${template.id}/experiments/${first.id}`, { headers: AUTH });
    expect(ended.headers.get("etag")).toBe('"2"');
    const third = await dataOf<TemplateVersion>(
      t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "THIRD" })),
      201,
    );
    const fourth = await dataOf<TemplateVersion>(
      t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "FOURTH" })),
      201,
    );
    const second = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: third.id, trafficPercent: 50 }),
      201,
    );
    await dataOf(t.app.request(`/api/templates/${template.id}/versions/${fourth.id}/promote`, jsonPost({})));
    expect(await experimentOf(t.app, template.id, second.id)).toMatchObject({
      status: "stopped",
      decision: { outcome: "stopped", reason: "version 4 promoted by request" },
    });
    const listed = await dataOf<Experiment[]>(
      t.app.request(`/api/templates/${template.id}/experiments`, { headers: AUTH }),
    );
    expect(listed.map(({ id }) => id)).toEqual([second.id, first.id]);
  });

  it("deleting the template stops its experiment", async () => {
    const t = await testApp();
    const { template, draft } = await experimentTemplate(t);
    const experiment = await dataOf<Experiment>(
      start(t.app, template.id, { candidateVersionId: draft.id, trafficPercent: 50 }),
      201,
    );
    const deleted = await t.app.request(`/api/templates/${template.id}`, { method: "DELETE", headers: AUTH });
    expect(deleted.status).toBe(204);
    const record = await t.db.get({
      pk: `$kaizen#template_1#${template.id}`,
      sk: `$kaizen#experiment_1#${experiment.id.slice(4)}`,
    });
    expect(record?.status).toBe("stopped");
    expect(record?.decision).toMatchObject({ outcome: "stopped", reason: "template deleted" });
  });
});

describe.concurrent.each(CONFLICT_MODES)("finishes at once ($mode)", ({ emulateConflicts }) => {
  it("decide once: one promotion, the template's version moved once", async () => {
    const t = await testApp({}, { emulateConflicts });
    const fleet = fleetOf(t, emulateConflicts);
    try {
      const { template, draft } = await experimentTemplate(t);
      const experiment = await dataOf<Experiment>(
        start(fleet, template.id, { candidateVersionId: draft.id, trafficPercent: 50, minSamples: 8 }),
        201,
      );
      const started = await fleet.request(`/api/templates/${template.id}`, { headers: AUTH });
      const startedVersion = Number(JSON.parse(started.headers.get("etag") ?? "0"));
      // Claim issues until each arm holds well past minSamples, then finish them all at once.
      const held: { claimed: Claimed; arm: "control" | "candidate" }[] = [];
      const inArm = (arm: string) => held.filter((entry) => entry.arm === arm).length;
      for (let n = 0; inArm("control") < 14 || inArm("candidate") < 14; n++) {
        await newTask(fleet, `burst ${n}`);
        const claimed = await claim(fleet, `agent-${n}`);
        held.push({ claimed, arm: armOfClaim(claimed, experiment.id) });
      }
      const answers = await Promise.all(
        held.map(({ claimed, arm }) => finish(fleet, claimed, arm === "candidate" ? "done" : "failed")),
      );
      expect(answers.map(({ status }) => status)).toEqual(held.map(() => 200));

      const ended = await experimentOf(fleet, template.id, experiment.id);
      expect(ended.status).toBe("promoted");
      // Every finish counted exactly once.
      expect(ended.arms.candidate.finished).toBe(inArm("candidate"));
      expect(ended.arms.control.finished).toBe(inArm("control"));
      expect(ended.arms.candidate.completions).toBe(inArm("candidate"));
      expect(ended.arms.control.failures).toBe(inArm("control"));
      const detail = await fleet.request(`/api/templates/${template.id}`, { headers: AUTH });
      expect(((await detail.json()) as { data: TemplateDetail }).data.activeVersionId).toBe(draft.id);
      // One decision: the template was written once after the start (a second one would move it again).
      expect(Number(JSON.parse(detail.headers.get("etag") ?? "0"))).toBe(startedVersion + 1);
      const versions = await dataOf<TemplateVersion[]>(
        fleet.request(`/api/templates/${template.id}/versions`, { headers: AUTH }),
      );
      expect(versions.filter(({ status }) => status === "active").map(({ id }) => id)).toEqual([draft.id]);
    } finally {
      fleet.destroy();
    }
  });
});
