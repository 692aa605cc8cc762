/**
 * The web console's projects, goals and labels (docs/api.md#console) in headless Chromium: a
 * project made from its list, its settings, limits, automation and autonomy edited (a stale edit refused
 * with a 412), its sources added and removed (one another project owns refused with the API's
 * 409), its issue counts leading to its issues; labels made and deleted (the API's 409s shown);
 * goals made and edited on their page and on the project's. Each page passes an axe-core scan.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { consoleDriver, SHOTS } from "../helpers/console-driver.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

type Project = Schema<"ProjectDetail">;
type Goal = Schema<"Goal">;

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const { requested, pageErrors, newTab, api, signIn, seriousViolations } = consoleDriver(() => ({ server, browser }));

beforeAll(async () => {
  server = await startTestServer("console_projects");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("projects, goals and labels in the console", () => {
  let projectId = "";
  const project = async () => (await api<{ data: Project }>("GET", `/api/projects/${projectId}`)).json.data;

  it("makes a project from the list, edits its settings and sources, and leads to its issues", async () => {
    const page = await newTab();
    await page.goto(`${server.url}/app/projects`);
    await signIn(page);
    await page.getByText("No project yet.").waitFor();
    expect(await seriousViolations(page), "axe on the empty projects page").toEqual([]);

    const create = page.getByRole("form", { name: "New project" });
    await create.getByLabel("Name").fill("Checkout");
    await create.getByLabel("Description (Markdown)").fill("Owns the **checkout** flow.");
    await create.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { level: 1, name: "Checkout" }).waitFor();
    projectId = /\/app\/projects\/(prj_\w+)$/.exec(page.url())?.[1] ?? "";
    expect(projectId).not.toBe("");
    expect(await project()).toMatchObject({ name: "Checkout", description: "Owns the **checkout** flow." });
    await page.locator(".markdown strong", { hasText: "checkout" }).waitFor();

    // Settings: health, limits, automation and plan approval, in one save.
    const settings = page.getByRole("form", { name: "Settings" });
    await settings.getByLabel("Health").selectOption("at_risk");
    await settings.getByLabel("Max active dispatches per agent").fill("3");
    await settings.getByLabel("Daily cost budget (USD)").fill("25");
    await settings.getByLabel("Max cost per dispatch (USD)").fill("2.5");
    await settings.getByLabel("Max issues in review").fill("4");
    const planApproval = settings.getByRole("checkbox", { name: /post a plan and wait for a person's approval/ });
    await planApproval.check();
    await settings.getByLabel("Watch merged fixes (hours)").fill("48");
    await settings.getByLabel("At priority").selectOption("3");
    await settings.getByRole("button", { name: "Save project" }).click();
    await expect
      .poll(async () => {
        const { health, limits, automation, autonomy, verifyHours } = await project();
        return { health, limits, automation, autonomy, verifyHours };
      })
      .toEqual({
        health: "at_risk",
        limits: { maxActivePerAgent: 3, dailyCostBudgetUsd: 25, maxInReview: 4, maxCostPerDispatchUsd: 2.5 },
        verifyHours: 48,
        automation: { acceptAtPriority: 3, acceptAtSignals: null },
        autonomy: { planApproval: true },
      });
    await page.locator("h1 + p .badge", { hasText: "at risk" }).waitFor();
    await expect(settings.getByLabel("Daily cost budget (USD)").inputValue()).resolves.toBe("25");
    await expect(settings.getByLabel("Max cost per dispatch (USD)").inputValue()).resolves.toBe("2.5");
    await expect(planApproval.isChecked()).resolves.toBe(true);
    // The API replaces the whole limits object: clearing one sends the others as they are.
    await settings.getByLabel("Max cost per dispatch (USD)").fill("");
    await planApproval.uncheck();
    await settings.getByRole("button", { name: "Save project" }).click();
    await expect
      .poll(async () => {
        const { limits, autonomy } = await project();
        return { limits, autonomy };
      })
      .toEqual({
        limits: { maxActivePerAgent: 3, dailyCostBudgetUsd: 25, maxInReview: 4, maxCostPerDispatchUsd: null },
        autonomy: { planApproval: false },
      });
    // The form opens again on the saved version: nothing left to save.
    await expect.poll(() => settings.getByRole("button", { name: "Save project" }).isDisabled()).toBe(true);

    // Sources, one kind at a time; one another project owns is the API's 409, and nothing changes.
    const add = async (kind: string, source: string) => {
      const form = page.getByRole("form", { name: `New ${kind} source` });
      await form.getByLabel(`New ${kind} source`).fill(source);
      await form.getByRole("button", { name: "Add" }).click();
    };
    await add("code host", "acme/shop");
    await page.getByRole("button", { name: "Remove code host source acme/shop" }).waitFor();
    await add("error tracker", "shop-web");
    await page.getByRole("button", { name: "Remove error tracker source shop-web" }).waitFor();
    await add("analytics", "4242");
    await page.getByRole("button", { name: "Remove analytics source 4242" }).waitFor();
    expect((await project()).sources).toEqual({
      codehost: ["acme/shop"],
      errortracker: ["shop-web"],
      analytics: ["4242"],
    });

    const other = await api<{ data: { id: string } }>("POST", "/api/projects", {
      name: "Storefront",
      sources: { codehost: ["acme/web"] },
    });
    expect(other.status).toBe(201);
    await add("code host", "ACME/web");
    const refused = page.locator(".failure", { hasText: "409" });
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toContain(
      `Source codehost "ACME/web" already belongs to project "Storefront" (${other.json.data.id})`,
    );
    await expect(refused.textContent()).resolves.toContain("Nothing of this change was written.");
    expect((await project()).sources.codehost).toEqual(["acme/shop"]);

    await page.getByRole("button", { name: "Remove analytics source 4242" }).click();
    await page.getByRole("button", { name: "Remove analytics source 4242" }).waitFor({ state: "detached" });
    expect((await project()).sources).toEqual({ codehost: ["acme/shop"], errortracker: ["shop-web"], analytics: [] });
    await page.screenshot({ path: join(SHOTS, "project.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on a project's page").toEqual([]);

    // Changed elsewhere while the form holds an edit: the save is refused (412), a reload shows the change.
    expect((await api("PATCH", `/api/projects/${projectId}`, { health: "off_track" })).status).toBe(200);
    await settings.getByLabel("Status").selectOption("planned");
    await settings.getByRole("button", { name: "Save project" }).click();
    const stale = settings.locator(".failure", { hasText: "412" });
    await stale.getByText("The project changed since this page loaded it").waitFor();
    expect((await project()).status).toBe("active");
    await stale.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => settings.getByLabel("Health").inputValue()).toBe("off_track");

    // A signal from its repository opens an issue in it, accepted to todo by its automation (medium ≤ 3).
    const delivery = codehostDelivery("issues", issueEvent("opened", 31, "Pay button spins forever", "acme/shop"));
    expect((await fetch(`${server.url}${delivery.path}`, delivery.init)).status).toBe(201);
    await page.reload();
    const todo = page.locator(".figure", { hasText: "todo" });
    await expect.poll(async () => (await todo.locator(".figure-value").textContent())?.trim()).toBe("1");
    await expect(todo.getByRole("link").getAttribute("href")).resolves.toBe(
      `/app/issues?projectId=${projectId}&status=todo`,
    );
    await page.getByRole("link", { name: "This project's issues" }).click();
    await page.getByRole("heading", { level: 1, name: "Issues" }).waitFor();
    expect(page.url()).toBe(`${server.url}/app/issues?projectId=${projectId}`);
    await page.getByRole("link", { name: "Pay button spins forever" }).waitFor();
    // The filter's options arrive with the projects list: its value is the project once they do.
    await expect.poll(() => page.getByLabel("Project").inputValue()).toBe(projectId);

    // The list: each project's name is its link, with its health and its sources per kind.
    await page.goto(`${server.url}/app/projects`);
    const row = page.locator("tr", { has: page.getByRole("link", { name: "Checkout" }) });
    await expect
      .poll(() => row.locator("td").allTextContents())
      .toEqual(["Checkout", "active", "off track", "1", "1", "0"]);
    await expect(page.getByRole("link", { name: "Checkout" }).getAttribute("href")).resolves.toBe(
      `/app/projects/${projectId}`,
    );
    await page.screenshot({ path: join(SHOTS, "projects.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the projects page").toEqual([]);
    await page.close();
  });

  it("makes labels, refuses a second of one name, and deletes one only after asking and only when unused", async () => {
    const page = await newTab();
    await page.goto(`${server.url}/app/labels`);
    await signIn(page);
    await page.getByText("No label yet.").waitFor();
    const form = page.getByRole("form", { name: "New label" });
    await form.getByLabel("Name").fill("regression");
    await form.getByLabel("Colour").fill("#a4231b");
    await form.getByRole("button", { name: "Create label" }).click();
    const row = page.locator("tr", { has: page.getByRole("link", { name: "regression" }) });
    await row.getByText("#a4231b").waitFor();
    await expect(row.locator("svg rect").getAttribute("fill")).resolves.toBe("#a4231b");
    const labels = async () => (await api<{ data: { name: string; color: string }[] }>("GET", "/api/labels")).json.data;
    expect(await labels()).toEqual([expect.objectContaining({ name: "regression", color: "#a4231b" })]);

    await form.getByLabel("Name").fill("Regression");
    await form.getByRole("button", { name: "Create label" }).click();
    const duplicate = page.locator(".failure", { hasText: "409" });
    await duplicate.getByText("already exists", { exact: false }).waitFor();
    expect(await labels()).toHaveLength(1);

    // Unused: asked, then deleted. Used by an issue: the API's 409 says so and it stays.
    expect((await api("POST", "/api/labels", { name: "obsolete", color: "#555b63" })).status).toBe(201);
    await page.reload();
    await page.getByRole("button", { name: "Delete label obsolete" }).click();
    const confirm = page.getByRole("group", { name: "Delete the label obsolete?" });
    expect(await seriousViolations(page), "axe with a delete to confirm").toEqual([]);
    await confirm.getByRole("button", { name: "Yes, delete it" }).click();
    await page.getByRole("link", { name: "obsolete" }).waitFor({ state: "detached" });
    expect((await labels()).map((label) => label.name)).toEqual(["regression"]);

    expect((await api("POST", "/api/issues", { title: "Labelled", type: "task", labels: ["regression"] })).status).toBe(
      201,
    );
    await page.getByRole("button", { name: "Delete label regression" }).click();
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    const inUse = page.locator(".failure", { hasText: "409" });
    await inUse.getByText("Issues still carry this label").waitFor();
    await expect(inUse.textContent()).resolves.toContain('Label "regression" is used by 1 issue');
    expect((await labels()).map((label) => label.name)).toEqual(["regression"]);
    await page.screenshot({ path: join(SHOTS, "labels.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the labels page").toEqual([]);
    await page.close();
  });

  it("makes and edits goals on their page and on the project's, and sets the project's goal", async () => {
    const goals = async () => (await api<{ data: Goal[] }>("GET", "/api/goals")).json.data;
    const page = await newTab();
    await page.goto(`${server.url}/app/goals`);
    await signIn(page);
    await page.getByText("No goal yet.").waitFor();
    const form = page.getByRole("form", { name: "New goal" });
    await form.getByLabel("Title").fill("Checkout conversion");
    await form.getByLabel("Metric").fill("conversion rate");
    await form.getByLabel("Current value").fill("2.1");
    await form.getByLabel("Target value").fill("3");
    await form.getByLabel("Unit").fill("%");
    await form.getByLabel("Project").selectOption({ label: "Checkout" });
    await form.getByRole("button", { name: "Create goal" }).click();
    const row = page.locator("tr", { hasText: "Checkout conversion" });
    await expect
      .poll(() => row.locator("td").allTextContents())
      .toEqual(["Checkout conversion", "active", "conversion rate", "2.1 / 3 %", "Checkout", "Edit"]);
    const [made] = await goals();
    expect(made).toMatchObject({
      title: "Checkout conversion",
      status: "active",
      metric: "conversion rate",
      currentValue: 2.1,
      targetValue: 3,
      unit: "%",
      projectId,
    });

    await page.getByRole("button", { name: "Edit goal Checkout conversion" }).click();
    const edit = page.getByRole("form", { name: "Edit goal: Checkout conversion" });
    await edit.getByLabel("Status").selectOption("achieved");
    await edit.getByLabel("Current value").fill("3.2");
    await edit.getByRole("button", { name: "Save goal" }).click();
    await row.locator(".badge", { hasText: "achieved" }).waitFor();
    await expect.poll(() => row.locator("td").nth(3).textContent()).toBe("3.2 / 3 %");
    expect((await goals())[0]).toMatchObject({ id: made?.id, status: "achieved", currentValue: 3.2, projectId });
    await page.screenshot({ path: join(SHOTS, "goals.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the goals page").toEqual([]);

    // On the project's page: its goals, a new one (the project is this one), then it becomes the project's goal.
    await page.goto(`${server.url}/app/projects/${projectId}`);
    const section = page.locator("section", { has: page.getByRole("heading", { level: 2, name: "Goals" }) });
    await section.getByText("Checkout conversion").waitFor();
    const here = section.getByRole("form", { name: "New goal" });
    await expect(here.getByLabel("Project").count()).resolves.toBe(0);
    await here.getByLabel("Title").fill("Fewer payment errors");
    await here.getByRole("button", { name: "Create goal" }).click();
    await section.getByRole("cell", { name: "Fewer payment errors", exact: true }).waitFor();
    const fewer = (await goals()).find((goal) => goal.title === "Fewer payment errors");
    expect(fewer).toMatchObject({ status: "active", projectId });
    const settings = page.getByRole("form", { name: "Settings" });
    await settings.getByLabel("Goal").selectOption({ label: "Fewer payment errors" });
    await settings.getByRole("button", { name: "Save project" }).click();
    await expect.poll(async () => (await project()).goalId).toBe(fewer?.id);
    expect(await seriousViolations(page), "axe on a project's page with goals").toEqual([]);
    await page.close();
  });

  it("marks in the queue the issues a project's review capacity holds, and why", async () => {
    const held = await api<{ data: { id: string } }>("POST", "/api/projects", {
      name: "Reviews pile up",
      limits: { maxActivePerAgent: null, dailyCostBudgetUsd: null, maxInReview: 1, maxCostPerDispatchUsd: null },
    });
    expect(held.status, JSON.stringify(held.json)).toBe(201);
    const heldId = held.json.data.id;
    const issues = [];
    for (const [title, priority] of [
      ["Refund page times out", 1],
      ["Receipt email has no logo", 3],
    ] as const) {
      const created = await api<{ data: { id: string; identifier: string } }>("POST", "/api/issues", {
        title,
        type: "task",
        status: "todo",
        priority,
        projectId: heldId,
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      issues.push(created.json.data);
    }
    // One in review fills the project's capacity: the other waits, marked with why.
    const claim = await api<{ data: { dispatch: { id: string; token: string }; issue: { id: string } } }>(
      "POST",
      "/api/dispatch/claim",
      { agent: "console-queue-agent", projectId: heldId },
    );
    expect(claim.status, JSON.stringify(claim.json)).toBe(201);
    expect(claim.json.data.issue.id).toBe(issues[0]?.id);
    const { id: dispatchId, token } = claim.json.data.dispatch;
    const completed = await api(
      "POST",
      `/api/dispatch/${dispatchId}/complete`,
      {
        result: "done",
        summary: "Fixed",
        pullRequests: [{ number: 7, title: "Fix refunds", url: "https://github.com/acme/shop/pull/7" }],
      },
      token,
    );
    expect(completed.status, JSON.stringify(completed.json)).toBe(200);

    const page = await newTab();
    await page.goto(`${server.url}/app/queue`);
    await signIn(page);
    const waiting = issues[1]?.identifier ?? "";
    await page.getByRole("link", { name: waiting, exact: true }).waitFor();
    await expect(page.locator("thead th").last().textContent()).resolves.toBe("Held by");
    const row = page.locator("tr", { has: page.getByRole("link", { name: waiting, exact: true }) });
    await expect(row.locator("td").last().textContent()).resolves.toBe("review-capacity");
    await page.getByText("Claims pass over an issue held by its project's review capacity").waitFor();
    expect(await seriousViolations(page), "axe on the queue with a held issue").toEqual([]);
    await page.screenshot({ path: join(SHOTS, "queue-held.png"), fullPage: true });
    await page.close();
  });

  it("raised no error in a page and reached no other host", () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requestsElsewhere(requested)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
