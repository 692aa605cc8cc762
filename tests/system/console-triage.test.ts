/**
 * Triage in the web console (docs/api.md#console) in headless Chromium: an issue made from the
 * issues page with its description rendered as Markdown and nothing of it run (raw HTML escaped,
 * no `javascript:` link); a project's automation and a signal's source and project shown where
 * they happened; a duplicate merged after naming the issue that stays and confirming, with the
 * API's 404 and 409 shown as it gives them; the merged issue's fingerprints and its impact in
 * the queue; an issue review sent back, with its pull request and the review's words. Each page
 * passes an axe-core scan.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { consoleDriver, SHOTS } from "../helpers/console-driver.js";
import { codehostDelivery, issueEvent } from "../helpers/deliveries.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

type Issue = Schema<"Issue">;

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const { requested, pageErrors, newTab, api, signIn, seriousViolations } = consoleDriver(() => ({ server, browser }));

beforeAll(async () => {
  server = await startTestServer("console_triage");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** An issue event of the code host, delivered; the issue it opened or grouped into. */
async function deliver(action: string, number: number, title: string, repo = "octo-org/shop"): Promise<Issue> {
  const delivery = codehostDelivery("issues", issueEvent(action, number, title, repo));
  const response = await fetch(`${server.url}${delivery.path}`, delivery.init);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { issue: Issue } }).data.issue;
}

const issue = async (id: string) => (await api<{ data: Issue }>("GET", `/api/issues/${id}`)).json.data;

