import { beforeAll, describe, expect, it } from "vitest";
import type { Prompt, RatedReview as Review } from "../../core/src/prompts/schemas.js";
import { scoreAfter } from "../../core/src/prompts/scoring.js";
import { MAX_PROMPT_BYTES } from "../../core/src/templates/prompt-renderer.js";
import type { TemplateDetail, TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, anotherInstance, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { createTemplate, engineOf, recordPrompt } from "../helpers/templates.js";

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };
type Issue = { id: string; number: number; title: string; type: string; status: string; labels: string[] };

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function createIssue(t: Pick<TestApp, "app">, body: Record<string, unknown>): Promise<Issue> {
  const response = await t.app.request("/api/issues", jsonPost(body));
  if (response.status !== 201) throw new Error(`issue create answered ${response.status}`);
  return (await json<Body<Issue>>(response)).data;
}

const rating = (clarity: number, completeness = clarity, relevance = clarity) => ({
  clarity,
  completeness,
  relevance,
  authorType: "agent",
});

async function versionOf(t: Pick<TestApp, "app">, templateId: string): Promise<TemplateVersion> {
  const detail = await json<Body<TemplateDetail>>(
    await t.app.request(`/api/templates/${templateId}`, { headers: AUTH }),
  );
  if (!detail.data.activeVersion) throw new Error("no active version");
  return detail.data.activeVersion;
}

async function improvementTasks(t: Pick<TestApp, "app">): Promise<Issue[]> {
  const list = await json<ListBody<Issue>>(
    await t.app.request("/api/issues?label=prompt-improvement&limit=100", { headers: AUTH }),
  );
  return list.data;
}

