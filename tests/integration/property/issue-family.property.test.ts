/**
 * Bad input never breaks the issue domain: random JSON bodies, query strings and ids on every
 * route of the issues and catalog families get a 2xx or 4xx with the JSON envelope, never a 5xx.
 */
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { ROUTE_TABLE } from "../../../core/src/routes.js";
import { jsonPost, type TestApp, testApp } from "../../helpers/app.js";
import { expectEnvelopeAnswer, queryString } from "../../helpers/property.js";

const RUNS = 80;
const QUERY_NAMES = [
  "page",
  "limit",
  "status",
  "type",
  "priority",
  "projectId",
  "parentId",
  "label",
  "fingerprint",
  "q",
  "sort",
  "since",
];
const BODY_FIELDS = [
  "title",
  "type",
  "status",
  "priority",
  "description",
  "parentId",
  "projectId",
  "labels",
  "hypothesis",
  "commits",
  "pullRequests",
  "relatedIssueId",
  "body",
  "authorName",
  "authorType",
  "name",
  "color",
  "health",
  "goalId",
  "targetValue",
];

const routes = [...ROUTE_TABLE.issues, ...ROUTE_TABLE.catalog];

/** Values of the kinds clients get wrong: wrong types, edge numbers, odd strings, nesting. */
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom("", " ", "KZN-1", "KZN-0", "todo", "task", "in_progress", "#zzzzzz", "💥", "a".repeat(600)),
  fc.constantFrom(-1, 0, 1, 4, 5, 1.5, 1e308, Number.MAX_SAFE_INTEGER),
);
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...BODY_FIELDS), anyValue, { maxKeys: 6 }),
  fc.jsonValue(),
  fc.constantFrom("{", "[", "null", '{"title":', "\u0000"),
);
const query = queryString(QUERY_NAMES, 4);
const idSegment = fc.oneof(
  fc.constantFrom(
    "KZN-1",
    "KZN-99999",
    "iss_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "%20",
    "..",
    "lbl_x",
  ),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
);

describe("the issue domain under random input", () => {
  let t: TestApp;
  let existing: string;
  beforeAll(async () => {
    t = await testApp();
    const response = await t.app.request("/api/issues", jsonPost({ title: "Target", type: "task" }));
    existing = ((await response.json()) as { data: { id: string } }).data.id;
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s answers 2xx/4xx with the JSON envelope",
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(idSegment, fc.boolean(), query, body, async (id, useExisting, search, payload) => {
          const path = route.path.replace(":id", useExisting && route.path.startsWith("/api/issues/") ? existing : id);
          await expectEnvelopeAnswer(t.app, route.method, path, search, payload);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
