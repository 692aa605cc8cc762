/**
 * `GET /docs` in a real browser: headless Chromium (Debian's package, driven by playwright-core)
 * loads the page from the local server and renders every operation without reaching any other host.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/src/index.js";
import { freePort } from "../../infra/local/dynamodb.js";
import { startLocalStack } from "../../infra/local/stack.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { dynamodbEndpoint, TEST_API_KEY } from "../helpers/db.js";

const temps: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("the /docs page in headless Chromium", () => {
  it("lists the operations, loads nothing from another host, and can be looked at", async () => {
    const config = {
      ...loadConfig({
        env: { DYNAMODB_ENDPOINT: dynamodbEndpoint(), TABLE_NAME: `kaizen_docs_${Date.now()}` },
      }),
      serviceApiKey: TEST_API_KEY,
      port: await freePort(),
    };
    const stack = await startLocalStack({ config, dataDir: tempDir("kaizen-docs-data-"), hostname: "127.0.0.1" });
    const browser = await launchChromium({ width: 1280, height: 2000 });
    try {
      const page = await browser.context.newPage();
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));

      const response = await page.goto(`http://127.0.0.1:${config.port}/docs`, { waitUntil: "networkidle" });
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-type"]).toBe("text/html; charset=utf-8");
      await page.waitForSelector(".opblock", { timeout: 30_000 });

      const text = (await page.locator("#swagger-ui").textContent()) ?? "";
      expect(text).toContain("Kaizen API");
      for (const path of [
        "/api/issues",
        "/api/issues/{id}",
        "/api/dispatch/claim",
        "/api/signals/codehost",
        "/health",
      ]) {
        expect(text, path).toContain(path);
      }
      const operations = await page.locator(".opblock").count();
      expect(operations).toBeGreaterThanOrEqual(50);
      expect(errors).toEqual([]);

      expect(requested).toContain(`http://127.0.0.1:${config.port}/api/openapi.json`);
      expect(requested).toContain(`http://127.0.0.1:${config.port}/docs/assets/swagger-ui-bundle.js`);
      const elsewhere = requestsElsewhere(requested);
      expect(elsewhere, "the page reached another host").toEqual([]);

      const screenshot = join(tempDir("kaizen-docs-screenshot-"), "docs.png");
      await page.screenshot({ path: screenshot, fullPage: false });
      expect(existsSync(screenshot)).toBe(true);
      if (process.env.KAIZEN_DOCS_SCREENSHOT) await page.screenshot({ path: process.env.KAIZEN_DOCS_SCREENSHOT });
    } finally {
      await browser.close();
      await stack.stop();
    }
  });
});