describe("prompts", () => {
  let t: TestApp;
  let template: TemplateDetail;
  let prompts: Prompt[];
  let issues: Issue[];
  beforeAll(async () => {
    t = await testApp();
    template = await createTemplate(t.app, {
      slug: "hypo",
      name: "Hypotheses",
      conditions: { type: "hypothesis" },
      specificity: 500,
      content: "Test {{issue.title}} ({{issueRef issue}}) at {{api.baseUrl}} as prompt {{prompt.id}}",
    });
    const engine = engineOf(t);
    const hypothesis = { statement: "s", confidence: 0.5, evidence: [], validationCriteria: "v" };
    issues = [
      await createIssue(t, { title: "first", type: "hypothesis", hypothesis }),
      await createIssue(t, { title: "second", type: "hypothesis", hypothesis }),
      await createIssue(t, { title: "a task", type: "task" }),
    ];
    prompts = [];
    for (const issue of issues) prompts.push(await recordPrompt(engine, issue.id, t));
  });

  it("records the exact text rendered from the chosen version, and counts its use", async () => {
    const [first] = prompts;
    const response = await t.app.request(`/api/prompts/${first?.id}`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"1"');
    const { data } = await json<Body<Prompt>>(response);
    expect(data).toEqual({
      id: expect.stringMatching(/^prm_[0-9A-HJKMNP-TV-Z]{26}$/),
      issueId: issues[0]?.id,
      dispatchId: null,
      templateId: template.id,
      versionId: template.activeVersionId,
      versionNumber: 1,
      experiment: null,
      text: `Test first (KZN-${issues[0]?.number}) at http://localhost:4242 as prompt ${first?.id}`,
      createdAt: expect.stringMatching(/Z$/),
      reviewCount: 0,
    });
    expect((await versionOf(t, template.id)).usageCount).toBe(2);
    expect((await versionOf(t, "task-execution")).usageCount).toBe(1);
  });

  it("lists newest first, filters by template, version and issue, and pages", async () => {
    const all = await json<ListBody<Prompt>>(await t.app.request("/api/prompts", { headers: AUTH }));
    expect(all.total).toBe(3);
    expect(all.data.map(({ id }) => id)).toEqual(prompts.map(({ id }) => id).reverse());
    const byTemplate = await json<ListBody<Prompt>>(
      await t.app.request(`/api/prompts?templateId=${template.id}`, { headers: AUTH }),
    );
    expect(byTemplate.data.map(({ issueId }) => issueId)).toEqual([issues[1]?.id, issues[0]?.id]);
    const combined = await json<ListBody<Prompt>>(
      await t.app.request(`/api/prompts?versionId=${template.activeVersionId}&issueId=${issues[1]?.id}`, {
        headers: AUTH,
      }),
    );
    expect(combined.total).toBe(1);
    expect(combined.data[0]?.id).toBe(prompts[1]?.id);
    const page2 = await json<ListBody<Prompt>>(await t.app.request("/api/prompts?limit=2&page=2", { headers: AUTH }));
    expect(page2.data.map(({ id }) => id)).toEqual([prompts[0]?.id]);
    expect((await t.app.request("/api/prompts?templateId=nope", { headers: AUTH })).status).toBe(400);
    const byRef = await t.app.request("/api/prompts?issueId=KZN-1", { headers: AUTH });
    expect(byRef.status).toBe(400);
    expect(((await byRef.json()) as { error: string }).error).toBe("issueId: must be an issue id (iss_…)");
    expect((await t.app.request("/api/prompts/prm_01JD0000000000000000000000", { headers: AUTH })).status).toBe(404);
  });

  it("validates reviews: integers 1..5, authorType, no unknown fields", async () => {
    const path = `/api/prompts/${prompts[2]?.id}/reviews`;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...rating(3), clarity: 0 }, "clarity: must be an integer from 1 to 5"],
      [{ ...rating(3), completeness: 6 }, "completeness: must be an integer from 1 to 5"],
      [{ ...rating(3), relevance: 2.5 }, "relevance:"],
      [{ clarity: 3, completeness: 3, authorType: "agent" }, "relevance:"],
      [{ ...rating(3), authorType: "robot" }, "authorType:"],
      [{ ...rating(3), stars: 5 }, "unknown field: stars"],
    ];
    for (const [body, message] of cases) {
      const response = await t.app.request(path, jsonPost(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ error: string }>(response)).error).toContain(message);
    }
    expect(
      (await t.app.request("/api/prompts/prm_01JD0000000000000000000000/reviews", jsonPost(rating(3)))).status,
    ).toBe(404);
    expect(
      (await json<Body<Prompt>>(await t.app.request(`/api/prompts/${prompts[2]?.id}`, { headers: AUTH }))).data
        .reviewCount,
    ).toBe(0);
  });

  it("moves the version's score by EWMA (the first review sets it) and lists reviews per prompt and template", async () => {
    const [first, second] = prompts;
    const created = await t.app.request(
      `/api/prompts/${first?.id}/reviews`,
      jsonPost({ clarity: 5, completeness: 4, relevance: 3, feedback: "clear", authorType: "agent", authorName: "a1" }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBe('"1"');
    expect((await json<Body<Review>>(created)).data).toMatchObject({
      id: expect.stringMatching(/^rev_/),
      promptId: first?.id,
      templateId: template.id,
      versionId: template.activeVersionId,
      versionNumber: 1,
      sequence: 1,
      composite: 4,
      feedback: "clear",
      authorType: "agent",
      authorName: "a1",
    });
    expect((await versionOf(t, template.id)).reviewScore).toBe(4);
    await t.app.request(`/api/prompts/${second?.id}/reviews`, jsonPost(rating(5)));
    await t.app.request(`/api/prompts/${first?.id}/reviews`, jsonPost(rating(2)));
    const version = await versionOf(t, template.id);
    expect(version.reviewCount).toBe(3);
    expect(version.reviewScore).toBeCloseTo(0.3 * 2 + 0.7 * (0.3 * 5 + 0.7 * 4), 10);
    const ofFirst = await json<ListBody<Review>>(
      await t.app.request(`/api/prompts/${first?.id}/reviews`, { headers: AUTH }),
    );
    expect(ofFirst.total).toBe(2);
    expect(ofFirst.data.map(({ sequence }) => sequence)).toEqual([3, 1]);
    expect(
      (await json<Body<Prompt>>(await t.app.request(`/api/prompts/${first?.id}`, { headers: AUTH }))).data.reviewCount,
    ).toBe(2);
    const ofTemplate = await json<ListBody<Review>>(
      await t.app.request(`/api/templates/${template.id}/reviews?limit=2`, { headers: AUTH }),
    );
    expect(ofTemplate.total).toBe(3);
    expect(ofTemplate.data.map(({ sequence }) => sequence)).toEqual([3, 2]);
  });

  it("collects a template's reviews across its versions", async () => {
    const fresh = await testApp();
    const engine = engineOf(fresh);
    const tpl = await createTemplate(fresh.app, {
      slug: "multi",
      name: "M",
      conditions: { type: "plan" },
      specificity: 900,
      content: "one",
    });
    const issue = await createIssue(fresh, { title: "p", type: "plan" });
    const p1 = await recordPrompt(engine, issue.id, fresh);
    const v2 = await json<Body<TemplateVersion>>(
      await fresh.app.request(`/api/templates/${tpl.id}/versions`, jsonPost({ content: "two" })),
    );
    await fresh.app.request(`/api/templates/${tpl.id}/versions/${v2.data.id}/promote`, jsonPost({}));
    const p2 = await recordPrompt(engine, issue.id, fresh);
    expect(p2.text).toBe("two");
    await fresh.app.request(`/api/prompts/${p1.id}/reviews`, jsonPost(rating(4)));
    await fresh.app.request(`/api/prompts/${p2.id}/reviews`, jsonPost(rating(2)));
    const reviews = await json<ListBody<Review>>(
      await fresh.app.request(`/api/templates/multi/reviews`, { headers: AUTH }),
    );
    expect(reviews.total).toBe(2);
    expect(reviews.data.map(({ versionNumber, sequence }) => [versionNumber, sequence])).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });
});

