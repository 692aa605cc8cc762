/**
 * What became of agents' work (docs/api.md#outcomes) in the web console (docs/api.md#console), in headless
 * Chromium: code-host issues worked by agents through the API, one sent back by review and then merged and
 * regressed, another merged and its watch ended verified by a sweep; the prompts list and the template's
 * page show the version's outcomes, verified rate and people's reviews, the agents page (reached from the
 * navigation) each agent's figures for the period chosen, and an experiment's arms what became of each
 * arm's work with the verified rate's interval. Each page passes an axe-core scan.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { rateText } from "../../client/measures.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { consoleDriver, SHOTS } from "../helpers/console-driver.js";
import { codehostDelivery, issueEvent, mergedPullRequest } from "../helpers/deliveries.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

type Issue = Schema<"Issue">;
type Version = Schema<"Version">;
type Experiment = Schema<"Experiment">;
type AgentPerformance = Schema<"AgentPerformance">;
type Claimed = {
  dispatch: { id: string; token: string };
  issue: Issue;
  prompt: { experiment: { arm: string } | null };
};

const REPO = "octo-org/outcomes";
const HOUR = 3_600_000;

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const { requested, pageErrors, newTab, api, signIn, seriousViolations } = consoleDriver(() => ({ server, browser }));
let projectId = "";
let templateId = "";

beforeAll(async () => {
  server = await startTestServer("console_outcomes");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
  // Merged fixes are watched for an hour; the template takes every issue labelled for it.
  expect((await api("POST", "/api/labels", { name: "outcomes", color: "#1b6b37" })).status).toBe(201);
  projectId = (await api<{ data: { id: string } }>("POST", "/api/projects", { name: "Outcomes", verifyHours: 1 })).json
    .data.id;
  const template = await api<{ data: { id: string } }>("POST", "/api/templates", {
    slug: "console-outcomes",
    name: "Console outcomes",
    conditions: { labels: ["outcomes"] },
    specificity: 600,
    content: "Fix {{issue.title}}",
  });
  expect(template.status).toBe(201);
  templateId = template.json.data.id;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A signed code-host delivery, received; the issue it touched. */
async function deliver(event: string, body: unknown): Promise<Issue | null> {
  const delivery = codehostDelivery(event, body);
  const response = await fetch(`${server.url}${delivery.path}`, delivery.init);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { issue: Issue | null } }).data.issue;
}

/** A code-host issue opened and made ready for the template's agents. */
async function openIssue(number: number, title: string): Promise<Issue> {
  const opened = await deliver("issues", issueEvent("opened", number, title, REPO));
  if (!opened) throw new Error(`issue #${number} opened nothing`);
  const ready = await api("PATCH", `/api/issues/${opened.id}`, { status: "todo", labels: ["outcomes"], projectId });
  expect(ready.status).toBe(200);
  return opened;
}

/** `agent` claims `issue` and completes it with pull request `number`, reporting $0.12. */
async function claimAndComplete(agent: string, issue: Issue, number: number): Promise<Claimed> {
  const claim = await api<{ data: Claimed }>("POST", "/api/dispatch/claim", { agent });
  expect(claim.status).toBe(201);
  expect(claim.json.data.issue.id).toBe(issue.id);
  const { id, token } = claim.json.data.dispatch;
  const completed = await api(
    "POST",
    `/api/dispatch/${id}/complete`,
    {
      result: "done",
      summary: `Fix for ${issue.title}`,
      pullRequests: [{ number, title: `Fix ${number}`, url: `https://codehost.example/${REPO}/pull/${number}` }],
      usage: { costUsd: 0.12 },
    },
    token,
  );
  expect(completed.status).toBe(200);
  return claim.json.data;
}

/** Pull request `number` merged at `mergedAt`; the issue's watch starts there. */
async function merge(number: number, mergedAt: Date): Promise<void> {
  const body = mergedPullRequest(number, {}, REPO);
  body.pull_request.merged_at = mergedAt.toISOString().replace(/\.\d{3}Z$/, "Z");
  expect((await deliver("pull_request", body))?.status).toBe("done");
}

