import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATE_SLUGS, versionKey } from "../../core/src/templates/keys.js";
import type { Template, TemplateDetail, TemplateVersion } from "../../core/src/templates/schemas.js";
import { TemplateSeeding } from "../../core/src/templates/template-seeding.js";
import { TemplateStore } from "../../core/src/templates/template-store.js";
import { AUTH, anotherInstance, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES, TEST_API_KEY } from "../helpers/db.js";
import { createTemplate, engineOf } from "../helpers/templates.js";

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };

const patch = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "PATCH",
  headers: { ...AUTH, "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function createIssue(t: TestApp, body: Record<string, unknown>): Promise<{ id: string; number: number }> {
  const response = await t.app.request("/api/issues", jsonPost(body));
  if (response.status !== 201) throw new Error(`issue create answered ${response.status}`);
  return (await json<Body<{ id: string; number: number }>>(response)).data;
}

describe("templates", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("creates a template whose content is version 1, active, with Location and ETag", async () => {
    const response = await t.app.request(
      "/api/templates",
      jsonPost({
        slug: "bug-fix",
        name: "Bug fix",
        conditions: { type: "task", labels: ["bug"] },
        specificity: 50,
        content: "Fix {{issue.title}}",
        changelog: "first",
      }),
    );
    expect(response.status).toBe(201);
    const { data } = await json<Body<TemplateDetail>>(response);
    expect(data).toMatchObject({
      id: expect.stringMatching(/^tpl_[0-9A-HJKMNP-TV-Z]{26}$/),
      slug: "bug-fix",
      name: "Bug fix",
      description: null,
      conditions: { type: "task", labels: ["bug"] },
      specificity: 50,
      projectId: null,
      activeVersionId: data.activeVersion?.id,
    });
    expect(data.activeVersion).toMatchObject({
      id: expect.stringMatching(/^ver_/),
      templateId: data.id,
      version: 1,
      content: "Fix {{issue.title}}",
      changelog: "first",
      authorType: "human",
      authorName: null,
      status: "active",
      usageCount: 0,
      reviewCount: 0,
      reviewScore: null,
      completionRate: null,
    });
    expect(response.headers.get("location")).toBe(`/api/templates/${data.id}`);
    expect(response.headers.get("etag")).toBe('"1"');
    const bySlug = await t.app.request("/api/templates/bug-fix", { headers: AUTH });
    expect((await json<Body<TemplateDetail>>(bySlug)).data.id).toBe(data.id);
  });

  it("refuses a duplicate slug (409), unknown condition keys and bad fields (400)", async () => {
    await createTemplate(t.app, { slug: "taken", name: "Taken" });
    const duplicate = await t.app.request("/api/templates", jsonPost({ slug: "taken", name: "Again" }));
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ error: 'Template slug "taken" already exists' });
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: "x1", name: "n", conditions: { colour: "red" } }, "conditions: unknown field: colour"],
      [{ slug: "x1", name: "n", conditions: { type: "bug" } }, "conditions.type:"],
      [{ slug: "x1", name: "n", conditions: { minHypothesisConfidence: 2 } }, "conditions.minHypothesisConfidence:"],
      [{ slug: "x1", name: "n", conditions: { hasFailedDispatches: "yes" } }, "conditions.hasFailedDispatches:"],
      [{ slug: "X", name: "n" }, "slug: must be 2..64 of a-z, 0-9 and -"],
      [{ slug: "ok-slug", name: "n", specificity: 1001 }, "specificity: must be between 0 and 1000"],
      [{ slug: "ok-slug", name: "n", specificity: 1.5 }, "specificity:"],
      [{ slug: "ok-slug", name: "n", extra: 1 }, "unknown field: extra"],
      [{ slug: "ok-slug", name: "n", projectId: "prj_01JD0000000000000000000000" }, "projectId: project"],
    ];
    for (const [body, message] of cases) {
      const response = await t.app.request("/api/templates", jsonPost(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ error: string }>(response)).error).toContain(message);
    }
  });

  it("names the line and column of a syntax error in content (400) and writes nothing", async () => {
    const response = await t.app.request(
      "/api/templates",
      jsonPost({ slug: "broken", name: "Broken", content: "line one\nline two {{#if issue}}\nno close" }),
    );
    expect(response.status).toBe(400);
    const body = await json<{ error: string; details: { path: string }[] }>(response);
    expect(body.error).toMatch(/^content: syntax error at line \d+, column \d+/);
    expect(body.details[0]?.path).toBe("content");
    expect((await t.app.request("/api/templates/broken", { headers: AUTH })).status).toBe(404);
  });

  it("updates under If-Match, moves the slug, and frees the old one", async () => {
    const created = await createTemplate(t.app, { slug: "old-slug", name: "Old" });
    const stale = await t.app.request(`/api/templates/${created.id}`, patch({ name: "x" }, { "If-Match": '"9"' }));
    expect(stale.status).toBe(412);
    const response = await t.app.request(
      `/api/templates/${created.id}`,
      patch({ slug: "new-slug", specificity: 99, conditions: { type: "plan" } }, { "If-Match": '"1"' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"2"');
    expect((await json<Body<Template>>(response)).data).toMatchObject({
      slug: "new-slug",
      specificity: 99,
      conditions: { type: "plan" },
    });
    expect((await t.app.request("/api/templates/old-slug", { headers: AUTH })).status).toBe(404);
    await createTemplate(t.app, { slug: "old-slug", name: "Reused" });
    const clash = await t.app.request(`/api/templates/${created.id}`, patch({ slug: "old-slug" }));
    expect(clash.status).toBe(409);
    const unknownKey = await t.app.request(`/api/templates/${created.id}`, patch({ conditions: { nope: 1 } }));
    expect(unknownKey.status).toBe(400);
  });

  it("soft-deletes: gone from reads, lists and selection, slug free, versions kept", async () => {
    const created = await createTemplate(t.app, { slug: "short-lived", name: "S", content: "x" });
    const removed = await t.app.request(`/api/templates/${created.id}`, { method: "DELETE", headers: AUTH });
    expect(removed.status).toBe(204);
    expect((await t.app.request(`/api/templates/${created.id}`, { headers: AUTH })).status).toBe(404);
    expect((await t.app.request(`/api/templates/${created.id}/versions`, { headers: AUTH })).status).toBe(404);
    const list = await json<ListBody<Template>>(await t.app.request("/api/templates?limit=100", { headers: AUTH }));
    expect(list.data.map(({ id }) => id)).not.toContain(created.id);
    const entries = await engineOf(t).templates.listTemplates({ page: 1, limit: 100 });
    expect(entries.templates.map(({ template }) => template.id)).not.toContain(created.id);
    await createTemplate(t.app, { slug: "short-lived", name: "Again" });
    expect((await t.app.request(`/api/templates/${created.id}`, { method: "DELETE", headers: AUTH })).status).toBe(404);
  });

  it("lists newest first with total, pages, and filters by type and project", async () => {
    const fresh = await testApp();
    const project = await json<Body<{ id: string }>>(await fresh.app.request("/api/projects", jsonPost({ name: "P" })));
    await createTemplate(fresh.app, {
      slug: "p-one",
      name: "P1",
      projectId: project.data.id,
      conditions: { type: "task" },
    });
    await createTemplate(fresh.app, { slug: "p-two", name: "P2", conditions: { type: "task" } });
    const all = await json<ListBody<Template>>(await fresh.app.request("/api/templates?limit=3", { headers: AUTH }));
    expect(all.total).toBe(7); // the five defaults and these two
    expect(all.data.map(({ slug }) => slug).slice(0, 2)).toEqual(["p-two", "p-one"]);
    const page3 = await json<ListBody<Template>>(
      await fresh.app.request("/api/templates?limit=3&page=3", { headers: AUTH }),
    );
    expect(page3.data).toHaveLength(1);
    const tasks = await json<ListBody<Template>>(
      await fresh.app.request("/api/templates?type=task", { headers: AUTH }),
    );
    expect(tasks.data.map(({ slug }) => slug).sort()).toEqual(["p-one", "p-two", "task-execution"]);
    const scoped = await json<ListBody<Template>>(
      await fresh.app.request(`/api/templates?projectId=${project.data.id}`, { headers: AUTH }),
    );
    expect(scoped.data.map(({ slug }) => slug)).toEqual(["p-one"]);
    expect((await fresh.app.request("/api/templates?type=bug", { headers: AUTH })).status).toBe(400);
  });
});

describe("template versions", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("numbers drafts after the last version and lists them newest first", async () => {
    const template = await createTemplate(t.app, { slug: "versioned", name: "V", content: "v1" });
    for (const content of ["v2", "v3"]) {
      const response = await t.app.request(
        `/api/templates/${template.id}/versions`,
        jsonPost({ content, changelog: `made ${content}`, authorType: "agent", authorName: "claude" }),
      );
      expect(response.status).toBe(201);
      expect(response.headers.get("etag")).toBe('"1"');
      expect((await json<Body<TemplateVersion>>(response)).data).toMatchObject({
        content,
        status: "draft",
        authorType: "agent",
        authorName: "claude",
      });
    }
    const list = await json<ListBody<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions?limit=2`, { headers: AUTH }),
    );
    expect(list.total).toBe(3);
    expect(list.data.map(({ version, status }) => [version, status])).toEqual([
      [3, "draft"],
      [2, "draft"],
    ]);
    const last = await json<ListBody<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions?limit=2&page=2`, { headers: AUTH }),
    );
    expect(last.data.map(({ version }) => version)).toEqual([1]);
    const past = await json<ListBody<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions?page=9`, { headers: AUTH }),
    );
    expect(past).toEqual({ data: [], total: 3 });
  });

  it("refuses a version that does not compile, naming line and column", async () => {
    const template = await createTemplate(t.app, { slug: "strict", name: "S" });
    const response = await t.app.request(
      `/api/templates/${template.id}/versions`,
      jsonPost({ content: "ok\n{{#each issue.labels}}\n{{/if}}" }),
    );
    expect(response.status).toBe(400);
    expect((await json<{ error: string }>(response)).error).toMatch(/line \d+, column \d+/);
    const list = await json<ListBody<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions`, { headers: AUTH }),
    );
    expect(list.total).toBe(0);
  });

  describe.each(CONFLICT_MODES)("under concurrency ($mode)", ({ emulateConflicts }) => {
    it("gives 20 concurrent versions the numbers 2..21, no gap, no repeat, across two instances", async () => {
      const a = await testApp({}, { emulateConflicts });
      const b = anotherInstance(a, emulateConflicts);
      const template = await createTemplate(a.app, { slug: "busy", name: "Busy", content: "v1" });
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: `v ${i}` })),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
      const numbers = await Promise.all(
        responses.map(async (r) => (await json<Body<TemplateVersion>>(r)).data.version),
      );
      expect(numbers.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
      const list = await json<ListBody<TemplateVersion>>(
        await a.app.request(`/api/templates/${template.id}/versions?limit=100`, { headers: AUTH }),
      );
      expect(list.total).toBe(21);
      expect(list.data.map(({ version }) => version)).toEqual(Array.from({ length: 21 }, (_, i) => 21 - i));
    });

    it("leaves exactly one active version after concurrent promotions", async () => {
      const a = await testApp({}, { emulateConflicts });
      const b = anotherInstance(a, emulateConflicts);
      const template = await createTemplate(a.app, { slug: "promoted", name: "P", content: "v1" });
      const drafts: TemplateVersion[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await a.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: `d${i}` }));
        drafts.push((await json<Body<TemplateVersion>>(response)).data);
      }
      const responses = await Promise.all(
        drafts.map((draft, i) =>
          (i % 2 ? a : b).app.request(`/api/templates/${template.id}/versions/${draft.id}/promote`, jsonPost({})),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(6).fill(200));
      const list = await json<ListBody<TemplateVersion>>(
        await a.app.request(`/api/templates/${template.id}/versions?limit=100`, { headers: AUTH }),
      );
      const active = list.data.filter(({ status }) => status === "active");
      expect(active).toHaveLength(1);
      expect(list.data.filter(({ status }) => status === "draft")).toHaveLength(0);
      const detail = await json<Body<TemplateDetail>>(
        await a.app.request(`/api/templates/${template.id}`, { headers: AUTH }),
      );
      expect(detail.data.activeVersionId).toBe(active[0]?.id);
      expect(detail.data.activeVersion?.id).toBe(active[0]?.id);
    });
  });

  it("promotes a draft and retires the active one; a retired one can come back; unknown versions are 404", async () => {
    const template = await createTemplate(t.app, { slug: "rollback", name: "R", content: "v1" });
    const v2 = await json<Body<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "v2" })),
    );
    // It takes no body: one that says anything is refused, and nothing is promoted.
    for (const body of ['{"bogus":true}', "notjson", "[]"]) {
      const refused = await t.app.request(`/api/templates/${template.id}/versions/${v2.data.id}/promote`, {
        method: "POST",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body,
      });
      expect(refused.status, body).toBe(400);
    }
    const unpromoted = await json<Body<TemplateDetail>>(
      await t.app.request(`/api/templates/${template.id}`, { headers: AUTH }),
    );
    expect(unpromoted.data.activeVersionId).toBe(template.activeVersionId);
    const promoted = await t.app.request(`/api/templates/${template.id}/versions/${v2.data.id}/promote`, jsonPost({}));
    expect(promoted.status).toBe(200);
    expect((await json<Body<TemplateDetail>>(promoted)).data.activeVersion).toMatchObject({
      version: 2,
      status: "active",
    });
    const statuses = async () =>
      (
        await json<ListBody<TemplateVersion>>(
          await t.app.request(`/api/templates/${template.id}/versions`, { headers: AUTH }),
        )
      ).data.map(({ version, status }) => [version, status]);
    expect(await statuses()).toEqual([
      [2, "active"],
      [1, "retired"],
    ]);
    const back = await t.app.request(
      `/api/templates/${template.id}/versions/${template.activeVersionId}/promote`,
      jsonPost({}),
    );
    expect(back.status).toBe(200);
    expect(await statuses()).toEqual([
      [2, "retired"],
      [1, "active"],
    ]);
    const other = await createTemplate(t.app, { slug: "other", name: "O", content: "o" });
    for (const versionId of [other.activeVersionId, "ver_01JD0000000000000000000000", "nope"]) {
      const response = await t.app.request(`/api/templates/${template.id}/versions/${versionId}/promote`, jsonPost({}));
      expect(response.status).toBe(404);
    }
  });
});

