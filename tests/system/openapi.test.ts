/**
 * `GET /api/openapi.json`, `GET /docs` and its files: served publicly by the service family, from the
 * app and from the built Lambda bundle in a package laid out as SST's `copyFiles` lays it out; and the
 * document held to the app: every route answers as documented, and the app validates each route's
 * query and body with the schemas its declaration (and so the document) names, before its handler runs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../core/src/errors.js";
import { type FamilyModules, familyModule } from "../../core/src/http/app.js";
import { parseWith } from "../../core/src/http/validation.js";
import { createIssueBody, listIssuesQuery } from "../../core/src/issues/schemas.js";
import { DOCS_ASSETS, DOCS_COPY_FILES } from "../../core/src/openapi/docs-page.js";
import { allRoutes, routeKey } from "../../core/src/routes.js";
import type { SchemaDefinition } from "../../core/src/schema.js";
import { createApp } from "../../core/src/services.js";
import { currentOpenApiDocument, OPENAPI_FILE } from "../../scripts/openapi.js";
import { apiGatewayEvent } from "../helpers/apigw.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { testConfig } from "../helpers/db.js";
import { deployedEnv, invoke } from "../helpers/lambda.js";
import { getBytes, servicePackages } from "../helpers/lambda-package.js";
import { declarationOf, walkEveryRoute } from "../helpers/route-walk.js";

const packageFile = (file: string) => createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`);

describe("the service's OpenAPI document and docs page", () => {
  let app: TestApp["app"];
  let db: TestApp["db"];
  beforeAll(async () => {
    ({ app, db } = await testApp());
  });

  it("serves docs/openapi.json at GET /api/openapi.json without authentication", async () => {
    const response = await app.request("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const served = await response.json();
    expect(served).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, "utf8")));
    expect(
      served,
      "the served document differs from what the schemas describe: run `npm run openapi` and commit docs/openapi.json",
    ).toEqual(currentOpenApiDocument());
  });

  it("serves the reference page as HTML that loads only the service's own files", async () => {
    const response = await app.request("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain('src="/docs/assets/swagger-ui-bundle.js"');
    expect(html).toContain('href="/docs/assets/swagger-ui.css"');
    expect(html).toContain('url: "/api/openapi.json"');
    expect(html).toContain("validatorUrl: null");
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^\/docs\/assets\//);
  });

  it("serves each asset byte for byte from swagger-ui-dist with its media type", async () => {
    for (const [file, contentType] of Object.entries(DOCS_ASSETS)) {
      const response = await app.request(`/docs/assets/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toBe(contentType);
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(packageFile(file))), file).toBe(true);
    }
    expect(DOCS_ASSETS["swagger-ui-bundle.js"]).toMatch(/^text\/javascript/);
    expect(DOCS_ASSETS["swagger-ui.css"]).toMatch(/^text\/css/);
  });

  it("answers 404 in the error envelope for any other file, a path outside the package included", async () => {
    for (const file of ["index.html", "package.json", "..%2F..%2Fpackage.json", "constructor", "swagger-ui.js.map"]) {
      const response = await app.request(`/docs/assets/${file}`);
      expect(response.status, file).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toHaveProperty("error");
    }
  });

  it("answers every route's documented status with the documented resource, and nothing more", async () => {
    const answered = await walkEveryRoute(app, db);
    expect([...answered].sort()).toEqual(allRoutes().map(routeKey).sort());
  });
});

/** The 400 body `parseWith` gives for `input` under `schema`: what the app must answer. */
function refusal(schema: SchemaDefinition, input: unknown, where: "query" | "body"): unknown {
  try {
    parseWith(schema(), input, where);
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return error.toJSON();
    throw error;
  }
  throw new Error(`${where} ${JSON.stringify(input)} passed its schema`);
}

