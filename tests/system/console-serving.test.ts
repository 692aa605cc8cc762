/**
 * How the service serves the web console (docs/api.md#console): every page URL answers with the built shell
 * under a strict Content-Security-Policy; the hashed script and stylesheet are cached for good; any
 * other name under `/app/assets/` is the API's 404; and the service function's Lambda package serves
 * it all from the folder `copyFiles` adds, which its bundle does not carry.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_BUILD_DIR } from "../../console/build.js";
import { CONSOLE_COPY_FILES, CONSOLE_CSP } from "../../core/src/console/assets.js";
import { DOCS_COPY_FILES } from "../../core/src/openapi/docs-page.js";
import { ROUTE_TABLE } from "../../core/src/routes.js";
import { type TestApp, testApp } from "../helpers/app.js";
import { deployedEnv } from "../helpers/lambda.js";
import { getBytes, servicePackages } from "../helpers/lambda-package.js";

const PAGES = ROUTE_TABLE.service
  .map((route) => route.path as string)
  .filter((path) => path.startsWith("/app") && !path.startsWith("/app/assets/"))
  .map((path) => path.replace(":id", "KZN-1"));
const builtAssets = () => readdirSync(CONSOLE_BUILD_DIR).filter((file) => file !== "index.html");

describe("the console from the app", () => {
  let app: TestApp["app"];
  beforeAll(async () => {
    ({ app } = await testApp());
  });

  it("answers every page URL with the shell, no key needed, under the CSP and no caching of the shell", async () => {
    const shell = readFileSync(join(CONSOLE_BUILD_DIR, "index.html"), "utf8");
    expect(PAGES).toEqual([
      "/app",
      "/app/issues",
      "/app/issues/KZN-1",
      "/app/queue",
      "/app/activity",
      "/app/agents",
      "/app/prompts",
      "/app/prompts/KZN-1",
      "/app/providers",
      "/app/projects",
      "/app/projects/KZN-1",
      "/app/goals",
      "/app/labels",
      "/app/keys",
      "/app/audit",
    ]);
    for (const page of PAGES) {
      const response = await app.request(page);
      expect(response.status, page).toBe(200);
      expect(response.headers.get("content-type"), page).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy"), page).toBe(CONSOLE_CSP);
      expect(response.headers.get("x-frame-options"), page).toBe("DENY");
      expect(response.headers.get("cache-control"), page).toBe("no-cache");
      expect(await response.text(), page).toBe(shell);
    }
    expect(CONSOLE_CSP).toMatch(/default-src 'none'/);
    expect(CONSOLE_CSP).not.toMatch(/unsafe|https?:|\*/);
    // The shell loads only its own files, and carries no inline script or style.
    expect(shell).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
    const loaded = [...shell.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(loaded.filter((url) => url !== "data:," && !url?.startsWith("/app/assets/"))).toEqual([]);
  });

  it("serves the built script and stylesheet, cached for good, and nothing else under /app/assets", async () => {
    const assets = builtAssets();
    // One of each, whatever order their content hashes put them in.
    expect(assets.map((file) => file.slice(file.lastIndexOf("."))).sort()).toEqual([".css", ".js"]);
    for (const file of assets) {
      const response = await app.request(`/app/assets/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toBe(
        file.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
      );
      expect(response.headers.get("cache-control"), file).toBe("public, max-age=31536000, immutable");
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(CONSOLE_BUILD_DIR, file)))).toBe(true);
    }
    for (const file of ["index.html", "app-UNKNOWN0.js", "app.js", "..%2Fpackage.json", "app-ABC.map"]) {
      const response = await app.request(`/app/assets/${file}`);
      expect(response.status, file).toBe(404);
      expect(await response.json(), file).toEqual({ error: expect.stringMatching(/^No console asset /) });
    }
  });

  it("keeps unknown paths under /app the API's 404", async () => {
    const response = await app.request("/app/nowhere");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });
});

describe("the console from the service function's Lambda package", () => {
  const packages = servicePackages();
  let env: Record<string, string>;
  beforeAll(async () => {
    ({ env } = await deployedEnv());
  });
  afterAll(() => packages.remove());

  it("serves the pages and files copyFiles adds", async () => {
    const handler = await packages.handler([...DOCS_COPY_FILES, ...CONSOLE_COPY_FILES], env);
    const page = await getBytes(handler, "/app/issues/KZN-7");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toBe(CONSOLE_CSP);
    expect(page.body.toString()).toBe(readFileSync(join(CONSOLE_BUILD_DIR, "index.html"), "utf8"));
    for (const file of builtAssets()) {
      const asset = await getBytes(handler, `/app/assets/${file}`);
      expect(asset.statusCode, file).toBe(200);
      expect(asset.body.equals(readFileSync(join(CONSOLE_BUILD_DIR, file))), file).toBe(true);
    }
  });

  it("cannot serve them without the copied folder, so the bundle does not carry them", async () => {
    const handler = await packages.handler(DOCS_COPY_FILES, env);
    expect((await getBytes(handler, "/app")).statusCode).toBe(404);
    expect((await getBytes(handler, `/app/assets/${builtAssets()[0]}`)).statusCode).toBe(404);
  });
});