describe("selection, rendering and preview", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("previews the default template of the issue's type, rendered, without changing anything", async () => {
    const issue = await createIssue(t, { title: "Checkout <fails>", type: "task", priority: 1 });
    const before = await json<ListBody<TemplateVersion>>(
      await t.app.request("/api/templates/task-execution/versions", { headers: AUTH }),
    );
    const response = await t.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH });
    expect(response.status).toBe(200);
    const { data } =
      await json<Body<{ issueId: string; template: Template; version: TemplateVersion; text: string }>>(response);
    expect(data.issueId).toBe(issue.id);
    expect(data.template.slug).toBe("task-execution");
    expect(data.version.status).toBe("active");
    expect(data.text).toContain(`KZN-${issue.number}`);
    expect(data.text).toContain("Checkout <fails>");
    const after = await json<ListBody<TemplateVersion>>(
      await t.app.request("/api/templates/task-execution/versions", { headers: AUTH }),
    );
    expect(after).toEqual(before);
    const prompts = await json<ListBody<unknown>>(await t.app.request("/api/prompts", { headers: AUTH }));
    expect(prompts.total).toBe(0);
    const byRef = await t.app.request(`/api/templates/preview/KZN-${issue.number}`, { headers: AUTH });
    expect((await json<Body<{ issueId: string }>>(byRef)).data.issueId).toBe(issue.id);
  });

  it("prefers a matching, more specific template and a project's own template over both", async () => {
    const label = await t.app.request("/api/labels", jsonPost({ name: "perf", color: "#123456" }));
    expect(label.status).toBe(201);
    const project = await json<Body<{ id: string }>>(await t.app.request("/api/projects", jsonPost({ name: "Shop" })));
    await createTemplate(t.app, {
      slug: "perf-task",
      name: "Perf",
      conditions: { type: "task", labels: ["perf"] },
      specificity: 100,
      content: "PERF {{#each labels}}{{name}}={{color}} {{/each}}",
    });
    await createTemplate(t.app, {
      slug: "shop-task",
      name: "Shop",
      projectId: project.data.id,
      conditions: { type: "task" },
      specificity: 1,
      content: "SHOP {{project.name}}",
    });
    const preview = async (body: Record<string, unknown>) => {
      const issue = await createIssue(t, body);
      return (
        await json<Body<{ template: Template | null; text: string | null }>>(
          await t.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH }),
        )
      ).data;
    };
    const perf = await preview({ title: "slow", type: "task", labels: ["perf"] });
    expect(perf.template?.slug).toBe("perf-task");
    expect(perf.text).toBe("PERF perf=#123456 ");
    expect((await preview({ title: "plain", type: "task" })).template?.slug).toBe("task-execution");
    const shop = await preview({ title: "shop", type: "task", labels: ["perf"], projectId: project.data.id });
    expect(shop.template?.slug).toBe("shop-task");
    expect(shop.text).toBe("SHOP Shop");
    expect((await preview({ title: "plan", type: "plan" })).template?.slug).toBe("plan-decomposition");
  });

  it("stores each version precompiled, never shown by the API; a version stored without it still renders", async () => {
    const template = await createTemplate(t.app, {
      slug: "precompiled",
      name: "P",
      conditions: { type: "monitor" },
      specificity: 0,
      content: "one {{issue.title}}",
    });
    const second = await json<Body<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "two {{issueRef issue}}" })),
    );
    expect(second.data).not.toHaveProperty("compiled");
    for (const number of [1, 2]) {
      expect((await t.db.get(versionKey(template.id, number)))?.compiled).toBeInstanceOf(Uint8Array);
    }
    // As versions written before they were precompiled are stored.
    await t.db.update({
      Key: versionKey(template.id, 2),
      UpdateExpression: "REMOVE #compiled",
      ExpressionAttributeNames: { "#compiled": "compiled" },
    });
    const issue = await createIssue(t, { title: "watch it", type: "monitor" });
    for (const [versionId, text] of [
      [template.activeVersion?.id, "one watch it"],
      [second.data.id, `two KZN-${issue.number}`],
    ]) {
      const response = await t.app.request(`/api/templates/preview/${issue.id}?versionId=${versionId}`, {
        headers: AUTH,
      });
      const { data } = await json<Body<{ version: TemplateVersion; text: string }>>(response);
      expect(data.text).toBe(text);
      expect(data.version).not.toHaveProperty("compiled");
    }
  });

  it("renders a chosen version (a draft too) with versionId, and changes nothing", async () => {
    const template = await createTemplate(t.app, {
      slug: "drafty",
      name: "D",
      conditions: { type: "monitor" },
      specificity: 0,
      content: "active {{issue.title}}",
    });
    const draft = await json<Body<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "draft {{issueRef issue}}" })),
    );
    const issue = await createIssue(t, { title: "watch it", type: "monitor" });
    const response = await t.app.request(`/api/templates/preview/${issue.id}?versionId=${draft.data.id}`, {
      headers: AUTH,
    });
    expect(response.status).toBe(200);
    const { data } = await json<Body<{ template: Template; version: TemplateVersion; text: string }>>(response);
    expect(data.template.id).toBe(template.id);
    expect(data.version).toMatchObject({ id: draft.data.id, status: "draft" });
    expect(data.text).toBe(`draft KZN-${issue.number}`);
    const plain = await json<Body<{ template: Template }>>(
      await t.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH }),
    );
    expect(plain.data.template.slug).toBe("monitor-check");
    const unknown = await t.app.request(`/api/templates/preview/${issue.id}?versionId=ver_01JD0000000000000000000000`, {
      headers: AUTH,
    });
    expect(unknown.status).toBe(404);
    expect((await t.app.request(`/api/templates/preview/${issue.id}?versionId=v1`, { headers: AUTH })).status).toBe(
      400,
    );
    const versions = await json<ListBody<TemplateVersion>>(
      await t.app.request(`/api/templates/${template.id}/versions`, { headers: AUTH }),
    );
    expect(versions.data.map(({ status }) => status)).toEqual(["draft", "active"]);
  });

  it("answers null template and text when nothing matches, and 404 for an unknown issue", async () => {
    const fresh = await testApp();
    const defaults = await json<ListBody<Template>>(await fresh.app.request("/api/templates", { headers: AUTH }));
    const monitor = defaults.data.find(({ slug }) => slug === "monitor-check");
    expect(monitor).toBeDefined();
    await fresh.app.request(`/api/templates/${monitor?.id}`, { method: "DELETE", headers: AUTH });
    const issue = await createIssue(fresh, { title: "watch", type: "monitor" });
    const response = await fresh.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect((await json<Body<unknown>>(response)).data).toEqual({
      issueId: issue.id,
      template: null,
      version: null,
      experiment: null,
      text: null,
    });
    const missing = await fresh.app.request("/api/templates/preview/KZN-9999", { headers: AUTH });
    expect(missing.status).toBe(404);
  });

  it("never renders the service API key, even for a template that dumps its whole context", async () => {
    const fresh = await testApp();
    await createTemplate(fresh.app, {
      slug: "dump",
      name: "Dump",
      conditions: { type: "hypothesis" },
      specificity: 1000,
      content: "{{json this}}{{json @root}}{{#each this}}{{@key}}={{json this}}{{/each}}{{api.baseUrl}}",
    });
    const issue = await createIssue(fresh, {
      title: "h",
      type: "hypothesis",
      hypothesis: { statement: "s", confidence: 0.7, evidence: [], validationCriteria: "v" },
    });
    const { data } = await json<Body<{ text: string }>>(
      await fresh.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH }),
    );
    expect(data.text).toContain(issue.id);
    expect(data.text).toContain("http://localhost:");
    expect(data.text).not.toContain(TEST_API_KEY);
    expect(data.text).not.toContain(TEST_API_KEY.slice("kaizen_".length));
  });
});