/** Merged more than the project's hour ago: the next sweep ends the watch verified. */
async function mergeAndVerify(number: number, issue: Issue): Promise<void> {
  await merge(number, new Date(Date.now() - HOUR - 60_000));
  await server.stack.sweeps.sweepNow();
  const watched = await api<{ data: Issue }>("GET", `/api/issues/${issue.id}`);
  expect(watched.json.data.verification?.status).toBe("verified");
}

/** A table's row that has `text`, as its column header → cell text. */
async function rowOf(table: Locator, text: string): Promise<Record<string, string>> {
  const headers = await table.locator("thead th").allTextContents();
  const cells = await table.locator("tbody tr", { hasText: text }).first().locator("th, td").allTextContents();
  return Object.fromEntries(headers.map((header, index) => [header, (cells[index] ?? "").trim()]));
}

const versions = async () => (await api<{ data: Version[] }>("GET", `/api/templates/${templateId}/versions`)).json.data;

async function signedIn(path: string): Promise<Page> {
  const page = await newTab();
  await page.goto(`${server.url}${path}`);
  await signIn(page);
  return page;
}

describe("outcomes in the console", () => {
  it("shows what became of a version's work on the prompts and template pages, and each agent's on the agents page", async () => {
    // Issue 1: review sends the first attempt back; the second merges, and the problem comes back.
    const first = await openIssue(61, "Coupon applied twice");
    await claimAndComplete("outcome-agent", first, 51);
    const review = {
      action: "submitted",
      review: {
        state: "changes_requested",
        body: "Still applied twice on reload.",
        user: { login: "reviewer-c" },
        html_url: `https://codehost.example/${REPO}/pull/51#pullrequestreview-1`,
        submitted_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      },
      pull_request: { number: 51, title: "Fix 51", html_url: `https://codehost.example/${REPO}/pull/51` },
      repository: { full_name: REPO },
    };
    expect((await deliver("pull_request_review", review))?.status).toBe("todo");
    await claimAndComplete("outcome-agent", first, 52);
    await merge(52, new Date());
    expect((await deliver("issues", issueEvent("reopened", 61, "Coupon applied twice", REPO)))?.status).toBe("todo");
    expect((await api("PATCH", `/api/issues/${first.id}`, { status: "backlog" })).status).toBe(200);
    // Issue 2: merged, and its watch ends quiet.
    const second = await openIssue(62, "Tax rounded down");
    await claimAndComplete("outcome-agent", second, 53);
    await mergeAndVerify(53, second);

    const [version] = await versions();
    if (!version) throw new Error("no version");
    expect(version).toMatchObject({
      version: 1,
      outcomes: { completed: 3, merged: 2, reworked: 1, regressed: 1, verified: 1 },
      verifiedRate: 0.5,
    });

    // The prompts list: the active version's outcomes and verified rate.
    const page = await signedIn("/app/prompts");
    const prompts = page.getByRole("table");
    await prompts.getByRole("link", { name: "Console outcomes" }).waitFor();
    await expect(rowOf(prompts, "Console outcomes")).resolves.toMatchObject({
      "Active version": "v1",
      Used: "3",
      Completion: "100 %",
      Merged: "2",
      Reworked: "1",
      Regressed: "1",
      Verified: "1",
      "Verified rate": "50 %",
      "Mean cost": "$0.120",
    });
    await page.screenshot({ path: join(SHOTS, "prompts-outcomes.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the prompts list with outcomes").toEqual([]);

    // The template's page: each version's outcomes and people's reviews of its pull requests.
    await page.getByRole("link", { name: "Console outcomes" }).click();
    const outcomes = page.getByRole("table", { name: "What became of the work" });
    await outcomes.waitFor();
    await expect(rowOf(outcomes, "v1")).resolves.toEqual({
      Version: "v1",
      Completed: "3",
      Merged: "2",
      Reworked: "1",
      Regressed: "1",
      Verified: "1",
      "Verified rate": "50 %",
      Approved: String(version.humanReviews.approved),
      "Changes requested": String(version.humanReviews.changesRequested),
      Commented: String(version.humanReviews.commented),
    });
    await page.screenshot({ path: join(SHOTS, "template-outcomes.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on a template's outcomes").toEqual([]);

    // The agents page, from the navigation: the last 7 days by default, then today only.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Agents" }).click();
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.url}/app/agents`);
    const agents = page.getByRole("table");
    await agents.getByText("outcome-agent").waitFor();
    const expected = {
      Agent: "outcome-agent",
      Claims: "3",
      Completed: "3",
      Failed: "0",
      Released: "0",
      Stopped: "0",
      Expired: "0",
      Merged: "2",
      Reworked: "1",
      Regressed: "1",
      Verified: "1",
      "Verified rate": "50 %",
      Cost: "$0.360",
      "Usage reports": "3",
    };
    await expect(rowOf(agents, "outcome-agent")).resolves.toEqual(expected);
    await page.getByText("Page 1 of 1 (1 in all)").waitFor();
    await page.screenshot({ path: join(SHOTS, "agents.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on the agents page").toEqual([]);

    await page.getByLabel("Period").selectOption("1");
    await expect.poll(() => page.url()).toBe(`${server.url}/app/agents?days=1`);
    const today = await api<{ data: AgentPerformance[]; total: number }>("GET", "/api/dashboard/agents?days=1");
    const [row] = today.json.data;
    if (!row) throw new Error("no agent today");
    await expect
      .poll(() => rowOf(agents, "outcome-agent"))
      .toMatchObject({ Claims: String(row.claims), Merged: String(row.merged), Verified: String(row.verified) });
    await expect(page.getByLabel("Period").inputValue()).resolves.toBe("1");
    await page.close();
  });

  it("shows each experiment arm's merged, reworked, regressed and verified work with its verified rate's interval", async () => {
    const draft = await api<{ data: { id: string } }>("POST", `/api/templates/${templateId}/versions`, {
      content: "Fix {{issue.title}}, with a test",
    });
    const started = await api<{ data: Experiment }>("POST", `/api/templates/${templateId}/experiments`, {
      candidateVersionId: draft.json.data.id,
      trafficPercent: 50,
      minSamples: 20,
      autoPromote: false,
    });
    expect(started.status).toBe(201);
    const issue = await openIssue(63, "Shipping free twice");
    const claimed = await claimAndComplete("experiment-agent", issue, 54);
    const arm = claimed.prompt.experiment?.arm as "control" | "candidate" | undefined;
    if (!arm) throw new Error("the claim is in no arm");
    await mergeAndVerify(54, issue);
    const experiment = (
      await api<{ data: Experiment }>("GET", `/api/templates/${templateId}/experiments/${started.json.data.id}`)
    ).json.data;
    expect(experiment.arms[arm]).toMatchObject({ merged: 1, reworked: 0, regressed: 0, verified: 1 });

    const page = await signedIn(`/app/prompts/${templateId}`);
    const arms = page.locator("table.arms");
    await arms.waitFor();
    const cells = (measure: string) =>
      arms.locator("tr", { has: page.getByRole("rowheader", { name: measure, exact: true }) }).locator("td");
    const { control, candidate } = experiment.arms;
    for (const measure of ["merged", "reworked", "regressed", "verified"] as const) {
      const label = `${measure[0]?.toUpperCase()}${measure.slice(1)}`;
      await expect(cells(label).allTextContents()).resolves.toEqual([
        String(control[measure]),
        String(candidate[measure]),
      ]);
    }
    const rates = await cells("Verified rate").allTextContents();
    expect(rates).toEqual([rateText(control.verifiedRate), rateText(candidate.verifiedRate)]);
    expect(rates[arm === "control" ? 0 : 1]).toMatch(/^100 % \(\d+–100 %\)$/);
    expect(rates[arm === "control" ? 1 : 0]).toBe("—");
    await page.screenshot({ path: join(SHOTS, "template-experiment-outcomes.png"), fullPage: true });
    expect(await seriousViolations(page), "axe on an experiment's outcomes").toEqual([]);
    await page.close();
  });

  it("raised no error in a page and reached no other host", () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requestsElsewhere(requested)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
