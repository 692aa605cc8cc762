/**
 * Bad input never breaks templates and prompts: random bodies (template content made of Handlebars
 * fragments included), query strings and ids on every route of the templates and prompts families
 * get a 2xx or 4xx with the JSON envelope, never a 5xx.
 */
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { ROUTE_TABLE } from "../../../core/src/routes.js";
import { jsonPost, type TestApp, testApp } from "../../helpers/app.js";
import { expectEnvelopeAnswer, queryString } from "../../helpers/property.js";
import { createTemplate, engineOf, recordPrompt } from "../../helpers/templates.js";

const RUNS = 60;
const QUERY_NAMES = ["page", "limit", "type", "projectId", "templateId", "versionId", "issueId"];
const BODY_FIELDS = [
  "slug",
  "name",
  "description",
  "conditions",
  "specificity",
  "projectId",
  "content",
  "changelog",
  "authorType",
  "authorName",
  "clarity",
  "completeness",
  "relevance",
  "feedback",
];
const FRAGMENTS = [
  "{{",
  "}}",
  "{{#if issue}}",
  "{{/if}}",
  "{{#each signals}}",
  "{{/each}}",
  "{{else}}",
  "{{json payload}}",
  "{{issueRef issue}}",
  "{{priorityLabel}}",
  "{{> partial}}",
  "{{!-- c",
  "--}}",
  "{{{raw}}}",
  "{{lookup a}}",
  "{{@root.api.baseUrl}}",
  "{{../issue}}",
  "{{#with}}",
  "{{*dec}}",
  "\\{{x}}",
  "\n",
  "💥",
  "text ",
];

const content = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }).map((parts) => parts.join(""));
const anyValue = fc.oneof(
  fc.jsonValue(),
  content,
  fc.constantFrom("", "ok-slug", "task", "agent", "human", "a".repeat(300)),
  fc.constantFrom(-1, 0, 1, 3, 5, 6, 2.5, 1001, 1e308),
  fc.dictionary(
    fc.constantFrom("type", "labels", "projectId", "hasFailedDispatches", "minHypothesisConfidence", "other"),
    fc.jsonValue(),
    { maxKeys: 3 },
  ),
);
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...BODY_FIELDS), anyValue, { maxKeys: 7 }),
  fc.record({ slug: fc.constantFrom("fuzz-a", "fuzz-b"), name: fc.constant("Fuzz"), content }),
  fc.record({ content }),
  fc.jsonValue(),
  fc.constantFrom("{", "[", "null", '{"content":', "\u0000"),
);
const query = queryString(QUERY_NAMES, 3);
const idSegment = fc.oneof(
  fc.constantFrom(
    "task-execution",
    "tpl_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "ver_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "prm_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "KZN-1",
    "KZN-99999",
    "%20",
    "..",
  ),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
);

describe("templates and prompts under random input", () => {
  let t: TestApp;
  let real: Record<string, string>;
  beforeAll(async () => {
    t = await testApp();
    const template = await createTemplate(t.app, { slug: "target", name: "Target", content: "{{issue.title}}" });
    const issue = await t.app.request("/api/issues", jsonPost({ title: "Target", type: "task" }));
    const issueId = ((await issue.json()) as { data: { id: string } }).data.id;
    const prompt = await recordPrompt(engineOf(t), issueId, t);
    real = { id: template.id, versionId: String(template.activeVersionId), issueId, promptId: prompt.id };
  });

  const routes = [...ROUTE_TABLE.templates, ...ROUTE_TABLE.prompts];
  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s answers 2xx/4xx with the JSON envelope",
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(idSegment, fc.boolean(), query, body, async (id, useReal, search, payload) => {
          const own = route.path.startsWith("/api/prompts/") ? real.promptId : real.id;
          const path = route.path
            .replace(":id", useReal ? String(own) : id)
            .replace(":versionId", useReal ? String(real.versionId) : id)
            .replace(":issueId", useReal ? String(real.issueId) : id);
          await expectEnvelopeAnswer(t.app, route.method, path, search, payload);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