describe("default templates", () => {
  it("exist from the first request, one per issue type, each with an active version", async () => {
    const t = await testApp();
    const list = await json<ListBody<Template>>(await t.app.request("/api/templates", { headers: AUTH }));
    expect(list.data.map(({ slug }) => slug).sort()).toEqual([
      "hypothesis-planning",
      "monitor-check",
      "plan-decomposition",
      "signal-triage",
      "task-execution",
    ]);
    expect(list.data.every((template) => template.activeVersionId !== null && template.specificity === 10)).toBe(true);
    expect(list.data.map(({ conditions }) => conditions.type).sort()).toEqual([
      "hypothesis",
      "monitor",
      "plan",
      "signal",
      "task",
    ]);
  });

  it("are seeded once: a second seeding creates nothing and keeps a user's edits and deletions", async () => {
    const t = await testApp();
    const engine = engineOf(t);
    await engine.defaults.ready();
    const task = await json<Body<TemplateDetail>>(
      await t.app.request("/api/templates/task-execution", { headers: AUTH }),
    );
    await t.app.request(`/api/templates/${task.data.id}`, patch({ name: "Our tasks", specificity: 20 }));
    const mine = await json<Body<TemplateVersion>>(
      await t.app.request(`/api/templates/${task.data.id}/versions`, jsonPost({ content: "our words" })),
    );
    await t.app.request(`/api/templates/${task.data.id}/versions/${mine.data.id}/promote`, jsonPost({}));
    await t.app.request("/api/templates/monitor-check", { method: "DELETE", headers: AUTH });
    expect(await engine.defaults.seed()).toEqual([]);
    expect(await engineOf(t).defaults.seed()).toEqual([]);
    const after = await json<Body<TemplateDetail>>(
      await t.app.request("/api/templates/task-execution", { headers: AUTH }),
    );
    expect(after.data).toMatchObject({ name: "Our tasks", specificity: 20 });
    expect(after.data.activeVersion?.content).toBe("our words");
    expect((await t.app.request("/api/templates/monitor-check", { headers: AUTH })).status).toBe(404);
    const list = await json<ListBody<Template>>(await t.app.request("/api/templates", { headers: AUTH }));
    expect(list.total).toBe(4);
  });

  it("are seeded by one instance at a time: one that starts while another seeds waits for its marks", async () => {
    const t = await testApp();
    const store = new TemplateStore(t.db);
    const seeding = new TemplateSeeding(t.db);
    expect(await seeding.reserve("another-instance", Date.now() + 5_000)).toBe(true);
    // Its reads of the marks: the third comes after it found the seeding held twice and waited.
    let reads = 0;
    let readThrice: () => void = () => {};
    const thirdRead = new Promise<void>((resolve) => {
      readThrice = resolve;
    });
    t.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "BatchGetItemCommand" && ++reads === 3) readThrice();
        return next(args);
      },
      { step: "initialize", name: "marksRead" },
    );
    let settled = false;
    const waiting = engineOf(t)
      .defaults.seed()
      .finally(() => {
        settled = true;
      });
    await thirdRead;
    // It neither wrote a default nor gave up while the seeding was held.
    expect(settled).toBe(false);
    expect((await seeding.seeded(DEFAULT_TEMPLATE_SLUGS)).size).toBe(0);
    expect(await store.idOfSlug("task-execution")).toBeUndefined();
    await seeding.release("another-instance");
    expect((await waiting).sort()).toEqual([...DEFAULT_TEMPLATE_SLUGS].sort());
    const after = await json<ListBody<Template>>(await t.app.request("/api/templates", { headers: AUTH }));
    expect(after.total).toBe(5);
  });

  it("are seeded after an instance that held the seeding died, once its time ran out", async () => {
    const t = await testApp();
    const started = Date.now();
    expect(await new TemplateSeeding(t.db).reserve("a-dead-instance", started + 300)).toBe(true);
    expect((await engineOf(t).defaults.seed()).sort()).toEqual([...DEFAULT_TEMPLATE_SLUGS].sort());
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // The hold was given up after seeding: another instance may take it at once.
    expect(await new TemplateSeeding(t.db).reserve("next", Date.now() + 1_000)).toBe(true);
  });

  it("are seeded exactly once when many instances start at once", async () => {
    const t = await testApp();
    const results = await Promise.all(Array.from({ length: 6 }, () => engineOf(t).defaults.seed()));
    expect(results.flat().sort()).toEqual([
      "hypothesis-planning",
      "monitor-check",
      "plan-decomposition",
      "signal-triage",
      "task-execution",
    ]);
    const list = await json<ListBody<Template>>(await t.app.request("/api/templates", { headers: AUTH }));
    expect(list.total).toBe(5);
  });
});
