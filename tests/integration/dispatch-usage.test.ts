/**
 * What an agent reports its work cost (docs/api.md#dispatch `usage`): checked field by field, kept on the
 * dispatch as reported (an unreported field null), and null on a dispatch that ended any other way.
 */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Claim = { dispatch: Dispatch & { token: string } };

async function claimedDispatch(t: TestApp, title: string): Promise<Claim["dispatch"]> {
  await dataOf(t.app.request("/api/issues", jsonPost({ title, type: "task", status: "todo" })), 201);
  return (await dataOf<Claim>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "usage-agent" })), 201)).dispatch;
}

function complete(t: TestApp, dispatch: Claim["dispatch"], body: Record<string, unknown>) {
  return t.app.request(
    `/api/dispatch/${dispatch.id}/complete`,
    jsonPost({ result: "done", summary: "Fixed", ...body }, { Authorization: `Bearer ${dispatch.token}` }),
  );
}

async function storedDispatch(t: TestApp, id: string): Promise<Dispatch> {
  return dataOf<Dispatch>(t.app.request(`/api/dispatch/${id}`, { headers: AUTH }));
}

describe("usage reported with a completion", () => {
  it("is kept on the dispatch as reported, a field not reported is null, and none at all is null", async () => {
    const t = await testApp();
    const full = await claimedDispatch(t, "full");
    const usage = { inputTokens: 120_000, outputTokens: 8_000, costUsd: 0.4275, model: "model-x" };
    const answered = await dataOf<{ dispatch: Dispatch }>(complete(t, full, { usage }));
    expect(answered.dispatch.usage).toEqual(usage);
    expect((await storedDispatch(t, full.id)).usage).toEqual(usage);

    const partial = await claimedDispatch(t, "partial");
    await dataOf(complete(t, partial, { result: "failed", usage: { costUsd: 0 } }));
    expect((await storedDispatch(t, partial.id)).usage).toEqual({
      inputTokens: null,
      outputTokens: null,
      costUsd: 0,
      model: null,
    });

    const none = await claimedDispatch(t, "none");
    await dataOf(complete(t, none, {}));
    expect((await storedDispatch(t, none.id)).usage).toBeNull();
    const listed = await dataOf<Dispatch[]>(t.app.request("/api/dispatch?status=completed", { headers: AUTH }));
    expect(Object.fromEntries(listed.map((dispatch) => [dispatch.id, dispatch.usage]))).toEqual({
      [full.id]: usage,
      [none.id]: null,
    });
  });

  it("is null on a dispatch that is active, released, or ended by a PATCH", async () => {
    const t = await testApp();
    const active = await claimedDispatch(t, "active");
    expect(active.usage).toBeNull();
    const released = await dataOf<{ dispatch: Dispatch }>(
      t.app.request(`/api/dispatch/${active.id}/release`, jsonPost({}, { Authorization: `Bearer ${active.token}` })),
    );
    expect(released.dispatch.usage).toBeNull();
    const patched = await claimedDispatch(t, "patched");
    const issue = (await storedDispatch(t, patched.id)).issueId;
    const moved = await t.app.request(`/api/issues/${issue}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "done" }),
    });
    expect(moved.status).toBe(200);
    expect((await storedDispatch(t, patched.id)).usage).toBeNull();
  });

  it("answers 400 naming the field for a bad report, and completes nothing", async () => {
    const t = await testApp();
    const dispatch = await claimedDispatch(t, "bad reports");
    const cases: [unknown, string, string][] = [
      [{}, "usage", "must give at least one of inputTokens, outputTokens, costUsd, model"],
      [{ inputTokens: -1 }, "usage.inputTokens", "must be between 0 and 1000000000"],
      [{ outputTokens: 1.5 }, "usage.outputTokens", ""],
      [{ inputTokens: 1_000_000_001 }, "usage.inputTokens", "must be between 0 and 1000000000"],
      [{ costUsd: 10_000.01 }, "usage.costUsd", "must be between 0 and 10000"],
      [{ costUsd: "0.4" }, "usage.costUsd", ""],
      [{ model: "" }, "usage.model", "must be 1..200 characters"],
      [{ model: "m".repeat(201) }, "usage.model", "must be 1..200 characters"],
      [{ tokens: 5 }, "usage", ""],
      ["cheap", "usage", ""],
    ];
    for (const [usage, path, message] of cases) {
      const response = await complete(t, dispatch, { usage });
      expect(response.status, JSON.stringify(usage)).toBe(400);
      const body = (await response.json()) as { details: { path: string; message: string }[] };
      const detail = body.details.find((one) => one.path === path);
      expect(detail, `${JSON.stringify(usage)}: ${JSON.stringify(body)}`).toBeDefined();
      if (message) expect(detail?.message).toBe(message);
    }
    expect((await storedDispatch(t, dispatch.id)).status).toBe("active");
  });
});

/** The version a claim's prompt was rendered from, as the templates API reads it now. */
async function versionOf(t: TestApp, dispatch: Dispatch): Promise<TemplateVersion> {
  const prompt = await dataOf<{ templateId: string; versionId: string }>(
    t.app.request(`/api/prompts/${dispatch.promptId}`, { headers: AUTH }),
  );
  const versions = await dataOf<TemplateVersion[]>(
    t.app.request(`/api/templates/${prompt.templateId}/versions`, { headers: AUTH }),
  );
  const version = versions.find((one) => one.id === prompt.versionId);
  if (!version) throw new Error(`version ${prompt.versionId} not listed`);
  return version;
}

describe("usage summed per version", () => {
  it("adds what each finished dispatch reported to its prompt's version, and the dashboard shows it", async () => {
    const t = await testApp();
    const [a, b, c] = [await claimedDispatch(t, "a"), await claimedDispatch(t, "b"), await claimedDispatch(t, "c")];
    if (!a || !b || !c) throw new Error("three claims expected");
    expect(a.promptId).not.toBeNull();
    const before = await versionOf(t, a);
    expect(before.cost).toEqual({ reports: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, meanCostUsd: null });

    await dataOf(complete(t, a, { usage: { inputTokens: 1000, outputTokens: 200, costUsd: 0.25 } }));
    await dataOf(complete(t, b, { result: "failed", usage: { costUsd: 0.75, model: "m" } }));
    await dataOf(complete(t, c, { usage: { model: "m" } }));
    const after = await versionOf(t, a);
    expect(after.cost).toEqual({ reports: 3, inputTokens: 1000, outputTokens: 200, costUsd: 1, meanCostUsd: 0.5 });
    expect(after.completionRate).toBeCloseTo(2 / 3, 10);

    const dashboard = await dataOf<{ template: { id: string }; activeVersion: { id: string; cost: unknown } | null }[]>(
      t.app.request("/api/dashboard/prompts?limit=100", { headers: AUTH }),
    );
    expect(dashboard.find((row) => row.activeVersion?.id === after.id)?.activeVersion?.cost).toEqual(after.cost);
  });

  for (const { mode, emulateConflicts } of CONFLICT_MODES) {
    it(`sums 20 completions sent at once exactly (${mode})`, async () => {
      const t = await testApp({}, { emulateConflicts });
      const dispatches = [];
      for (let i = 0; i < 20; i++) dispatches.push(await claimedDispatch(t, `burst ${i}`));
      const answers = await Promise.all(
        dispatches.map((dispatch) =>
          complete(t, dispatch, { usage: { inputTokens: 100, outputTokens: 7, costUsd: 0.1 } }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(dispatches.map(() => 200));
      const version = await versionOf(t, dispatches[0] as Dispatch);
      expect(version.cost.reports).toBe(20);
      expect(version.cost.inputTokens).toBe(2000);
      expect(version.cost.outputTokens).toBe(140);
      expect(version.cost.costUsd).toBeCloseTo(2, 9);
      expect(version.cost.meanCostUsd).toBeCloseTo(0.1, 9);
    });
  }
});
