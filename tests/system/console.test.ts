/**
 * The web console (docs/api.md#console) in a real browser: headless Chromium against the local server, as an
 * operator uses it. A signal sent through a receiver shows up as an issue, is triaged to todo,
 * claimed and completed through the API while the console watches, and ends in the activity chain;
 * deep links survive a reload and a new tab; a wrong key, a stale edit and an unreachable API each
 * say what happened; every page passes an axe-core scan; nothing is requested from another host.
 * Screenshots of each page land in `test-results/console/` (not committed).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { rateText } from "../../client/measures.js";
import { ROUTE_TABLE } from "../../core/src/routes.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { consoleDriver, SHOTS } from "../helpers/console-driver.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

const WRONG_KEY = `kaizen_${"cd".repeat(32)}`;

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const { requested, pageErrors, newTab, api, signIn, heading, seriousViolations } = consoleDriver(() => ({
  server,
  browser,
}));

beforeAll(async () => {
  server = await startTestServer("console");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the web console in headless Chromium", () => {
  let identifier = "";
  let issueId = "";

  it("answers every page URL with the shell under a strict CSP, and asks for the key first", async () => {
    const page = await newTab();
    const response = await page.goto(`${server.url}/app`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toBe("text/html; charset=utf-8");
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    await expect(page.getByLabel("API key").isVisible()).resolves.toBe(true);
    expect(await heading(page)).toBe("Kaizen console");
    await page.screenshot({ path: join(SHOTS, "sign-in.png") });
    expect(await seriousViolations(page), "axe on the sign-in form").toEqual([]);
    await page.close();
  });

  it("refuses a wrong key and keeps it nowhere", async () => {
    const page = await newTab();
    await page.goto(`${server.url}/app`);
    await signIn(page, WRONG_KEY);
    await page.getByText("The API refused this key (401).").waitFor();
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    expect(await heading(page)).toBe("Kaizen console");
    await page.close();
  });

  it("shows a signal sent through a receiver as an issue, triages it, and watches it claimed, completed and chained", async () => {
    const page = await newTab();
    await page.goto(`${server.url}/app`);
    await signIn(page);
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();

    const delivery = codehostDelivery("issues", issueEvent("opened", 7, "Checkout button does nothing"));
    const received = await fetch(`${server.url}${delivery.path}`, delivery.init);
    expect(received.status).toBe(201);

    // The overview refreshes on its own; the issues page lists it.
    await page.getByText("signals, last 24 h").waitFor();
    await page.goto(`${server.url}/app/issues`);
    const link = page.getByRole("link", { name: /^KZN-\d+$/ }).first();
    await link.waitFor();
    identifier = ((await link.textContent()) ?? "").trim();
    // The title is a link to the issue too.
    const titleLink = page.getByRole("link", { name: "Checkout button does nothing" });
    await expect(titleLink.getAttribute("href")).resolves.toBe(`/app/issues/${identifier}`);
    await page.screenshot({ path: join(SHOTS, "issues.png"), fullPage: true });

    await titleLink.click();
    await page
      .getByRole("heading", { level: 1, name: new RegExp(`^${identifier}: Checkout button does nothing`) })
      .waitFor();
    expect(page.url()).toBe(`${server.url}/app/issues/${identifier}`);
    const detail = await api<{ data: { id: string; status: string } }>("GET", `/api/issues/${identifier}`);
    issueId = detail.json.data.id;
    expect(detail.json.data.status).toBe("triage");

    // Triage: to todo, priority 1.
    await page.getByLabel("Status").selectOption("todo");
    await page.getByLabel("Priority").selectOption("1");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(
        async () =>
          (await api<{ data: { status: string; priority: number } }>("GET", `/api/issues/${issueId}`)).json.data,
      )
      .toMatchObject({ status: "todo", priority: 1 });
    await page.locator(".badge", { hasText: "todo" }).first().waitFor();

    // Labels, project and a comment, from the same page.
    expect((await api("POST", "/api/labels", { name: "checkout", color: "#1f5fbf" })).status).toBe(201);
    const project = await api<{ data: { id: string } }>("POST", "/api/projects", { name: "Storefront" });
    await page.reload();
    await page.getByRole("checkbox", { name: "checkout" }).check();
    await page.getByLabel("Project").selectOption({ label: "Storefront" });
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(
        async () =>
          (await api<{ data: { labels: string[]; projectId: string } }>("GET", `/api/issues/${issueId}`)).json.data,
      )
      .toMatchObject({ labels: ["checkout"], projectId: project.json.data.id });
    await page.getByLabel("Add a comment").fill("Reproduced on the staging checkout.");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.locator(".comment", { hasText: "Reproduced on the staging checkout." }).waitFor();
    const comments = await api<{ data: { body: string; authorType: string }[] }>(
      "GET",
      `/api/issues/${issueId}/comments`,
    );
    expect(comments.json.data).toEqual([
      expect.objectContaining({ body: "Reproduced on the staging checkout.", authorType: "human" }),
    ]);

    // The queue shows it with its score's parts, impact among them, and its title as a link.
    await page.goto(`${server.url}/app/queue`);
    await page.getByRole("link", { name: identifier }).waitFor();
    await expect(page.locator("thead th").allTextContents()).resolves.toEqual([
      "Rank",
      "Issue",
      "Title",
      "Score",
      "Priority",
      "Type",
      "Goal",
      "Age",
      "Impact",
    ]);
    await expect(page.getByRole("link", { name: "Checkout button does nothing" }).getAttribute("href")).resolves.toBe(
      `/app/issues/${identifier}`,
    );
    await page.screenshot({ path: join(SHOTS, "queue.png"), fullPage: true });

    // Claimed through the API: the issue page sees it in progress by itself (it polls).
    await page.goto(`${server.url}/app/issues/${identifier}`);
    await page.locator(".badge", { hasText: "todo" }).first().waitFor();
    const claim = await api<{ data: { dispatch: { id: string; token: string } } }>("POST", "/api/dispatch/claim", {
      agent: "console-test-agent",
    });
    expect(claim.status).toBe(201);
    await page.locator("h1 + p .badge", { hasText: "in progress" }).waitFor({ timeout: 25_000 });
    await page.getByText("console-test-agent").first().waitFor({ timeout: 25_000 });
    // An agent works it: the page does not offer a merge the API would refuse.
    await page.getByText("An issue in progress cannot be merged into another.").waitFor();
    await page.screenshot({ path: join(SHOTS, "issue.png"), fullPage: true });

    const { id: dispatchId, token } = claim.json.data.dispatch;
    const completed = await api(
      "POST",
      `/api/dispatch/${dispatchId}/complete`,
      {
        result: "done",
        summary: "Wired the button to the handler",
        usage: { inputTokens: 5200, costUsd: 0.12, model: "test-model" },
      },
      token,
    );
    expect(completed.status).toBe(200);
    await page.reload();
    await page.locator("h1 + p .badge", { hasText: "done" }).waitFor();
    await page.getByText("Wired the button to the handler").first().waitFor();
    await page.getByText("Prompts it received").waitFor();
    await page.getByText("Reported usage: 5,200 tokens in, $0.12, test-model").waitFor();

    await page.goto(`${server.url}/app/activity`);
    const chain = page.locator(".chain", { hasText: identifier });
    await chain.waitFor();
    await expect(chain.textContent()).resolves.toMatch(
      /Signal.*Checkout button does nothing.*Issue.*done.*Dispatch.*console-test-agent.*completed.*Outcome.*Wired the button to the handler/s,
    );
    await expect(
      chain.locator(".step", { hasText: "Issue" }).getByRole("link", { name: "Checkout button does nothing" }).count(),
    ).resolves.toBe(1);
    await page.screenshot({ path: join(SHOTS, "activity.png"), fullPage: true });
    await page.close();
  });

  it("keeps every page at its own URL: a reload stays, a new tab asks for the key and then shows that page", async () => {
    const page = await newTab();
    await page.goto(`${server.url}/app`);
    await signIn(page);
    await page.goto(`${server.url}/app/issues/${identifier}`);
    await page.getByRole("heading", { level: 1, name: new RegExp(`^${identifier}:`) }).waitFor();
    await page.reload();
    await page.getByRole("heading", { level: 1, name: new RegExp(`^${identifier}:`) }).waitFor();

    const fresh = await newTab();
    await fresh.goto(`${server.url}/app/issues/${identifier}?from=link`);
    await fresh.getByLabel("API key").waitFor();
    await signIn(fresh);
    await fresh.getByRole("heading", { level: 1, name: new RegExp(`^${identifier}:`) }).waitFor();
    expect(fresh.url()).toBe(`${server.url}/app/issues/${identifier}?from=link`);
    expect(await fresh.evaluate("localStorage.length")).toBe(0);
    expect(await fresh.evaluate("document.cookie")).toBe("");

    // Every console page of the route table is a page of the app, not its "Not found".
    const examples: Record<string, string> = { id: identifier };
    const pagePaths = ROUTE_TABLE.service
      .map((route) => route.path as string)
      .filter((path) => path.startsWith("/app") && !path.startsWith("/app/assets/"));
    expect(pagePaths.length).toBeGreaterThanOrEqual(12);
    const templates = await api<{ data: { id: string }[] }>("GET", "/api/templates");
    const projects = await api<{ data: { id: string }[] }>("GET", "/api/projects");
    for (const path of pagePaths) {
      examples.id = path.startsWith("/app/prompts/")
        ? (templates.json.data[0]?.id ?? "")
        : path.startsWith("/app/projects/")
          ? (projects.json.data[0]?.id ?? "")
          : identifier;
      const url = path.replace(/:(\w+)/g, (_, name: string) => examples[name] ?? "");
      const response = await fresh.goto(`${server.url}${url}`);
      expect(response?.status(), url).toBe(200);
      await fresh.locator("main h1").first().waitFor();
      await fresh.waitForLoadState("networkidle");
      expect(await heading(fresh), url).not.toBe("Not found");
      const name = url === "/app" ? "overview" : url.slice(5).replaceAll("/", "-");
      await fresh.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
      expect(await seriousViolations(fresh), `axe on ${url}`).toEqual([]);
    }
    await page.close();
    await fresh.close();
  });

  it("says a stale triage was refused (412) and offers to reload", async () => {
    const created = await api<{ data: { id: string; identifier: string } }>("POST", "/api/issues", {
      title: "Stale edit target",
      type: "task",
    });
    const page = await newTab();
    await page.goto(`${server.url}/app/issues/${created.json.data.identifier}`);
    await signIn(page);
    await page.getByRole("heading", { level: 1, name: /Stale edit target/ }).waitFor();
    await page.getByLabel("Priority").selectOption("2");
    // Someone else changes the issue while the form holds an unsaved edit.
    expect((await api("PATCH", `/api/issues/${created.json.data.id}`, { priority: 4 })).status).toBe(200);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("The issue changed since this page loaded it").waitFor();
    await expect(page.locator(".failure").textContent()).resolves.toContain("412");
    expect(
      (await api<{ data: { priority: number } }>("GET", `/api/issues/${created.json.data.id}`)).json.data.priority,
    ).toBe(4);
    await page.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => page.getByLabel("Priority").inputValue()).toBe("4");

    // A 409 (the API refused the move: here one answered for it) shows the API's message and offers a reload.
    await page.route("**/api/issues/*", (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({
            status: 409,
            contentType: "application/json",
            body: JSON.stringify({ error: "Cannot move issue from triage to done" }),
          })
        : route.fallback(),
    );
    await page.getByLabel("Status").selectOption("done");
    await page.getByRole("button", { name: "Save changes" }).click();
    const failure = page.locator(".failure", { hasText: "409" });
    await failure.waitFor();
    await expect(failure.textContent()).resolves.toContain("Cannot move issue from triage to done");
    await expect(failure.textContent()).resolves.toContain("conflicts with the issue's current state");
    await failure.getByRole("button", { name: "Reload" }).waitFor();
    await page.unroute("**/api/issues/*");
    await page.close();
  });

  it("signs out on a 401 and shows a banner while the API cannot be reached, until it can", async () => {
    const page = await newTab();
    await page.goto(`${server.url}/app/queue`);
    await signIn(page);
    await page.getByRole("heading", { name: "Queue", level: 1 }).waitFor();

    await page.route("**/api/**", (route) => route.abort("connectionrefused"));
    await page.reload();
    await page.getByRole("alert").filter({ hasText: "Cannot reach the Kaizen API" }).waitFor({ timeout: 20_000 });
    await page.unroute("**/api/**");
    await page
      .getByRole("alert")
      .filter({ hasText: "Cannot reach the Kaizen API" })
      .waitFor({ state: "detached", timeout: 20_000 });
    await page.getByRole("heading", { name: "Queue", level: 1 }).waitFor();

    // The key is revoked (here: replaced by one the API refuses): the tab returns to sign-in.
    await page.evaluate(`sessionStorage.setItem("kaizen.console.apiKey", ${JSON.stringify(WRONG_KEY)})`);
    await page.reload();
    await page.getByText("The API refused this key (401). Sign in with a valid key.").waitFor();
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    expect(page.url()).toBe(`${server.url}/app/queue`);
    await page.close();
  });

  it("starts an experiment from a template's page, shows both arms with intervals, stops it, and says when it ended meanwhile", async () => {
    // A template only this test's issues match (a label and a project of their own), and a draft to try.
    expect((await api("POST", "/api/labels", { name: "experimented", color: "#1b6b37" })).status).toBe(201);
    const project = await api<{ data: { id: string } }>("POST", "/api/projects", { name: "Experiments" });
    const projectId = project.json.data.id;
    const template = await api<{ data: { id: string; activeVersionId: string } }>("POST", "/api/templates", {
      slug: "console-experiment",
      name: "Console experiment",
      conditions: { labels: ["experimented"] },
      specificity: 500,
      content: "Control wording for {{issue.title}}",
    });
    expect(template.status).toBe(201);
    const templateId = template.json.data.id;
    const draft = await api<{ data: { id: string } }>("POST", `/api/templates/${templateId}/versions`, {
      content: "Candidate wording for {{issue.title}}",
    });
    expect(draft.status).toBe(201);
    type Experiment = Schema<"Experiment">;
    const experiments = async () =>
      (await api<{ data: Experiment[] }>("GET", `/api/templates/${templateId}/experiments`)).json.data;

    const page = await newTab();
    await page.goto(`${server.url}/app/prompts/${templateId}`);
    await signIn(page);
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Experiments", level: 2 }) });
    await section.getByRole("heading", { name: "Start an experiment", level: 3 }).waitFor();

    // Start: the draft, half the claims, 8 samples per arm, no automatic promotion.
    const form = section.getByRole("form", { name: "Start an experiment" });
    await expect(form.getByLabel("Candidate").inputValue()).resolves.toBe(draft.json.data.id);
    await form.getByLabel("Traffic (%)").fill("50");
    await form.getByLabel("Min samples per arm").fill("8");
    await form.getByLabel("Promote a winner automatically").uncheck();
    await form.getByRole("button", { name: "Start experiment" }).click();
    await section.getByRole("heading", { name: "Running: v2 against v1", level: 3 }).waitFor();
    const [started] = await experiments();
    expect(started).toMatchObject({
      status: "running",
      candidateVersionId: draft.json.data.id,
      trafficPercent: 50,
      minSamples: 8,
      autoPromote: false,
    });
    await section.getByText("no: a winner is only marked").waitFor();
    await page.locator("td .badge", { hasText: "candidate, 50 %" }).waitFor();

    // Agents work the template's issues: the candidate's complete, the control's fail, until each arm has 2.
    const finishedIn = (experiment: Experiment | undefined) =>
      Math.min(experiment?.arms.control.finished ?? 0, experiment?.arms.candidate.finished ?? 0);
    for (let n = 0; finishedIn((await experiments())[0]) < 2 && n < 40; n++) {
      await api("POST", "/api/issues", {
        title: `Experimented task ${n}`,
        type: "task",
        status: "todo",
        labels: ["experimented"],
        projectId,
      });
      const claim = await api<{
        data: { dispatch: { id: string; token: string }; prompt: { experiment: { arm: string } | null } };
      }>("POST", "/api/dispatch/claim", { agent: "experiment-agent", projectId });
      expect(claim.status).toBe(201);
      const result = claim.json.data.prompt.experiment?.arm === "candidate" ? "done" : "failed";
      const { id, token } = claim.json.data.dispatch;
      const finished = await api(
        "POST",
        `/api/dispatch/${id}/complete`,
        { result, summary: result, usage: { costUsd: result === "done" ? 0.25 : 0.1 } },
        token,
      );
      expect(finished.status).toBe(200);
    }
    const [watched] = await experiments();
    if (!watched) throw new Error("the experiment is gone");
    expect(watched.status).toBe("running");

    // Both arms side by side, each rate and mean with its interval, as the API's figures say.
    await page.reload();
    const arms = section.locator("table.arms");
    await arms.waitFor();
    await expect(arms.locator("thead th").allTextContents()).resolves.toEqual([
      "Measure",
      "Control (v1)",
      "Candidate (v2)",
    ]);
    const row = (measure: string) => arms.locator("tr", { has: page.getByRole("rowheader", { name: measure }) });
    const cells = async (measure: string) => row(measure).locator("td").allTextContents();
    const { control, candidate } = watched.arms;
    await expect(cells("Claims")).resolves.toEqual([String(control.claims), String(candidate.claims)]);
    await expect(cells("Finished")).resolves.toEqual([String(control.finished), String(candidate.finished)]);
    const rates = await cells("Completion rate");
    expect(rates).toEqual([rateText(control.completionRate), rateText(candidate.completionRate)]);
    expect(rates[0]).toMatch(/^0 % \(0–\d+ %\)$/);
    expect(rates[1]).toMatch(/^100 % \(\d+–100 %\)$/);
    await expect(cells("Mean cost")).resolves.toEqual(["$0.100 ($0.100–$0.100)", "$0.250 ($0.250–$0.250)"]);
    await expect(cells("Review score")).resolves.toEqual(["—", "—"]);
    await page.screenshot({ path: join(SHOTS, "template-experiment.png"), fullPage: true });
    expect(await seriousViolations(page), "axe with a running experiment").toEqual([]);

    // The prompts list marks the template while it runs one.
    await page.goto(`${server.url}/app/prompts`);
    const listed = page.locator("tr", { has: page.getByRole("link", { name: "Console experiment" }) });
    await listed.locator(".badge", { hasText: "v2 on 50 %" }).waitFor();
    await expect(page.locator("tbody .badge").count()).resolves.toBe(1);
    expect(await seriousViolations(page), "axe on the prompts list with an experiment").toEqual([]);
    await page.goBack();
    await section.getByRole("heading", { name: "Running: v2 against v1", level: 3 }).waitFor();

    // Stop: asked first, then stopped; it moves to the past experiments with its decision.
    await section.getByRole("button", { name: "Stop experiment" }).click();
    const confirm = section.getByRole("group", { name: "Stop this experiment?" });
    await confirm.getByText("v1 takes every claim again; v2 stays a draft.").waitFor();
    expect(await seriousViolations(page), "axe with the stop to confirm").toEqual([]);
    await confirm.getByRole("button", { name: "Yes, stop it" }).click();
    await section.getByRole("heading", { name: "Past experiments", level: 3 }).waitFor();
    const past = section.locator("tr", { hasText: "stopped on request" });
    await past.locator(".badge", { hasText: "stopped" }).waitFor();
    expect((await experiments())[0]).toMatchObject({ id: watched.id, status: "stopped" });
    await section.getByRole("heading", { name: "Start an experiment", level: 3 }).waitFor();
    await past.getByText("At the decision").click();
    await past.locator("table.arms").waitFor();
    expect(await seriousViolations(page), "axe with a past experiment's figures").toEqual([]);

    // Another one, ended elsewhere while the page asks whether to stop it: the API's 409 says so.
    await form.getByRole("button", { name: "Start experiment" }).click();
    await section.getByRole("heading", { name: "Running: v2 against v1", level: 3 }).waitFor();
    const [second] = await experiments();
    if (!second) throw new Error("no second experiment");
    // The form starts over from its defaults.
    expect(second).toMatchObject({ status: "running", trafficPercent: 10, minSamples: 20, autoPromote: true });
    await section.getByRole("button", { name: "Stop experiment" }).click();
    expect((await api("DELETE", `/api/templates/${templateId}/experiments/${second.id}`)).status).toBe(200);
    await confirm.getByRole("button", { name: "Yes, stop it" }).click();
    const failure = section.locator(".failure", { hasText: "409" });
    await failure.waitFor();
    await expect(failure.textContent()).resolves.toContain(`Experiment ${second.id} is stopped`);
    await expect(failure.textContent()).resolves.toContain("The experiment or the template changed meanwhile");
    await section.getByRole("heading", { name: "Start an experiment", level: 3 }).waitFor();
    await expect(section.locator("tr", { hasText: "stopped on request" }).count()).resolves.toBe(2);
    await page.close();
  });

  it("kept the key out of URLs, cookies and storage that outlives the tab, and reached no other host", async () => {
    expect(requested.length).toBeGreaterThan(20);
    expect(requested.filter((url) => url.includes(TEST_API_KEY))).toEqual([]);
    expect(await browser.context.cookies()).toEqual([]);
    expect(requestsElsewhere(requested)).toEqual([]);
    expect(pageErrors).toEqual([]);
    const shell = await (await fetch(`${server.url}/app`)).text();
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(shell)?.[1];
    expect(script).toBeDefined();
    expect(await (await fetch(`${server.url}${script}`)).text()).not.toContain(TEST_API_KEY);
  });
});
