/**
 * Watching and steering an agent at work from the web console (docs/console.md#an-agent-at-work)
 * in headless Chromium: an agent claims with the API and posts activities with its token, and the
 * issue page shows each within 3 s without a reload, as text, with its cost against its budget;
 * its question shows an answer box, and the answer makes it active and joins the stream; a stop
 * with a reason and where the issue goes, after a confirmation, ends it, and the history keeps
 * its activities and the reason. On a project that asks for plan approval, a plan shows approve
 * and reject: a rejection sends the agent back to its plan, an approval lets it work; a stop the
 * dispatch had already had elsewhere shows the API's 409. Each page passes an axe-core scan.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { launchChromium, requestsElsewhere } from "../helpers/browser.js";
import { consoleDriver, SHOTS } from "../helpers/console-driver.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

type Dispatch = Schema<"Dispatch">;
type Issue = Schema<"Issue">;
type Activity = Schema<"Activity">;

/** How soon a new activity must show: the page asks every 2 s. */
const LIVE_MS = 3_000;

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const { requested, pageErrors, newTab, api, signIn, seriousViolations } = consoleDriver(() => ({ server, browser }));

beforeAll(async () => {
  server = await startTestServer("console_steering");
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A project with `settings`, an issue of it ready in todo, claimed by `agent`: the dispatch and its token. */
async function claimed(
  agent: string,
  title: string,
  settings: Record<string, unknown>,
): Promise<{ issue: Issue; id: string; token: string }> {
  const project = await api<{ data: { id: string } }>("POST", "/api/projects", { name: title, ...settings });
  expect(project.status).toBe(201);
  const projectId = project.json.data.id;
  const issue = await api<{ data: Issue }>("POST", "/api/issues", { title, type: "task", status: "todo", projectId });
  expect(issue.status).toBe(201);
  const claim = await api<{ data: { dispatch: { id: string; token: string } } }>("POST", "/api/dispatch/claim", {
    agent,
    projectId,
  });
  expect(claim.status).toBe(201);
  return { issue: issue.json.data, ...claim.json.data.dispatch };
}

/** The agent posts an activity with its token. */
async function post(dispatch: { id: string; token: string }, activity: Record<string, unknown>): Promise<Activity> {
  const posted = await api<{ data: Activity }>(
    "POST",
    `/api/dispatch/${dispatch.id}/activities`,
    activity,
    dispatch.token,
  );
  expect(posted.status).toBe(201);
  return posted.json.data;
}

const dispatchOf = async (id: string) => (await api<{ data: Dispatch }>("GET", `/api/dispatch/${id}`)).json.data;

async function issuePage(identifier: string): Promise<Page> {
  const page = await newTab();
  await page.goto(`${server.url}/app/issues/${identifier}`);
  await signIn(page);
  return page;
}

/** The activity of the log that says `body`. */
const entry = (log: Locator, body: string) => log.locator(".activity", { hasText: body });

describe("an agent at work in the console", () => {
  it("shows activities as the agent posts them, answers its question, and stops it with a reason", async () => {
    const dispatch = await claimed("steer-agent", "Coupons applied twice", { limits: { maxCostPerDispatchUsd: 2 } });
    const { issue } = dispatch;
    await post(dispatch, { type: "thought", body: "Reading the coupon code", usage: { costUsd: 0.4 } });

    const page = await issuePage(issue.identifier);
    const atWork = page.getByRole("region", { name: "Agent at work" });
    const log = atWork.getByRole("log");
    await entry(log, "Reading the coupon code").waitFor();
    await atWork.getByText("Cost so far: $0.40 of its $2.00 budget (20 %)").waitFor();
    await expect(atWork.locator(".badge", { hasText: "active" }).count()).resolves.toBe(1);

    // Posted while the page is open: it shows without a reload, as text (no element of it made).
    await post(dispatch, { type: "action", body: "Ran <b>npm test</b>: 2 failures" });
    const action = entry(log, "Ran <b>npm test</b>: 2 failures");
    await action.waitFor({ timeout: LIVE_MS });
    await expect(action.locator("b").count()).resolves.toBe(0);
    await expect(action.locator(".activity-head").textContent()).resolves.toMatch(
      /^action steer-agent \(agent\) .+ #2$/,
    );

    // A question: the dispatch waits, and the page offers the answer box.
    await post(dispatch, { type: "elicitation", body: "Keep the old coupon codes working?", usage: { costUsd: 0.9 } });
    await entry(log, "Keep the old coupon codes working?").waitFor({ timeout: LIVE_MS });
    const answer = atWork.getByRole("form", { name: "Answer its question" });
    await answer.getByLabel("Your answer").waitFor();
    await atWork.getByText("waits for an answer").waitFor();
    await atWork.getByText("Cost so far: $0.90 of its $2.00 budget (45 %)").waitFor();
    expect(await dispatchOf(dispatch.id)).toMatchObject({ status: "waiting", waitingFor: "input" });
    expect(await seriousViolations(page), "axe on an agent waiting for an answer").toEqual([]);

    await answer.getByLabel("Your answer").fill("Yes, until the end of March.");
    await answer.getByRole("button", { name: "Send answer" }).click();
    await expect.poll(async () => (await dispatchOf(dispatch.id)).status).toBe("active");
    const reply = entry(log, "Yes, until the end of March.");
    await reply.waitFor({ timeout: LIVE_MS });
    await expect(reply.locator(".activity-head").textContent()).resolves.toMatch(/^message operator \(person\) /);
    await atWork.getByRole("form", { name: "Message the agent" }).waitFor();
    await answer.waitFor({ state: "detached" });
    await page.screenshot({ path: join(SHOTS, "issue-at-work.png"), fullPage: true });

    // Stop: a reason, where the issue goes, and a confirmation.
    const stop = atWork.getByRole("form", { name: "Stop the agent" });
    await stop.getByLabel("Reason").fill("Going the wrong way: it edits the payments module");
    await stop.getByLabel(`Then move ${issue.identifier} to`).selectOption("backlog");
    await stop.getByRole("button", { name: "Stop…" }).click();
    const confirm = stop.getByRole("group", {
      name: `Stop steer-agent (attempt 1) and move ${issue.identifier} to backlog?`,
    });
    await confirm.waitFor();
    expect((await dispatchOf(dispatch.id)).status).toBe("active");
    await confirm.getByRole("button", { name: "Yes, stop it" }).click();
    await expect
      .poll(async () => {
        const { status, stopReason } = await dispatchOf(dispatch.id);
        return { status, stopReason };
      })
      .toEqual({ status: "stopped", stopReason: "Going the wrong way: it edits the payments module" });
    const moved = await api<{ data: Issue }>("GET", `/api/issues/${issue.id}`);
    expect(moved.json.data.status).toBe("backlog");

    // The page shows how it ended, and offers nothing more to do to it.
    const ended = page.getByRole("region", { name: "Agent's work ended: stopped" });
    await ended.getByText("Stopped: Going the wrong way: it edits the payments module").waitFor();
    await expect(ended.getByRole("form").count()).resolves.toBe(0);
    await page.locator("h1 + p .badge", { hasText: "backlog" }).waitFor();
    const refused = await api(
      "POST",
      `/api/dispatch/${dispatch.id}/activities`,
      { type: "thought", body: "Still here" },
      dispatch.token,
    );
    expect(refused.status).toBe(409);

    // The history keeps the ended dispatch: its reason and, opened, its activities, read only.
    const history = page.getByRole("region", { name: "Dispatch history" });
    const row = history.locator(".dispatch", { hasText: "steer-agent" });
    await row.getByText("Stopped: Going the wrong way: it edits the payments module").waitFor();
    await row.getByText("Activities").click();
    const past = row.getByRole("log");
    await entry(past, "Yes, until the end of March.").waitFor();
    await expect(past.locator(".activity").count()).resolves.toBe(4);
    await expect(row.getByRole("textbox").count()).resolves.toBe(0);
    expect(await seriousViolations(page), "axe on a stopped dispatch").toEqual([]);
    await page.close();
  });

  it("approves a plan on a project that asks for it, after a rejection, and shows a 409 when it moved on meanwhile", async () => {
    const dispatch = await claimed("plan-agent", "Tax rounded down", { autonomy: { planApproval: true } });
    const { issue } = dispatch;
    expect(await dispatchOf(dispatch.id)).toMatchObject({ planApproved: false, costBudgetUsd: null });
    await post(dispatch, { type: "plan", body: "1. Add a failing test\n2. Round half up" });

    const page = await issuePage(issue.identifier);
    const atWork = page.getByRole("region", { name: "Agent at work" });
    const log = atWork.getByRole("log");
    const decision = atWork.getByRole("region", { name: "Its plan waits for your approval" });
    await decision.locator("blockquote", { hasText: "Round half up" }).waitFor();
    await atWork.getByText("waits for approval of its plan").waitFor();
    await atWork.getByText("Cost so far: none reported, no budget").waitFor();
    await atWork.getByText("Plan not approved yet").waitFor();
    expect(await seriousViolations(page), "axe on a plan waiting for approval").toEqual([]);

    // Rejected with feedback: it works on, and must plan again.
    const reject = decision.getByRole("form", { name: "Reject the plan" });
    await expect(reject.getByRole("button", { name: "Reject plan" }).isDisabled()).resolves.toBe(true);
    await reject.getByLabel("What to change").fill("Cover refunds too");
    await reject.getByRole("button", { name: "Reject plan" }).click();
    await expect.poll(async () => (await dispatchOf(dispatch.id)).status).toBe("active");
    const rejection = entry(log, "Cover refunds too");
    await rejection.waitFor({ timeout: LIVE_MS });
    await expect(rejection.locator(".badge").textContent()).resolves.toBe("plan rejected");
    await decision.waitFor({ state: "detached" });

    // A new plan, approved with a note.
    await post(dispatch, { type: "plan", body: "1. Add failing tests for sales and refunds\n2. Round half up" });
    await decision.locator("blockquote", { hasText: "sales and refunds" }).waitFor({ timeout: LIVE_MS + 2_000 });
    const approve = decision.getByRole("form", { name: "Approve the plan" });
    await approve.getByLabel("Note to the agent").fill("Go ahead");
    await approve.getByRole("button", { name: "Approve plan" }).click();
    await expect
      .poll(async () => {
        const { status, planApproved } = await dispatchOf(dispatch.id);
        return { status, planApproved };
      })
      .toEqual({ status: "active", planApproved: true });
    const approval = entry(log, "Go ahead");
    await approval.waitFor({ timeout: LIVE_MS });
    await expect(approval.locator(".badge").textContent()).resolves.toBe("plan approved");
    await atWork.getByText("Plan approved.").waitFor();

    // Stopped elsewhere while the page asks to confirm a stop: the page's stop is the API's 409.
    const stop = atWork.getByRole("form", { name: "Stop the agent" });
    await stop.getByLabel("Reason").fill("Not needed after all");
    await stop.getByRole("button", { name: "Stop…" }).click();
    const yes = stop.getByRole("button", { name: "Yes, stop it" });
    await yes.waitFor();
    expect((await api("POST", `/api/dispatch/${dispatch.id}/stop`, { reason: "Stopped from the CLI" })).status).toBe(
      200,
    );
    await yes.click();
    const ended = page.getByRole("region", { name: "Agent's work ended: stopped" });
    const failure = ended.locator(".failure", { hasText: "409" });
    await failure.getByText("Dispatch was stopped: Stopped from the CLI").waitFor();
    await failure.getByText("The dispatch moved on meanwhile").waitFor();
    await ended.locator(".stop-reason", { hasText: "Stopped: Stopped from the CLI" }).waitFor();
    expect((await api<{ data: Issue }>("GET", `/api/issues/${issue.id}`)).json.data.status).toBe("todo");
    await page.screenshot({ path: join(SHOTS, "issue-plan-stopped.png"), fullPage: true });
    await page.close();
  });

  it("raised no error in a page and reached no other host", () => {
    expect(requested.some((url) => /\/api\/dispatch\/dsp_\w+\/activities\?after=[1-9]/.test(url))).toBe(true);
    expect(requestsElsewhere(requested)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
