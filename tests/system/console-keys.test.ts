/**
 * Keys, the audit log and what a key's scopes hide in the web console (docs/console.md#keys-scopes-and-the-audit-log),
 * in headless Chromium: an admin makes a read key on the keys page, sees it once (and copies it), finds it listed
 * by its prefix and revokes it; the audit page lists that creation newest first and filters by status; a read key
 * sees an issue with an agent at work but none of the triage or steering actions the root key sees, and no keys
 * or audit link; a key narrowed to one project gets a note instead of the dashboard's figures; a key that holds
 * `dispatch` alone is told it can only claim and work dispatches. No page asks the API for what its key may not
 * have (no 403). Each page passes an axe-core scan.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { consoleDriver, SHOTS } from "../helpers/console-driver.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

type ApiKey = Schema<"ApiKey">;
type AuditRecord = Schema<"AuditRecord">;
type Issue = Schema<"Issue">;

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const { requested, pageErrors, newTab, api, signIn, signInAs, makeKey, seriousViolations } = consoleDriver(() => ({
  server,
  browser,
}));

beforeAll(async () => {
  server = await startTestServer("console_keys");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The API's answers to a tab, as "403 GET /api/dashboard/stats". */
function answersOf(page: Page): string[] {
  const seen: string[] = [];
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith("/api/")) seen.push(`${response.status()} ${response.request().method()} ${pathname}`);
  });
  return seen;
}

const refused = (answers: string[]) => answers.filter((answer) => /^40[13] /.test(answer));

/** The navigation's link texts. */
const navLinks = (page: Page) => page.getByRole("navigation", { name: "Console" }).getByRole("link").allTextContents();