describe("request validation from each route's declaration", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  const declared = allRoutes().map((route) => ({ route, declaration: declarationOf(routeKey(route)) }));
  const probe = (path: string) => path.replace(/:(\w+)/g, "probe");

  it("refuses, for every route declaring a query, a parameter its query schema does not know, with that schema's 400", async () => {
    let checked = 0;
    for (const { route, declaration } of declared) {
      if (!declaration.query) continue;
      const response = await t.app.request(`${probe(route.path)}?probeParameter=1`, {
        method: route.method,
        headers: AUTH,
      });
      expect(response.status, routeKey(route)).toBe(400);
      expect(await response.json(), routeKey(route)).toEqual(
        refusal(declaration.query, { probeParameter: "1" }, "query"),
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("refuses, for every route declaring a body, a field its body schema does not know, with that schema's 400", async () => {
    let checked = 0;
    for (const { route, declaration } of declared) {
      if (!declaration.body) continue;
      const response = await t.app.request(probe(route.path), {
        method: route.method,
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ probeField: 1 }),
      });
      expect(response.status, routeKey(route)).toBe(400);
      expect(await response.json(), routeKey(route)).toEqual(refusal(declaration.body, { probeField: 1 }, "body"));
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });

  it("hands the handler the parsed query and body, and never runs it on input its declaration refuses", async () => {
    const seen: unknown[] = [];
    const probeFamily = familyModule(
      {
        "GET /api/issues": { auth: "bearer", query: listIssuesQuery },
        "POST /api/issues": { auth: "bearer", body: createIssueBody },
      },
      () => ({
        "GET /api/issues": (c, { query }) => {
          seen.push(query);
          return c.json({ page: query.page, limit: query.limit });
        },
        "POST /api/issues": (c, { body }) => {
          seen.push(body);
          return c.json({ title: body.title });
        },
      }),
    );
    // Two routes of the issues family only: the app mounts what the family declares.
    const families = { issues: probeFamily } as unknown as FamilyModules;
    const app = createApp(families, { config: testConfig({ tableName: t.tableName, endpoint: t.endpoint }), db: t.db });
    const listed = await app.request("/api/issues?limit=5", { headers: AUTH });
    expect(await listed.json()).toEqual({ page: 1, limit: 5 });
    const body = { title: "Parsed", type: "task", labels: ["a"] };
    const created = await app.request("/api/issues", jsonPost(body));
    expect(await created.json()).toEqual({ title: "Parsed" });
    expect(seen).toEqual([
      parseWith(listIssuesQuery(), { limit: "5" }, "query"),
      parseWith(createIssueBody(), body, "body"),
    ]);

    const refusedQuery = await app.request("/api/issues?limit=0", { headers: AUTH });
    expect(await refusedQuery.json()).toEqual(refusal(listIssuesQuery, { limit: "0" }, "query"));
    const refusedBody = await app.request("/api/issues", jsonPost({ title: "", type: "task" }));
    expect(await refusedBody.json()).toEqual(refusal(createIssueBody, { title: "", type: "task" }, "body"));
    expect(seen).toHaveLength(2);
  });
});

/**
 * The built service bundle in a folder laid out as a Lambda package (`functions/service.mjs` plus
 * what `copyFiles` adds), away from the repository's node_modules.
 */
describe("the service bundle in a Lambda package", () => {
  const packages = servicePackages();
  let env: Record<string, string>;
  beforeAll(async () => {
    ({ env } = await deployedEnv());
  });
  afterAll(() => packages.remove());

  it("serves the document, the page and every asset from the files copyFiles adds", async () => {
    const handler = await packages.handler(DOCS_COPY_FILES, env);
    const document = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/api/openapi.json" }));
    expect(document.statusCode).toBe(200);
    expect(document.json).toEqual(currentOpenApiDocument());
    const page = await getBytes(handler, "/docs");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const [file, contentType] of Object.entries(DOCS_ASSETS)) {
      const asset = await getBytes(handler, `/docs/assets/${file}`);
      expect(asset.statusCode, file).toBe(200);
      expect(asset.headers["content-type"], file).toBe(contentType);
      expect(asset.body.equals(readFileSync(packageFile(file))), file).toBe(true);
    }
  });

  it("cannot serve the assets without them, so the bundle does not carry them", async () => {
    const handler = await packages.handler([], env);
    const asset = await getBytes(handler, "/docs/assets/swagger-ui-bundle.js");
    expect(asset.statusCode).toBe(500);
    const document = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/api/openapi.json" }));
    expect(document.statusCode).toBe(200);
  });
});