describe("triage in the console", () => {
  it("makes an issue from the issues page and renders its Markdown without running any of it", async () => {
    const project = await api<{ data: { id: string } }>("POST", "/api/projects", { name: "Payments" });
    expect((await api("POST", "/api/labels", { name: "refunds", color: "#1f5fbf" })).status).toBe(201);
    const page = await newTab();
    await page.goto(`${server.url}/app/issues`);
    await signIn(page);
    await page.getByRole("button", { name: "New issue" }).click();
    const form = page.getByRole("form", { name: "New issue" });
    await form.getByLabel("Title").fill("Refunds fail for EUR");
    await form.getByLabel("Type").selectOption("hypothesis");
    await form.getByLabel("Priority").selectOption("2");
    await form.getByLabel("Project").selectOption({ label: "Payments" });
    await form.getByRole("checkbox", { name: "refunds" }).check();
    const description = [
      "**Steps** to see it: open [the run](https://ci.example/runs/7).",
      "",
      "- <script>window.pwned = 1</script>",
      '- <img src="x" onerror="window.pwned = 2">',
      "- [bad](javascript:window.pwned=3)",
    ].join("\n");
    await form.getByLabel("Description (Markdown)").fill(description);
    expect(await seriousViolations(page), "axe with the new-issue form").toEqual([]);
    await form.getByRole("button", { name: "Create issue" }).click();
    const title = page.getByRole("heading", { level: 1, name: /^KZN-\d+: Refunds fail for EUR$/ });
    await title.waitFor();
    const identifier = /\/app\/issues\/(KZN-\d+)$/.exec(page.url())?.[1] ?? "";
    expect(await issue(identifier)).toMatchObject({
      title: "Refunds fail for EUR",
      type: "hypothesis",
      priority: 2,
      status: "triage",
      projectId: project.json.data.id,
      labels: ["refunds"],
      description,
    });

    const rendered = page.locator(".markdown").first();
    await rendered.locator("strong", { hasText: "Steps" }).waitFor();
    const link = rendered.getByRole("link", { name: "the run" });
    await expect(link.getAttribute("href")).resolves.toBe("https://ci.example/runs/7");
    await expect(link.getAttribute("rel")).resolves.toBe("noopener noreferrer nofollow");
    await expect(rendered.locator("script, img").count()).resolves.toBe(0);
    await expect(rendered.textContent()).resolves.toContain("<script>window.pwned = 1</script>");
    await expect(rendered.textContent()).resolves.toContain('<img src="x" onerror="window.pwned = 2">');
    await expect(rendered.getByRole("link", { name: "bad" }).count()).resolves.toBe(0);
    expect(await page.evaluate("typeof window.pwned")).toBe("undefined");

    await page.getByLabel("Add a comment").fill("Fixed by `retry`; see [the list](/app/issues) <b>now</b>");
    await page.getByRole("button", { name: "Comment" }).click();
    const comment = page.locator(".comment", { hasText: "Fixed by" });
    await comment.locator("code", { hasText: "retry" }).waitFor();
    await expect(comment.getByRole("link", { name: "the list" }).getAttribute("href")).resolves.toBe("/app/issues");
    await expect(comment.locator("b").count()).resolves.toBe(0);
    await expect(comment.textContent()).resolves.toContain("<b>now</b>");
    await page.screenshot({ path: join(SHOTS, "issue-markdown.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on an issue with Markdown").toEqual([]);
    await page.close();
  });

  it("shows a move made by automation, and where a signal came from and which project it went to", async () => {
    const shop = await api<{ data: { id: string } }>("POST", "/api/projects", {
      name: "Shop",
      sources: { codehost: ["acme/shop"] },
      automation: { acceptAtPriority: 3 },
    });
    const opened = await deliver("opened", 5, "Basket forgets items", "acme/shop");
    expect(opened).toMatchObject({ status: "todo", projectId: shop.json.data.id });

    const page = await newTab();
    await page.goto(`${server.url}/app/issues/${opened.identifier}`);
    await signIn(page);
    await page.locator(".status-change", { hasText: /^Moved from triage to todo by automation/ }).waitFor();
    const summary = page.locator("summary", { hasText: "Basket forgets items" });
    await expect(summary.textContent()).resolves.toContain("from acme/shop");
    await expect(summary.getByRole("link", { name: "Shop" }).getAttribute("href")).resolves.toBe(
      `/app/projects/${shop.json.data.id}`,
    );
    const fingerprints = page.locator("ul.fingerprints code");
    await expect(fingerprints.allTextContents()).resolves.toEqual(opened.fingerprints);
    expect(opened.fingerprints).toHaveLength(1);

    await page.goto(`${server.url}/app/providers`);
    const row = page.locator("tr", { hasText: "Basket forgets items" });
    await row.getByText("acme/shop").waitFor();
    await expect(row.getByRole("link", { name: "Shop" }).getAttribute("href")).resolves.toBe(
      `/app/projects/${shop.json.data.id}`,
    );
    await expect(row.getByRole("link", { name: "Basket forgets items" }).getAttribute("href")).resolves.toBe(
      `/app/issues/${opened.id}`,
    );
    expect(await seriousViolations(page), "axe on the providers page with routed signals").toEqual([]);
    await page.close();
  });

  it("merges a duplicate after naming the issue that stays and confirming, and shows the API's 404 and 409", async () => {
    const source = await deliver("opened", 11, "Cart total wrong");
    const target = await deliver("opened", 12, "Totals off by one");
    expect((await deliver("edited", 12, "Totals off by one")).signalCount).toBe(2);

    const page = await newTab();
    await page.goto(`${server.url}/app/issues/${source.identifier}`);
    await signIn(page);
    const merge = page.locator("section", {
      has: page.getByRole("heading", { level: 2, name: "Merge as a duplicate" }),
    });
    const stays = merge.getByLabel("Issue that stays (KZN-…)");

    // An issue the API does not know: its 404, as it says it.
    const unknown = await api<{ error: string }>("GET", "/api/issues/KZN-99999");
    expect(unknown.status).toBe(404);
    await stays.fill("KZN-99999");
    await merge.getByRole("button", { name: "Merge…" }).click();
    const notFound = merge.locator(".failure", { hasText: "404" });
    await expect.poll(() => notFound.textContent()).toContain(unknown.json.error);

    // Into itself: asked, then refused with the API's 409.
    const itself = await api<{ error: string }>("POST", `/api/issues/${source.id}/merge`, { intoId: source.id });
    expect(itself.status).toBe(409);
    await stays.fill(source.identifier);
    await merge.getByRole("button", { name: "Merge…" }).click();
    await merge
      .getByRole("group", { name: `Merge ${source.identifier} into ${source.identifier}?` })
      .getByRole("button", { name: "Yes, merge" })
      .click();
    const refused = merge.locator(".failure", { hasText: "409" });
    await expect.poll(() => refused.textContent()).toContain(itself.json.error);
    await expect(refused.textContent()).resolves.toContain("The API refused this merge; neither issue changed.");
    expect((await issue(source.id)).status).toBe("triage");

    // Into the other (named in lower case): the question shows which issue stays, then the result.
    await stays.fill(target.identifier.toLowerCase());
    await merge.getByRole("button", { name: "Merge…" }).click();
    const confirm = merge.getByRole("group", { name: `Merge ${source.identifier} into ${target.identifier}?` });
    await confirm.getByText("Totals off by one").waitFor();
    // The question takes the keyboard's focus.
    await expect.poll(() => page.evaluate("document.activeElement?.textContent")).toBe("Yes, merge");
    expect(await seriousViolations(page), "axe with a merge to confirm").toEqual([]);
    await confirm.getByRole("button", { name: "Yes, merge" }).click();
    const result = merge.getByRole("status");
    await expect
      .poll(() => result.textContent())
      .toBe(`Merged into ${target.identifier} Totals off by one: it now has 3 signals, 2 fingerprints and priority 3.`);
    await page.locator("h1 + p .badge", { hasText: "canceled" }).waitFor();
    await page.locator(".status-change", { hasText: /^Moved from triage to canceled by api/ }).waitFor();
    const merged = await issue(target.id);
    expect((await issue(source.id)).status).toBe("canceled");
    expect(merged).toMatchObject({ signalCount: 3, fingerprints: [...target.fingerprints, ...source.fingerprints] });
    await page.screenshot({ path: join(SHOTS, "issue-merged.png"), fullPage: true });

    // The issue that stays lists both fingerprints; in the queue its three signals score an impact of 10.
    await result.getByRole("link", { name: target.identifier }).click();
    await page.getByRole("heading", { level: 1, name: `${target.identifier}: Totals off by one` }).waitFor();
    await expect.poll(() => page.locator("ul.fingerprints code").allTextContents()).toEqual(merged.fingerprints);
    expect((await api("PATCH", `/api/issues/${target.id}`, { status: "todo" })).status).toBe(200);
    await page.goto(`${server.url}/app/queue`);
    const row = page.locator("tr", { has: page.getByRole("link", { name: target.identifier, exact: true }) });
    await expect.poll(() => row.locator("td").last().textContent()).toBe("10");
    await expect(row.getByRole("link", { name: "Totals off by one" }).getAttribute("href")).resolves.toBe(
      `/app/issues/${target.identifier}`,
    );
    await page.close();
  });

  it("shows an issue in review with its pull request and the review that sent it back", async () => {
    // Whatever earlier tests queued is done with, so the claim takes this issue.
    const queued = await api<{ data: Issue[] }>("GET", "/api/issues?status=todo&limit=100");
    for (const left of queued.json.data) await api("PATCH", `/api/issues/${left.id}`, { status: "backlog" });
    const created = await api<{ data: Issue }>("POST", "/api/issues", {
      title: "Empty cart total",
      type: "task",
      status: "todo",
    });
    const claim = await api<{ data: { dispatch: { id: string; token: string }; issue: Issue } }>(
      "POST",
      "/api/dispatch/claim",
      { agent: "fixer" },
    );
    expect(claim.json.data.issue.id).toBe(created.json.data.id);
    const url = "https://codehost.example/octo-org/shop/pull/31";
    const completed = await fetch(`${server.url}/api/dispatch/${claim.json.data.dispatch.id}/complete`, {
      method: "POST",
      headers: { Authorization: `Bearer ${claim.json.data.dispatch.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        result: "done",
        summary: "Totals 0",
        pullRequests: [{ number: 31, title: "Total 0", url }],
      }),
    });
    expect(completed.status).toBe(200);
    const review = {
      action: "submitted",
      review: {
        state: "changes_requested",
        body: "Still NaN when the cart is empty.",
        user: { login: "reviewer-b" },
        html_url: `${url}#pullrequestreview-1`,
        submitted_at: "2026-11-20T10:00:00Z",
      },
      pull_request: { number: 31, title: "Total 0", html_url: url, head: { ref: "fix-total" } },
      repository: { full_name: "octo-org/shop" },
    };
    const delivery = codehostDelivery("pull_request_review", review);
    expect((await fetch(`${server.url}${delivery.path}`, delivery.init)).status).toBe(201);

    const page = await newTab();
    await page.goto(`${server.url}/app/issues/${created.json.data.identifier}`);
    await signIn(page);
    await page.getByRole("heading", { level: 2, name: "Review · sent back 1 time" }).waitFor();
    await expect(page.getByRole("link", { name: "octo-org/shop#31" }).getAttribute("href")).resolves.toBe(url);
    await expect
      .poll(() => page.locator("ol.feedback li").first().textContent())
      .toContain("changes requested reviewer-b on #31");
    await expect
      .poll(() => page.locator("ol.feedback pre").first().textContent())
      .toBe("Still NaN when the cart is empty.");
    await page.locator("h1 + p .badge", { hasText: "todo" }).waitFor();
    expect(await seriousViolations(page), "axe on an issue sent back by review").toEqual([]);
    await page.screenshot({ path: join(SHOTS, "issue-review.png"), fullPage: true });
    await page.close();
  });

  it("raised no error in a page and reached no other host", () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requestsElsewhere(requested)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
