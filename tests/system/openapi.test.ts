/**
 * `GET /api/openapi.json`, `GET /docs` and its files: served publicly by the service family, from the
 * app and from the built Lambda bundle in a package laid out as SST's `copyFiles` lays it out; and the
 * document held to the app: every route answers as documented and validates with the documented schemas.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DOCS_ASSETS, DOCS_COPY_FILES } from "../../core/src/openapi/docs-page.js";
import { type AnyRouteKey, OPERATIONS } from "../../core/src/openapi/operations.js";
import { allRoutes, routeKey } from "../../core/src/routes.js";
import { currentOpenApiDocument, OPENAPI_FILE } from "../../scripts/openapi.js";
import { apiGatewayEvent } from "../helpers/apigw.js";
import { AUTH, type TestApp, testApp } from "../helpers/app.js";
import { deployedEnv, invoke } from "../helpers/lambda.js";
import { getBytes, servicePackages } from "../helpers/lambda-package.js";
import { walkEveryRoute } from "../helpers/route-walk.js";

/** Every `parseWith` call the handlers make: the schema, and whether it read the query or the body. */
const parsed = vi.hoisted(() => [] as { schema: unknown; where: "body" | "query" }[]);
vi.mock(import("../../core/src/http/validation.js"), async (importOriginal) => {
  const actual = await importOriginal();
  return {
    ...actual,
    parseWith: ((schema, input, where) => {
      parsed.push({ schema, where });
      return actual.parseWith(schema, input, where);
    }) as typeof actual.parseWith,
  };
});

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

describe("each route's request schemas", () => {
  let app: TestApp["app"];
  beforeAll(async () => {
    ({ app } = await testApp());
  });

  // Each request carries a query parameter and a body field that no schema knows, so the handler stops
  // at its first `parseWith` (no route takes both a query and a body; one that did would need two requests).
  it("are the ones the document describes: each handler validates with its operation's query and body schema", async () => {
    for (const route of allRoutes()) {
      const key = routeKey(route) as AnyRouteKey;
      const operation = OPERATIONS[key];
      parsed.length = 0;
      const sendsBody = route.method !== "GET";
      await app.request(`${route.path.replace(/:(\w+)/g, "probe")}?probeParameter=1`, {
        method: route.method,
        headers: { ...AUTH, "Content-Type": "application/json" },
        ...(sendsBody ? { body: JSON.stringify({ probeField: 1 }) } : {}),
      });
      const named = (where: "query" | "body") =>
        parsed
          .filter((call) => call.where === where)
          .map((call) =>
            call.schema === operation[where] ? `the document's ${where} schema` : `another ${where} schema`,
          );
      expect(named("query"), `${key}: the query schemas its handler parsed with`).toEqual(
        operation.query ? ["the document's query schema"] : [],
      );
      expect(named("body"), `${key}: the body schemas its handler parsed with`).toEqual(
        operation.body ? ["the document's body schema"] : [],
      );
    }
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
