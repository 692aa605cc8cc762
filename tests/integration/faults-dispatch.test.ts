/**
 * Dispatch and review writes under a failing store, failed at each DynamoDB call in turn as in
 * faults-writes.test.ts: a claim, an agent completing its dispatch with its token, a review, and
 * the review that opens an improvement task. A call failing for good makes a 503 with
 * `Retry-After` and no half-written change; the same request then succeeds and is stored once. A
 * call applied with its answer lost is sent again by the SDK: the request succeeds, stored once.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import type { TemplateDetail, TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, dataOf, jsonPost, testApp } from "../helpers/app.js";
import { failEachCallInTurn, injectFaults, POSITION_FAULT_MODES } from "../helpers/faults.js";
import { createTemplate, engineOf, recordPrompt } from "../helpers/templates.js";

// Two tests at a time: the idle core gets work, and no test is stretched far toward its timeout.
vi.setConfig({ maxConcurrency: 2 });

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };
type Issue = { id: string; status: string; title: string };
type Claim = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };
type Stats = { issues: { total: number; byStatus: Record<string, number> }; dispatches: Record<string, number> };

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** A table of one test's own, with its faults, seeded with the default templates, and requests on it. */
async function seededTable() {
  const t = await testApp({}, { emulateConflicts: true });
  const faults = injectFaults(t.db);
  const stats = () => dataOf<Stats>(t.app.request("/api/dashboard/stats", { headers: AUTH }));
  const todo = (title: string, extra: Record<string, unknown> = {}) =>
    dataOf<Issue>(t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo", ...extra })), 201);
  const claim = (body: Record<string, unknown> = { agent: "agent-1" }) =>
    dataOf<Claim>(t.app.request("/api/dispatch/claim", jsonPost(body)), 201);
  // The first template read seeds the default templates (a claim would too): the runs start from a seeded table.
  await dataOf(t.app.request("/api/templates", { headers: AUTH }));
  return { t, faults, stats, todo, claim };
}

const review = (score: number, init: Record<string, string> = {}) =>
  jsonPost({ clarity: score, completeness: score, relevance: score, authorType: "agent" }, init);

/** Each test has a table of its own (a run compares the whole table before and after), so they run side by side. */
const eachFaultMode = describe.concurrent.each(POSITION_FAULT_MODES);

eachFaultMode("dispatch and reviews with $mode, at each call position in turn", ({ fault }) => {
  it("POST /api/dispatch/claim", async () => {
    const { t, faults, stats, todo } = await seededTable();
    const report = await failEachCallInTurn(
      t,
      faults,
      {
        status: 201,
        prepare: async () => {
          const issue = await todo(`Flaky checkout test ${randomUUID()}`);
          const before = await stats();
          return {
            send: () => t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-7", leaseSeconds: 600 })),
            storedOnce: async (response) => {
              const claimed = (await json<Body<Claim>>(response.clone())).data;
              expect(claimed.issue).toMatchObject({ id: issue.id, status: "in_progress" });
              const dispatches = await json<ListBody<Dispatch>>(
                await t.app.request(`/api/dispatch?issueId=${issue.id}`, { headers: AUTH }),
              );
              expect(dispatches).toMatchObject({ total: 1, data: [{ id: claimed.dispatch.id, status: "active" }] });
              const prompts = await json<ListBody<Prompt>>(
                await t.app.request(`/api/prompts?issueId=${issue.id}`, { headers: AUTH }),
              );
              expect(prompts).toMatchObject({ total: 1, data: [{ id: claimed.prompt?.id }] });
              const after = await stats();
              expect(after.dispatches.active).toBe((before.dispatches.active ?? 0) + 1);
              expect(after.issues.byStatus.in_progress).toBe((before.issues.byStatus.in_progress ?? 0) + 1);
            },
          };
        },
      },
      fault,
    );
    expect(report.positions.map((p) => p.command)).toContain("TransactWriteItemsCommand");
  });

  it("POST /api/dispatch/:id/complete by the agent, with its dispatch token", async () => {
    const { t, faults, stats, todo, claim } = await seededTable();
    const report = await failEachCallInTurn(
      t,
      faults,
      {
        status: 200,
        prepare: async () => {
          await todo(`Fix the flaky test ${randomUUID()}`);
          const claimed = await claim();
          const before = await stats();
          const request = jsonPost(
            { result: "done", summary: "Pinned the clock", commits: [{ sha: "abc1234", message: "Pin clock" }] },
            { Authorization: `Bearer ${claimed.dispatch.token}` },
          );
          return {
            send: () => t.app.request(`/api/dispatch/${claimed.dispatch.id}/complete`, request),
            storedOnce: async () => {
              const dispatch = await dataOf<Dispatch>(
                t.app.request(`/api/dispatch/${claimed.dispatch.id}`, { headers: AUTH }),
              );
              expect(dispatch).toMatchObject({ status: "completed", outcome: { summary: "Pinned the clock" } });
              const issue = await dataOf<Issue & { commits: unknown[] }>(
                t.app.request(`/api/issues/${claimed.issue.id}`, { headers: AUTH }),
              );
              expect(issue).toMatchObject({ status: "done", commits: [{ sha: "abc1234" }] });
              const after = await stats();
              expect(after.dispatches.completed).toBe((before.dispatches.completed ?? 0) + 1);
              expect(after.dispatches.active).toBe((before.dispatches.active ?? 0) - 1);
              expect(after.issues.byStatus.done).toBe((before.issues.byStatus.done ?? 0) + 1);
              // Completed once: its token ended with it, and a second completion is refused.
              expect((await t.app.request(`/api/dispatch/${claimed.dispatch.id}/complete`, request)).status).toBe(401);
              const again = jsonPost({ result: "done", summary: "Again" });
              expect((await t.app.request(`/api/dispatch/${claimed.dispatch.id}/complete`, again)).status).toBe(409);
            },
          };
        },
      },
      fault,
    );
    // The token's lookup comes first.
    expect(report.positions[0]?.command).toBe("GetItemCommand");
  });

  it("POST /api/prompts/:id/reviews", async () => {
    const { t, faults, todo, claim } = await seededTable();
    await todo("Something to prompt for");
    const { prompt } = await claim();
    if (!prompt) throw new Error("the default templates give every issue a prompt");
    const versionOf = async (): Promise<TemplateVersion> => {
      const detail = await dataOf<TemplateDetail>(
        t.app.request(`/api/templates/${prompt.templateId}`, { headers: AUTH }),
      );
      if (!detail.activeVersion) throw new Error("no active version");
      return detail.activeVersion;
    };
    await failEachCallInTurn(
      t,
      faults,
      {
        status: 201,
        prepare: async () => {
          const before = await versionOf();
          const request = review(5, { "Idempotency-Key": randomUUID() });
          return {
            send: () => t.app.request(`/api/prompts/${prompt.id}/reviews`, request),
            storedOnce: async () => {
              const reviews = await json<ListBody<unknown>>(
                await t.app.request(`/api/prompts/${prompt.id}/reviews?limit=100`, { headers: AUTH }),
              );
              expect(reviews.total).toBe(before.reviewCount + 1);
              expect((await versionOf()).reviewCount).toBe(before.reviewCount + 1);
            },
          };
        },
      },
      fault,
    );
  });

  it("POST /api/prompts/:id/reviews: the third low review opens one improvement task", async () => {
    const { t, faults, stats } = await seededTable();
    const engine = engineOf(t);
    let specificity = 500;
    const report = await failEachCallInTurn(
      t,
      faults,
      {
        status: 201,
        prepare: async () => {
          specificity += 1;
          const slug = `hypo-${randomUUID().slice(0, 8)}`;
          const [, issue] = await Promise.all([
            createTemplate(t.app, {
              slug,
              name: "Hypotheses",
              conditions: { type: "hypothesis" },
              specificity,
              content: "Test {{issue.title}}",
            }),
            dataOf<Issue>(
              t.app.request(
                "/api/issues",
                jsonPost({ title: `Guess ${slug}`, type: "hypothesis", status: "todo", priority: 1 }),
              ),
              201,
            ),
          ]);
          // The prompt a claim of the issue would record (what is reviewed is the prompt, not the claim).
          const prompt = await recordPrompt(engine, issue.id, t);
          for (const score of [2, 2])
            await dataOf(t.app.request(`/api/prompts/${prompt.id}/reviews`, review(score)), 201);
          const before = await stats();
          const title = `Improve prompt template: ${slug}`;
          return {
            send: () => t.app.request(`/api/prompts/${prompt.id}/reviews`, review(1)),
            storedOnce: async () => {
              const tasks = await json<ListBody<Issue & { labels: string[] }>>(
                await t.app.request(`/api/issues?label=prompt-improvement&q=${encodeURIComponent(title)}`, {
                  headers: AUTH,
                }),
              );
              expect(tasks).toMatchObject({ total: 1, data: [{ title, labels: ["prompt-improvement"] }] });
              const reviews = await json<ListBody<unknown>>(
                await t.app.request(`/api/prompts/${prompt.id}/reviews`, { headers: AUTH }),
              );
              expect(reviews.total).toBe(3);
              expect((await stats()).issues.total).toBe(before.issues.total + 1);
            },
          };
        },
      },
      fault,
    );
    expect(report.positions.map((p) => p.command)).toContain("UpdateItemCommand");
  });
});
