import { beforeAll, describe, expect, it } from "vitest";
import type { ClaimResult } from "../../core/src/dispatch/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import type { TemplatePartial } from "../../core/src/templates/partial-schemas.js";
import type { TemplateDetail, TemplatePreview, TemplateVersion } from "../../core/src/templates/schemas.js";
import { TemplateSeeding } from "../../core/src/templates/template-seeding.js";
import { AUTH, anotherInstance, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { createTemplate } from "../helpers/templates.js";

type ListBody<T> = { data: T[]; total: number };

const send = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { ...AUTH, "Content-Type": "application/json", ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

async function errorOf(response: Response | Promise<Response>, status: number): Promise<string> {
  const answered = await response;
  const text = await answered.text();
  expect(answered.status, text).toBe(status);
  return (JSON.parse(text) as { error: string }).error;
}

async function createPartial(app: Pick<TestApp, "app">["app"], body: Record<string, unknown>) {
  return dataOf<TemplatePartial>(app.request("/api/partials", jsonPost(body)), 201);
}

async function addVersion(app: Pick<TestApp, "app">["app"], templateId: string, content: string) {
  return dataOf<TemplateVersion>(app.request(`/api/templates/${templateId}/versions`, jsonPost({ content })), 201);
}

async function promote(app: Pick<TestApp, "app">["app"], templateId: string, versionId: string) {
  return dataOf<TemplateDetail>(
    app.request(`/api/templates/${templateId}/versions/${versionId}/promote`, jsonPost({})),
  );
}

describe("partials", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("creates, reads, lists by name, updates under If-Match and deletes a partial", async () => {
    const response = await t.app.request(
      "/api/partials",
      jsonPost({ name: "zz-footer", content: "Thanks, {{issue.title}}.", description: "A footer" }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("location")).toBe("/api/partials/zz-footer");
    expect(response.headers.get("etag")).toBe('"1"');
    const created = ((await response.json()) as { data: TemplatePartial }).data;
    expect(created).toEqual({
      name: "zz-footer",
      content: "Thanks, {{issue.title}}.",
      description: "A footer",
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: created.createdAt,
    });
    await createPartial(t.app, { name: "aa_header", content: "Header" });
    const got = await t.app.request("/api/partials/zz-footer", { headers: AUTH });
    expect(got.headers.get("etag")).toBe('"1"');
    const list = (await (
      await t.app.request("/api/partials?limit=100", { headers: AUTH })
    ).json()) as ListBody<TemplatePartial>;
    const names = list.data.map(({ name }) => name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["aa_header", "kaizen-reporting", "zz-footer"]));
    expect(list.total).toBe(names.length);
    const firstPage = (await (
      await t.app.request("/api/partials?limit=1&page=2", { headers: AUTH })
    ).json()) as ListBody<TemplatePartial>;
    expect(firstPage.data.map(({ name }) => name)).toEqual([names[1]]);

    expect(
      await errorOf(
        t.app.request("/api/partials/zz-footer", send("PATCH", { content: "x" }, { "If-Match": '"7"' })),
        412,
      ),
    ).toBeTruthy();
    const patched = await t.app.request(
      "/api/partials/zz-footer",
      send("PATCH", { content: "Bye" }, { "If-Match": '"1"' }),
    );
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).toBe('"2"');
    expect(((await patched.json()) as { data: TemplatePartial }).data).toMatchObject({
      content: "Bye",
      description: "A footer",
    });
    expect(
      (await t.app.request("/api/partials/zz-footer", send("DELETE", undefined, { "If-Match": '"1"' }))).status,
    ).toBe(412);
    expect((await t.app.request("/api/partials/zz-footer", send("DELETE"))).status).toBe(204);
    expect(await errorOf(t.app.request("/api/partials/zz-footer", { headers: AUTH }), 404)).toBe(
      "Partial zz-footer not found",
    );
  });

  it("answers a POST sent again with the same Idempotency-Key as the first time", async () => {
    const body = { name: "once-only", content: "Once" };
    const first = await t.app.request("/api/partials", jsonPost(body, { "Idempotency-Key": "partial-once" }));
    const again = await t.app.request("/api/partials", jsonPost(body, { "Idempotency-Key": "partial-once" }));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(await again.json()).toEqual(await first.json());
    const other = await t.app.request(
      "/api/partials",
      jsonPost({ ...body, content: "Twice" }, { "Idempotency-Key": "partial-once" }),
    );
    expect(other.status).toBe(409);
  });

  it("refuses a taken name (409), bad fields, content that does not compile, and a rename (400)", async () => {
    await createPartial(t.app, { name: "taken", content: "x" });
    expect(await errorOf(t.app.request("/api/partials", jsonPost({ name: "taken", content: "y" })), 409)).toBe(
      'Partial "taken" already exists',
    );
    for (const name of ["Bad Name", "__proto__", "x".repeat(65), ""]) {
      expect(await errorOf(t.app.request("/api/partials", jsonPost({ name, content: "y" })), 400)).toBe(
        "name: must be 1..64 of a-z, 0-9, _ and - (and not __proto__)",
      );
    }
    expect(await errorOf(t.app.request("/api/partials", jsonPost({ name: "empty", content: "" })), 400)).toBe(
      "content: must not be empty",
    );
    expect(
      await errorOf(t.app.request("/api/partials", jsonPost({ name: "broken", content: "one\ntwo {{#if x}}" })), 400),
    ).toBe("content: syntax error at line 2, column 5: {{#if}} is not closed by {{/if}}");
    expect(await errorOf(t.app.request("/api/partials/taken", send("PATCH", { name: "renamed" })), 400)).toContain(
      "unknown field: name",
    );
    expect(await errorOf(t.app.request("/api/partials/taken", send("PATCH", { content: "{{/each}}" })), 400)).toMatch(
      /^content: syntax error at line 1, column 1: /,
    );
    expect((await t.app.request("/api/partials/broken", { headers: AUTH })).status).toBe(404);
  });

  it("refuses content naming a partial that does not exist, and a cycle, naming them", async () => {
    expect(
      await errorOf(
        t.app.request(
          "/api/partials",
          jsonPost({ name: "outer", content: "a\n  {{> missing-one}}{{#> missing-two}}x{{/missing-two}}" }),
        ),
        400,
      ),
    ).toBe(
      'content: partial "missing-one" does not exist (line 2, column 3); partial "missing-two" does not exist (line 2, column 20)',
    );
    await createPartial(t.app, { name: "cy-a", content: "A" });
    await createPartial(t.app, { name: "cy-b", content: "B {{> cy-a}}" });
    await createPartial(t.app, { name: "cy-c", content: "C {{> cy-b}}" });
    expect(await errorOf(t.app.request("/api/partials/cy-a", send("PATCH", { content: "{{> cy-c}}" })), 400)).toBe(
      'content: partial "cy-a" would include itself: cy-a → cy-c → cy-b → cy-a',
    );
    expect(await errorOf(t.app.request("/api/partials/cy-a", send("PATCH", { content: "{{> cy-a}}" })), 400)).toBe(
      'content: partial "cy-a" would include itself: cy-a → cy-a',
    );
    expect(
      await errorOf(
        t.app.request("/api/partials", jsonPost({ name: "dyn", content: "{{> (lookup issue 'title')}}" })),
        400,
      ),
    ).toBe("content: syntax error at line 1, column 1: partial names computed at render time are not available");
    // A partial another includes is held by it.
    expect(await errorOf(t.app.request("/api/partials/cy-a", send("DELETE")), 409)).toBe(
      'Partial "cy-a" is included by partial "cy-b"; retire those versions or change those partials first',
    );
    await t.app.request("/api/partials/cy-b", send("PATCH", { content: "B alone" }));
    expect((await t.app.request("/api/partials/cy-a", send("DELETE"))).status).toBe(204);
  });

  it("refuses a version naming a partial that does not exist (400), on create and on a new version", async () => {
    expect(
      await errorOf(
        t.app.request("/api/templates", jsonPost({ slug: "no-such", name: "N", content: "Hi\n{{> nowhere}}" })),
        400,
      ),
    ).toBe('content: partial "nowhere" does not exist (line 2, column 1)');
    expect((await t.app.request("/api/templates/no-such", { headers: AUTH })).status).toBe(404);
    const template = await createTemplate(t.app, { slug: "has-none", name: "H", content: "v1" });
    expect(
      await errorOf(
        t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "{{> nowhere}}" })),
        400,
      ),
    ).toBe('content: partial "nowhere" does not exist (line 1, column 1)');
  });

  it("refuses to delete a partial an active or draft version includes (409 naming them), not one only retired versions include", async () => {
    await createPartial(t.app, { name: "held", content: "held text" });
    const template = await createTemplate(t.app, { slug: "holder", name: "Holder", content: "v1 {{> held}}" });
    const v1 = template.activeVersion as TemplateVersion;
    const v2 = await addVersion(t.app, template.id, "v2 {{> held}}");
    expect(await errorOf(t.app.request("/api/partials/held", send("DELETE")), 409)).toBe(
      `Partial "held" is included by active version 1 of template holder (${v1.id}), draft version 2 of template holder (${v2.id}); retire those versions or change those partials first`,
    );
    const v3 = await addVersion(t.app, template.id, "v3 without it");
    await promote(t.app, template.id, v2.id);
    expect(await errorOf(t.app.request("/api/partials/held", send("DELETE")), 409)).toBe(
      `Partial "held" is included by active version 2 of template holder (${v2.id}); retire those versions or change those partials first`,
    );
    await promote(t.app, template.id, v3.id);
    expect((await t.app.request("/api/partials/held", send("DELETE"))).status).toBe(204);
    // The retired version that included it cannot come back while it is gone.
    expect(
      await errorOf(t.app.request(`/api/templates/${template.id}/versions/${v2.id}/promote`, jsonPost({})), 409),
    ).toBe(
      'Version 2 of template holder includes partial "held", which no longer exists; create it again before promoting',
    );
    await createPartial(t.app, { name: "held", content: "held again" });
    await promote(t.app, template.id, v2.id);
    expect(await errorOf(t.app.request("/api/partials/held", send("DELETE")), 409)).toContain("active version 2");
  });

  it("renders the partial's content as it is at claim and preview; the stored prompt keeps what was rendered", async () => {
    await createPartial(t.app, { name: "signoff", content: "Sign-off: {{issueRef issue}} v1" });
    await createPartial(t.app, { name: "wrapper", content: "[{{> signoff}}]" });
    await createTemplate(t.app, {
      slug: "with-partials",
      name: "W",
      conditions: { type: "task" },
      specificity: 500,
      content: "Do {{issue.title}}: {{> wrapper}}\n{{#> signoff}}fallback{{/signoff}}",
    });
    const issue = await dataOf<{ id: string; number: number }>(
      t.app.request("/api/issues", jsonPost({ title: "Render me", type: "task", status: "todo" })),
      201,
    );
    const preview = await dataOf<TemplatePreview>(
      t.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH }),
    );
    const v1 = `Sign-off: KZN-${issue.number} v1`;
    expect(preview.text).toBe(`Do Render me: [${v1}]\n${v1}`);
    await t.app.request("/api/partials/signoff", send("PATCH", { content: "Sign-off: {{issueRef issue}} v2" }));
    const v2 = `Sign-off: KZN-${issue.number} v2`;
    const again = await dataOf<TemplatePreview>(t.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH }));
    expect(again.text).toBe(`Do Render me: [${v2}]\n${v2}`);
    const claim = await dataOf<ClaimResult>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "renderer", types: ["task"] })),
      201,
    );
    expect(claim.issue.id).toBe(issue.id);
    expect(claim.prompt?.text).toBe(`Do Render me: [${v2}]\n${v2}`);
    await t.app.request("/api/partials/signoff", send("PATCH", { content: "Sign-off v3" }));
    const stored = await dataOf<Prompt>(t.app.request(`/api/prompts/${claim.prompt?.id}`, { headers: AUTH }));
    expect(stored.text).toBe(`Do Render me: [${v2}]\n${v2}`);
    const later = await dataOf<TemplatePreview>(t.app.request(`/api/templates/preview/${issue.id}`, { headers: AUTH }));
    expect(later.text).toBe("Do Render me: [Sign-off v3]\nSign-off v3");
  });

  it("seeds the reporting partial that every default template includes", async () => {
    const reporting = await dataOf<TemplatePartial>(t.app.request("/api/partials/kaizen-reporting", { headers: AUTH }));
    expect(reporting.content).toMatch(/^## Reporting back\n/);
    const templates = (await (await t.app.request("/api/templates?limit=100", { headers: AUTH })).json()) as ListBody<{
      id: string;
      slug: string;
    }>;
    for (const slug of [
      "signal-triage",
      "hypothesis-planning",
      "plan-decomposition",
      "task-execution",
      "monitor-check",
    ]) {
      const detail = await dataOf<TemplateDetail>(t.app.request(`/api/templates/${slug}`, { headers: AUTH }));
      expect(detail.activeVersion?.content, slug).toContain("\n\n{{> kaizen-reporting}}\n");
      expect(templates.data.some((template) => template.slug === slug)).toBe(true);
    }
    const holders = await errorOf(t.app.request("/api/partials/kaizen-reporting", send("DELETE")), 409);
    expect(holders).toContain("active version 1 of template signal-triage");
    expect(holders).toContain("active version 1 of template monitor-check");
  });

  it("seeds a default with the reporting text in place when the partial was deleted before it could be seeded", async () => {
    const fresh = await testApp();
    // The partial was seeded, and deleted, by an earlier start that never got to the templates.
    await fresh.db.transactWrite([new TemplateSeeding(fresh.db).markPartial("kaizen-reporting")]);
    const detail = await dataOf<TemplateDetail>(fresh.app.request("/api/templates/task-execution", { headers: AUTH }));
    expect(detail.activeVersion?.content).toContain("\n\n## Reporting back\n\n{{#if dispatch}}");
    expect(detail.activeVersion?.content).not.toContain("{{> ");
    expect((await fresh.app.request("/api/partials/kaizen-reporting", { headers: AUTH })).status).toBe(404);
  });

  describe.each(CONFLICT_MODES)("under concurrency ($mode)", ({ emulateConflicts }) => {
    it("seeds the default partial exactly once when many instances start at once", async () => {
      const a = await testApp({}, { emulateConflicts });
      const instances = [a, ...Array.from({ length: 5 }, () => anotherInstance(a, emulateConflicts))];
      // Every route of the family waits for the defaults: these first requests all start a seeding.
      const answers = await Promise.all(instances.map(({ app }) => app.request("/api/partials", { headers: AUTH })));
      expect(answers.map(({ status }) => status)).toEqual(Array(instances.length).fill(200));
      const list = (await (
        await a.app.request("/api/partials", { headers: AUTH })
      ).json()) as ListBody<TemplatePartial>;
      expect(list.data.map(({ name }) => name)).toEqual(["kaizen-reporting"]);
      expect(list.total).toBe(1);
      const holders = await errorOf(a.app.request("/api/partials/kaizen-reporting", send("DELETE")), 409);
      expect(holders.match(/active version 1 of template/g)).toHaveLength(5);
    });

    it("never lets two writes close a cycle between partials: one of them is a 400 naming it", async () => {
      const a = await testApp({}, { emulateConflicts });
      const b = anotherInstance(a, emulateConflicts);
      for (let round = 0; round < 5; round++) {
        const [left, right] = [`left-${round}`, `right-${round}`];
        await createPartial(a.app, { name: left, content: "L" });
        await createPartial(a.app, { name: right, content: "R" });
        const answers = await Promise.all([
          a.app.request(`/api/partials/${left}`, send("PATCH", { content: `L {{> ${right}}}` })),
          b.app.request(`/api/partials/${right}`, send("PATCH", { content: `R {{> ${left}}}` })),
        ]);
        const statuses = answers.map(({ status }) => status).sort();
        expect(statuses, `round ${round}`).toEqual([200, 400]);
        const refused = answers.find(({ status }) => status === 400);
        if (!refused) throw new Error(`round ${round}: no write was refused`);
        expect(((await refused.json()) as { error: string }).error).toMatch(/would include itself: /);
      }
    });

    it("never lets a version that includes a partial and the partial's delete both succeed", async () => {
      const a = await testApp({}, { emulateConflicts });
      const b = anotherInstance(a, emulateConflicts);
      const template = await createTemplate(a.app, { slug: "racing", name: "R", content: "v1" });
      for (let round = 0; round < 8; round++) {
        const name = `race-${round}`;
        await createPartial(a.app, { name, content: `partial ${round}` });
        const [created, deleted] = await Promise.all([
          (round % 2 ? a : b).app.request(
            `/api/templates/${template.id}/versions`,
            jsonPost({ content: `{{> ${name}}}` }),
          ),
          (round % 2 ? b : a).app.request(`/api/partials/${name}`, send("DELETE")),
        ]);
        const statuses = [created.status, deleted.status];
        expect(statuses, `round ${round}: ${await created.clone().text()} ${await deleted.clone().text()}`).not.toEqual(
          [201, 204],
        );
        expect([
          [201, 409],
          [400, 204],
        ]).toContainEqual(statuses);
        const exists = (await a.app.request(`/api/partials/${name}`, { headers: AUTH })).status === 200;
        expect(exists).toBe(created.status === 201);
      }
    });
  });
});