describe("prompt size", () => {
  it("records a prompt for an issue with a 900 KB signal and a huge rendering: payloads named, text cut", async () => {
    const t = await testApp();
    const signal = await t.app.request(
      "/api/signals",
      jsonPost({
        source: "loadtest",
        type: "dump",
        title: "Big dump",
        severity: "high",
        fingerprint: "big-dump",
        payload: { blob: "y".repeat(900 * 1024) },
      }),
    );
    expect(signal.status).toBe(201);
    const { data } = await json<Body<{ signal: { id: string }; issue: Issue }>>(signal);
    await createTemplate(t.app, {
      slug: "verbose",
      name: "Verbose",
      conditions: { type: "signal" },
      specificity: 999,
      content: `{{#each signals}}{{json payload}}{{/each}}\n${"{{issue.description}}".repeat(8)}`,
    });
    await t.app.request(`/api/issues/${data.issue.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ description: "z".repeat(50_000) }),
    });
    const engine = engineOf(t);
    const prompt = await recordPrompt(engine, data.issue.id, t);
    expect(prompt.text).toContain(`"url": "http://localhost:4242/api/signals/${data.signal.id}"`);
    expect(prompt.text).not.toContain("y".repeat(1000));
    expect(Buffer.byteLength(prompt.text)).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
    expect(prompt.text).toMatch(/z\n\n\[This prompt was cut at 300 KB; [^\]]*\]$/);
    const stored = await json<Body<Prompt>>(await t.app.request(`/api/prompts/${prompt.id}`, { headers: AUTH }));
    expect(stored.data.text).toBe(prompt.text);
  });
});

describe("improvement tasks", () => {
  it("open once a version scores below 3.5 after 3 reviews, and never twice", async () => {
    const t = await testApp();
    const engine = engineOf(t);
    const issue = await createIssue(t, { title: "t", type: "task" });
    const prompt = await recordPrompt(engine, issue.id, t);
    for (const score of [2, 2]) await t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(score)));
    expect(await improvementTasks(t)).toHaveLength(0);
    await t.app.request(
      `/api/prompts/${prompt.id}/reviews`,
      jsonPost({ ...rating(1), feedback: "missing the\nacceptance criteria" }),
    );
    const [task, ...more] = await improvementTasks(t);
    expect(more).toHaveLength(0);
    expect(task).toMatchObject({
      title: "Improve prompt template: task-execution",
      type: "task",
      status: "todo",
      labels: ["prompt-improvement"],
    });
    const detail = await json<Body<{ description: string }>>(
      await t.app.request(`/api/issues/${task?.id}`, { headers: AUTH }),
    );
    expect(detail.data.description).toContain("> acceptance criteria");
    for (const score of [1, 1, 5]) await t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(score)));
    expect(await improvementTasks(t)).toHaveLength(1);
  });

  it("open at the 15th review even when the score is good", async () => {
    const t = await testApp();
    const engine = engineOf(t);
    const issue = await createIssue(t, { title: "s", type: "signal" });
    const prompt = await recordPrompt(engine, issue.id, t);
    for (let i = 0; i < 14; i++) await t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(5)));
    expect(await improvementTasks(t)).toHaveLength(0);
    await t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(5)));
    const tasks = await improvementTasks(t);
    expect(tasks.map(({ title }) => title)).toEqual(["Improve prompt template: signal-triage"]);
  });
});

describe.each(CONFLICT_MODES)("concurrent reviews ($mode)", ({ emulateConflicts }) => {
  it("20 at once across two instances score as if applied one after another in the order stored", async () => {
    const t = await testApp({}, { emulateConflicts });
    const other = anotherInstance(t, emulateConflicts);
    const engine = engineOf(t);
    const issues = await Promise.all(
      Array.from({ length: 4 }, (_, i) => createIssue(t, { title: `i${i}`, type: "plan" })),
    );
    const prompts: Prompt[] = [];
    for (const issue of issues) prompts.push(await recordPrompt(engine, issue.id, t));
    const ratings = Array.from({ length: 20 }, (_, i) => rating((i % 5) + 1, ((i * 3) % 5) + 1, ((i * 7) % 5) + 1));
    const answers = await Promise.all(
      ratings.map((body, i) =>
        (i % 2 ? t : other).app.request(`/api/prompts/${prompts[i % 4]?.id}/reviews`, jsonPost(body)),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const reviews = await Promise.all(answers.map(async (answer) => (await json<Body<Review>>(answer)).data));
    const inOrder = [...reviews].sort((a, b) => a.sequence - b.sequence);
    expect(inOrder.map(({ sequence }) => sequence)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const version = await versionOf(t, "plan-decomposition");
    expect(version.reviewCount).toBe(20);
    expect(version.reviewScore).toBeCloseTo(scoreAfter(inOrder.map(({ composite }) => composite)) ?? Number.NaN, 10);
    for (const prompt of prompts) {
      const { data } = await json<Body<Prompt>>(await t.app.request(`/api/prompts/${prompt.id}`, { headers: AUTH }));
      expect(data.reviewCount).toBe(5);
    }
    const listed = await json<ListBody<Review>>(
      await t.app.request("/api/templates/plan-decomposition/reviews?limit=100", { headers: AUTH }),
    );
    expect(listed.total).toBe(20);
    expect(await improvementTasks(t)).toHaveLength(1);
  });

  it("open one improvement task when 12 low reviews arrive at once", async () => {
    const t = await testApp({}, { emulateConflicts });
    const other = anotherInstance(t, emulateConflicts);
    const issue = await createIssue(t, { title: "m", type: "monitor" });
    const prompt = await recordPrompt(engineOf(t), issue.id, t);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? t : other).app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(1))),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    const tasks = await improvementTasks(t);
    expect(tasks.map(({ title }) => title)).toEqual(["Improve prompt template: monitor-check"]);
    expect((await versionOf(t, "monitor-check")).reviewCount).toBe(12);
  });
});
