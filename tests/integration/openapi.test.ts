/**
 * `GET /api/openapi.json`, `GET /docs` and its files: served publicly by the service family, from the
 * app and from the built Lambda bundle in a package laid out as SST's `copyFiles` lays it out.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as z from "zod/mini";
import { DOCS_ASSETS, DOCS_COPY_FILES } from "../../core/src/openapi/docs-page.js";
import { RESOURCE_SCHEMAS } from "../../core/src/openapi/resources.js";
import { currentOpenApiDocument, OPENAPI_FILE } from "../../scripts/openapi.js";
import { apiGatewayEvent } from "../helpers/apigw.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { freshTable, TEST_API_KEY } from "../helpers/db.js";
import { type Handler, invoke } from "../helpers/lambda.js";

const ROOT = join(import.meta.dirname, "..", "..");
const packageFile = (file: string) => createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`);

describe("the service's OpenAPI document and docs page", () => {
  let app: TestApp["app"];
  beforeAll(async () => {
    ({ app } = await testApp());
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

  it("answers with resources the document's response schemas describe", async () => {
    const created = await app.request("/api/issues", jsonPost({ title: "Described", type: "task", labels: [] }));
    const issue = ((await created.json()) as { data: { id: string } }).data;
    expect(z.safeParse(RESOURCE_SCHEMAS.Issue, issue).error).toBeUndefined();
    const detail = await (await app.request(`/api/issues/${issue.id}`, { headers: AUTH })).json();
    expect(z.safeParse(RESOURCE_SCHEMAS.IssueDetail, (detail as { data: unknown }).data).error).toBeUndefined();
    const label = await (await app.request("/api/labels", jsonPost({ name: "docs", color: "#AABBCC" }))).json();
    expect(z.safeParse(RESOURCE_SCHEMAS.Label, (label as { data: unknown }).data).error).toBeUndefined();
    const templates = (await (await app.request("/api/templates?limit=5", { headers: AUTH })).json()) as {
      data: unknown[];
    };
    expect(templates.data.length).toBeGreaterThan(0);
    for (const template of templates.data) {
      expect(z.safeParse(RESOURCE_SCHEMAS.Template, template).error).toBeUndefined();
    }
    const root = await (await app.request("/")).json();
    expect(z.safeParse(RESOURCE_SCHEMAS.ServiceInfo, (root as { data: unknown }).data).error).toBeUndefined();
    const health = await (await app.request("/health")).json();
    expect(z.safeParse(RESOURCE_SCHEMAS.Health, health).error).toBeUndefined();
  });
});

/**
 * The built service bundle in a folder laid out as a Lambda package (`functions/service.mjs` plus
 * what `copyFiles` adds), away from the repository's node_modules.
 */
describe("the service bundle in a Lambda package", () => {
  const temps: string[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    const { tableName, endpoint } = await freshTable();
    env = {
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: endpoint,
      SERVICE_API_KEY: TEST_API_KEY,
      AWS_REGION: "us-east-1",
    };
  });
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  async function packagedHandler(copyFiles: readonly { from: string; to: string }[]): Promise<Handler> {
    const root = mkdtempSync(join(tmpdir(), "kaizen-lambda-package-"));
    temps.push(root);
    mkdirSync(join(root, "functions"));
    const bundle = inject("bundles").service ?? "";
    copyFileSync(bundle, join(root, "functions", "service.mjs"));
    copyFileSync(`${bundle}.map`, join(root, "functions", "service.mjs.map"));
    for (const { from, to } of copyFiles) {
      mkdirSync(dirname(join(root, to)), { recursive: true });
      copyFileSync(join(ROOT, from), join(root, to));
    }
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const url = pathToFileURL(join(root, "functions", "service.mjs")).href;
      return ((await import(/* @vite-ignore */ url)) as { handler: Handler }).handler;
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  }

  /** A GET through the handler, its body as bytes whatever the media type. */
  async function call(handler: Handler, path: string) {
    const result = (await handler(apiGatewayEvent({ method: "GET", path }), {} as Context)) as {
      statusCode: number;
      headers: Record<string, string>;
      body: string;
      isBase64Encoded: boolean;
    };
    return { ...result, body: Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8") };
  }

  it("serves the document, the page and every asset from the files copyFiles adds", async () => {
    const handler = await packagedHandler(DOCS_COPY_FILES);
    const document = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/api/openapi.json" }));
    expect(document.statusCode).toBe(200);
    expect(document.json).toEqual(currentOpenApiDocument());
    const page = await call(handler, "/docs");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const [file, contentType] of Object.entries(DOCS_ASSETS)) {
      const asset = await call(handler, `/docs/assets/${file}`);
      expect(asset.statusCode, file).toBe(200);
      expect(asset.headers["content-type"], file).toBe(contentType);
      expect(asset.body.equals(readFileSync(packageFile(file))), file).toBe(true);
    }
  });

  it("cannot serve the assets without them, so the bundle does not carry them", async () => {
    const handler = await packagedHandler([]);
    const asset = await call(handler, "/docs/assets/swagger-ui-bundle.js");
    expect(asset.statusCode).toBe(500);
    const document = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/api/openapi.json" }));
    expect(document.statusCode).toBe(200);
  });
});
