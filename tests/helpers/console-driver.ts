/**
 * Driving the web console (docs/api.md#console) in headless Chromium: tabs that record what they
 * request and what breaks in them, the sign-in, the API beside the page, and axe-core's serious
 * findings. Shared by the console's browser tests, each with its own server and browser.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import type { launchChromium } from "./browser.js";
import { TEST_API_KEY } from "./db.js";
import type { TestServer } from "./local-server.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const AXE_SOURCE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");
/** Where the console tests save their screenshots (not committed). */
export const SHOTS = join(ROOT, "test-results", "console");

export interface ApiAnswer<T> {
  status: number;
  etag: string | null;
  json: T;
}

/**
 * The driver of one test file; `current` gives its server and browser once `beforeAll` started them.
 * @example const { newTab, signIn } = consoleDriver(() => ({ server, browser }));
 */
export function consoleDriver(
  current: () => { server: TestServer; browser: Awaited<ReturnType<typeof launchChromium>> },
) {
  const requested: string[] = [];
  const pageErrors: string[] = [];

  /** A new tab that records what it requests and what breaks in it. */
  async function newTab(): Promise<Page> {
    const page = await current().browser.context.newPage();
    page.on("request", (request) => requested.push(request.url()));
    page.on("pageerror", (error) => pageErrors.push(error.message));
    return page;
  }

  async function api<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    token = TEST_API_KEY,
  ): Promise<ApiAnswer<T>> {
    const response = await fetch(`${current().server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, etag: response.headers.get("ETag"), json: (text ? JSON.parse(text) : null) as T };
  }

  /** Fills in the sign-in form; with the right key, resolves once the console shows. */
  async function signIn(page: Page, key = TEST_API_KEY): Promise<void> {
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    if (key === TEST_API_KEY) await page.getByRole("navigation", { name: "Console" }).waitFor();
  }

  /** Signs in with `key` (any key that may read), and resolves once the console shows. */
  async function signInAs(page: Page, key: string): Promise<void> {
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("navigation", { name: "Console" }).waitFor();
  }

  /** Makes an API key with the root key: its id and its text, shown this once. */
  async function makeKey(
    name: string,
    scopes: string[],
    projectIds?: string[],
  ): Promise<{ id: string; key: string; prefix: string }> {
    const made = await api<{ data: { id: string; key: string; prefix: string } }>("POST", "/api/keys", {
      name,
      scopes,
      ...(projectIds ? { projectIds } : {}),
    });
    if (made.status !== 201) throw new Error(`POST /api/keys answered ${made.status}: ${JSON.stringify(made.json)}`);
    return made.json.data;
  }

  async function heading(page: Page): Promise<string> {
    return ((await page.locator("h1").first().textContent()) ?? "").trim();
  }

  /** axe-core's serious and critical violations on the page as it is now. */
  async function seriousViolations(page: Page): Promise<string[]> {
    // Evaluated through the debugging protocol, which the page's CSP does not govern.
    await page.evaluate(AXE_SOURCE);
    const { violations } = (await page.evaluate("axe.run()")) as {
      violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
    };
    return violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
  }

  return { requested, pageErrors, newTab, api, signIn, signInAs, makeKey, heading, seriousViolations };
}