describe("keys, the audit log and what a key may do in the console", () => {
  let made: ApiKey | undefined;

  it("makes a read key on the keys page, shows it once with a copy, lists it by its prefix, and revokes it", async () => {
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await newTab();
    const answers = answersOf(page);
    await page.goto(`${server.url}/app/keys`);
    await signIn(page);
    await page.getByRole("heading", { level: 1, name: "Keys" }).waitFor();
    await page.getByText("No key made yet").waitFor();
    expect(await seriousViolations(page), "axe on the empty keys page").toEqual([]);

    const form = page.getByRole("form", { name: "New key" });
    await form.getByLabel("Name").fill("reader");
    // `read` is ticked to begin with; nothing else is.
    await expect(form.getByRole("checkbox", { name: /^read/ }).isChecked()).resolves.toBe(true);
    await expect(form.getByRole("checkbox", { name: /^write/ }).isChecked()).resolves.toBe(false);
    await form.getByRole("button", { name: "Make key" }).click();

    const once = page.locator(".shown-once");
    await once.getByRole("heading", { name: "Key reader made: copy it now" }).waitFor();
    await once.getByText("It is shown once.").waitFor();
    const keyText = ((await once.locator("code").textContent()) ?? "").trim();
    expect(keyText).toMatch(/^kaizen_/);
    expect(await seriousViolations(page), "axe with a new key shown").toEqual([]);

    await once.getByRole("button", { name: "Copy key" }).click();
    await once.getByRole("status").getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(keyText);

    // Listed with its prefix, never its text.
    const keys = (await api<{ data: ApiKey[]; total: number }>("GET", "/api/keys")).json;
    expect(keys.total).toBe(1);
    made = keys.data[0];
    expect(made).toMatchObject({ name: "reader", scopes: ["read"], projectIds: null, revokedAt: null });
    expect(keyText.startsWith(made?.prefix ?? "-")).toBe(true);
    const row = page.locator("tbody tr", { has: page.getByRole("cell", { name: "reader", exact: true }) });
    await expect
      .poll(() => row.locator("td").allTextContents())
      .toEqual(["reader", "read", "every project", made?.prefix, "never", "never", "—", "Revoke"]);
    await page.screenshot({ path: join(SHOTS, "keys-new.png"), fullPage: true });

    // Done: the key's text is gone from the page, and the tab never kept it.
    await once.getByRole("button", { name: "Done" }).click();
    await once.waitFor({ state: "detached" });
    expect(await page.content()).not.toContain(keyText);
    expect(await page.evaluate("JSON.stringify(sessionStorage)")).not.toContain(keyText);

    // The key works, as what it was made: used once, the list says when.
    const me = await api<{ data: Schema<"Caller"> }>("GET", "/api/me", undefined, keyText);
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({ kind: "key", name: "reader", scopes: ["read"], projectIds: null });
    await page.reload();
    await expect.poll(async () => (await row.locator("td").nth(4).textContent())?.trim()).not.toBe("never");

    // Revoke, asked first; then the key is refused.
    await page.getByRole("button", { name: "Revoke key reader" }).click();
    const confirm = page.getByRole("group", { name: "Revoke the key reader?" });
    await confirm.waitFor();
    expect((await api("GET", "/api/me", undefined, keyText)).status).toBe(200);
    expect(await seriousViolations(page), "axe with a revoke to confirm").toEqual([]);
    await confirm.getByRole("button", { name: "Yes, revoke it" }).click();
    await row.locator(".badge", { hasText: "revoked" }).waitFor();
    await expect(page.getByRole("button", { name: "Revoke key reader" }).count()).resolves.toBe(0);
    const revoked = await api<{ data: ApiKey }>("GET", `/api/keys/${made?.id}`);
    expect(revoked.json.data.revokedAt).not.toBeNull();
    expect((await api("GET", "/api/me", undefined, keyText)).status).toBe(401);
    await page.screenshot({ path: join(SHOTS, "keys.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the keys page").toEqual([]);
    expect(refused(answers)).toEqual([]);
    await page.close();
  });

  it("lists the key's creation in the audit log, newest first, and filters by status", async () => {
    const keyId = made?.id ?? "";
    expect(keyId).toMatch(/^key_/);
    const page = await newTab();
    await page.goto(`${server.url}/app/audit`);
    await signIn(page);
    await page.getByRole("heading", { level: 1, name: "Audit log" }).waitFor();
    const rows = page.locator("tbody tr");
    const created = rows.filter({ hasText: "POST /api/keys" });
    await created.first().waitFor();
    await expect(created.first().locator("td").allTextContents()).resolves.toEqual([
      expect.any(String),
      "root key (root)",
      "POST /api/keys",
      keyId,
      "201",
    ]);
    // Newest first: the revocation is above the creation.
    const texts = await rows.allTextContents();
    const revokedAt = texts.findIndex((text) => text.includes(`DELETE /api/keys/${keyId}`));
    const createdAt = texts.findIndex((text) => text.includes("POST /api/keys"));
    expect(revokedAt).toBeGreaterThanOrEqual(0);
    expect(revokedAt).toBeLessThan(createdAt);
    const all = (await api<{ data: AuditRecord[]; total: number }>("GET", "/api/audit")).json;
    await page.getByText(`(${all.total} in all)`).waitFor();
    await page.screenshot({ path: join(SHOTS, "audit.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the audit page").toEqual([]);

    // A filtered read looks through every day the log keeps: give it time.
    const listed = { timeout: 15_000 };
    // Status 201: the creation stays, the revocation (200) goes; the filter is in the URL.
    const filters = page.getByRole("form", { name: "Filter the audit log" });
    await filters.getByLabel("Status").fill("201");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.url(), listed).toBe(`${server.url}/app/audit?status=201`);
    const statuses = rows.locator("td:nth-child(5)");
    await expect.poll(async () => [...new Set(await statuses.allTextContents())], listed).toEqual(["201"]);
    await expect(created.count()).resolves.toBeGreaterThan(0);
    await expect(rows.filter({ hasText: `DELETE /api/keys/${keyId}` }).count()).resolves.toBe(0);
    const only201 = (await api<{ total: number }>("GET", "/api/audit?status=201")).json;
    await page.getByText(`(${only201.total} in all)`).waitFor();

    // Status 401: the revoked key's refusal, which named no one.
    await filters.getByLabel("Status").fill("401");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect.poll(async () => [...new Set(await statuses.allTextContents())], listed).toEqual(["401"]);
    await expect(created.count()).resolves.toBe(0);
    await rows.getByText("no one (a refused credential)").first().waitFor();

    // A reload keeps the filter.
    await page.reload();
    await expect.poll(() => filters.getByLabel("Status").inputValue()).toBe("401");
    await expect.poll(async () => [...new Set(await statuses.allTextContents())], listed).toEqual(["401"]);

    // Read when asked: a refusal made since shows after "Refresh".
    const before = (await api<{ total: number }>("GET", "/api/audit?status=401")).json.total;
    await page.getByText(`(${before} in all)`).waitFor();
    expect((await api("GET", "/api/issues", undefined, `kaizen_${"ef".repeat(32)}`)).status).toBe(401);
    await filters.getByRole("button", { name: "Refresh" }).click();
    await page.getByText(`(${before + 1} in all)`).waitFor();
    await page.close();
  });

  it("shows a read key an issue with an agent at work but no triage or steering, and no keys or audit link", async () => {
    const project = await api<{ data: { id: string } }>("POST", "/api/projects", { name: "Steered" });
    const projectId = project.json.data.id;
    const issue = (
      await api<{ data: Issue }>("POST", "/api/issues", {
        title: "Refunds round down",
        type: "task",
        status: "todo",
        projectId,
        labels: [],
      })
    ).json.data;
    const claim = await api<{ data: { dispatch: { id: string; token: string } } }>("POST", "/api/dispatch/claim", {
      agent: "watched-agent",
      projectId,
    });
    expect(claim.status).toBe(201);
    const { id: dispatchId, token } = claim.json.data.dispatch;
    const asked = await api(
      "POST",
      `/api/dispatch/${dispatchId}/activities`,
      {
        type: "elicitation",
        body: "Round half up or to even?",
      },
      token,
    );
    expect(asked.status).toBe(201);
    const reader = await makeKey("watcher", ["read"]);

    const open = async (key: string | null) => {
      const page = await newTab();
      const answers = answersOf(page);
      await page.goto(`${server.url}/app/issues/${issue.identifier}`);
      if (key) await signInAs(page, key);
      else await signIn(page);
      const atWork = page.getByRole("region", { name: "Agent at work" });
      await atWork.getByRole("log").getByText("Round half up or to even?").waitFor();
      await page.getByRole("heading", { level: 2, name: "Dispatch history" }).waitFor();
      return { page, atWork, answers };
    };
    const offered = async (page: Page) => ({
      triage: await page.getByRole("form", { name: "Triage" }).count(),
      answer: await page.getByRole("form", { name: "Answer its question" }).count(),
      stop: await page.getByRole("form", { name: "Stop the agent" }).count(),
      merge: await page.getByRole("heading", { name: "Merge as a duplicate" }).count(),
      comment: await page.getByLabel("Add a comment").count(),
    });

    const root = await open(null);
    expect(await offered(root.page)).toEqual({ triage: 1, answer: 1, stop: 1, merge: 1, comment: 1 });
    expect(await navLinks(root.page)).toEqual(expect.arrayContaining(["Keys", "Audit"]));
    await root.page.close();

    const read = await open(reader.key);
    expect(await offered(read.page)).toEqual({ triage: 0, answer: 0, stop: 0, merge: 0, comment: 0 });
    await read.atWork.getByText("waits for an answer").waitFor();
    await read.page.locator(".filed", { hasText: "project: Steered" }).waitFor();
    const links = await navLinks(read.page);
    expect(links).toEqual(expect.arrayContaining(["Overview", "Issues", "Projects", "Activity"]));
    expect(links).not.toContain("Keys");
    expect(links).not.toContain("Audit");
    await read.page.locator("header .who", { hasText: "watcher · read" }).waitFor();
    await read.page.screenshot({ path: join(SHOTS, "issue-read-key.png"), fullPage: true });
    expect(await seriousViolations(read.page), "axe on an issue read with a read key").toEqual([]);

    // The other pages read the same, without their forms.
    await read.page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Issues" }).click();
    await read.page.getByRole("link", { name: "Refunds round down" }).waitFor();
    await expect(read.page.getByRole("button", { name: "New issue" }).count()).resolves.toBe(0);
    await read.page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Projects" }).click();
    await read.page.getByRole("link", { name: "Steered" }).click();
    await read.page.getByRole("heading", { level: 1, name: "Steered" }).waitFor();
    await read.page.getByText("Max active dispatches per agent").waitFor();
    await expect(read.page.getByRole("button", { name: "Save project" }).count()).resolves.toBe(0);
    await expect(read.page.getByRole("form", { name: "New goal" }).count()).resolves.toBe(0);
    await read.page.goto(`${server.url}/app/keys`);
    await read.page.getByText("Keys are made, listed and revoked with an admin key").waitFor();
    // Nothing was asked of the API that the key may not have.
    expect(refused(read.answers)).toEqual([]);
    expect(read.answers.length).toBeGreaterThan(5);
    await read.page.close();
  });

  it("shows a key narrowed to one project a note and its project instead of the dashboard's figures", async () => {
    const project = await api<{ data: { id: string } }>("POST", "/api/projects", { name: "Narrowed" });
    const narrowed = await makeKey("one-project", ["read"], [project.json.data.id]);
    expect((await api("GET", "/api/dashboard/stats", undefined, narrowed.key)).status).toBe(403);

    const page = await newTab();
    const answers = answersOf(page);
    await page.goto(`${server.url}/app`);
    await signInAs(page, narrowed.key);
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await page.getByRole("note").getByText("This key is limited to its projects").waitFor();
    await page.getByRole("link", { name: "Narrowed" }).waitFor();
    await expect(page.locator(".figure").count()).resolves.toBe(0);
    await expect(page.locator(".failure").count()).resolves.toBe(0);
    const links = await navLinks(page);
    for (const hidden of ["Activity", "Agents", "Prompts", "Keys", "Audit"]) expect(links).not.toContain(hidden);
    await page.screenshot({ path: join(SHOTS, "overview-narrowed.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the overview of a narrowed key").toEqual([]);
    // A page of figures opened by its URL says the same.
    await page.goto(`${server.url}/app/activity`);
    await page.getByRole("note").getByText("This key is limited to its projects").waitFor();
    expect(refused(answers)).toEqual([]);
    await page.close();

    // The root key sees the figures.
    const root = await newTab();
    await root.goto(`${server.url}/app`);
    await signIn(root);
    await root.locator(".figure").first().waitFor();
    await expect(root.getByRole("note").count()).resolves.toBe(0);
    await root.close();
  });

  it("tells a key that holds dispatch alone that it can only claim and work dispatches", async () => {
    const fleet = await makeKey("agent fleet", ["dispatch"]);
    const page = await newTab();
    await page.goto(`${server.url}/app/issues`);
    await page.getByLabel("API key").fill(fleet.key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("only claim and work dispatches").waitFor();
    await page.locator("strong", { hasText: "agent fleet" }).waitFor();
    await expect(page.getByRole("navigation", { name: "Console" }).count()).resolves.toBe(0);
    expect(await seriousViolations(page), "axe on a dispatch key's page").toEqual([]);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    await page.close();
  });

  it("raised no error in a page and reached no other host", () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requestsElsewhere(requested)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
