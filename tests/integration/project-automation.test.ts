/**
 * Triage can run itself (docs/api.md#automation): a project's triage issues that reach its
 * thresholds move to `todo` on the signal that brings them there, in that signal's transaction, by
 * `automation`; a person's decision to hold one back is not undone by the same evidence.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, errortrackerDelivery, issueEvent } from "../helpers/deliveries.js";
import { loadFixture } from "../helpers/fixtures.js";

vi.setConfig({ maxConcurrency: 4 });

type StatusChange = { from: string; to: string; by: string; at: string };
type Issue = {
  id: string;
  status: string;
  priority: number;
  signalCount: number;
  projectId: string | null;
  statusChange: StatusChange | null;
};
type Project = { id: string; automation: { acceptAtPriority: number | null; acceptAtSignals: number | null } };

function patch(body: unknown): RequestInit {
  return { method: "PATCH", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

async function project(t: TestApp, body: Record<string, unknown>) {
  return dataOf<Project>(t.app.request("/api/projects", jsonPost({ name: "Checkout", ...body })), 201);
}

/** A code-host `issues` event of issue `number` on `repo`: opened (medium), then any other action groups. */
async function issueSignal(t: TestApp, action: string, number: number, repo: string) {
  const delivery = codehostDelivery("issues", issueEvent(action, number, `Issue ${number}`, repo));
  return dataOf<{ issue: Issue; signal: { action: string } }>(t.app.request(delivery.path, delivery.init), 201);
}

async function issue(t: TestApp, id: string) {
  return dataOf<Issue>(t.app.request(`/api/issues/${id}`, { headers: AUTH }));
}

describe("a project's automation", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("is off by default, and replaced whole by a PATCH", async () => {
    const plain = await project(t, {});
    expect(plain.automation).toEqual({ acceptAtPriority: null, acceptAtSignals: null });
    const set = await dataOf<Project>(
      t.app.request(`/api/projects/${plain.id}`, patch({ automation: { acceptAtSignals: 5 } })),
    );
    expect(set.automation).toEqual({ acceptAtPriority: null, acceptAtSignals: 5 });
    for (const automation of [
      { acceptAtPriority: 0 },
      { acceptAtSignals: 1 },
      { acceptAtSignals: 1001 },
      { other: 1 },
    ]) {
      const refused = await t.app.request(`/api/projects/${plain.id}`, patch({ automation }));
      expect(refused.status, JSON.stringify(automation)).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(/^automation/);
    }
  });

  it("accepts an issue urgent enough as it opens: created in todo, by automation, and queued", async () => {
    await project(t, { sources: { errortracker: ["checkout-web"] }, automation: { acceptAtPriority: 1 } });
    // An error-tracker error seen 100 times or more is critical: priority 1.
    const body = loadFixture("errortracker/issue.created.json") as { data: { issue: Record<string, unknown> } };
    body.data.issue.count = "150";
    const { issue: opened } = await dataOf<{ issue: Issue }>(
      t.app.request(...deliveryOf(errortrackerDelivery("issue", body))),
      201,
    );
    expect(opened).toMatchObject({ status: "todo", priority: 1 });
    expect(opened.statusChange).toMatchObject({ from: "triage", to: "todo", by: "automation" });
    const queue = (await (await t.app.request("/api/dispatch/queue", { headers: AUTH })).json()) as {
      data: { issue: Issue }[];
    };
    expect(queue.data.map((item) => item.issue.id)).toContain(opened.id);
  });

  it("leaves an issue below the thresholds in triage, and moves it on the signal that reaches the count", async () => {
    const owner = await project(t, { sources: { codehost: ["acme/count"] }, automation: { acceptAtSignals: 3 } });
    const { issue: opened } = await issueSignal(t, "opened", 1, "acme/count");
    expect(opened).toMatchObject({ status: "triage", projectId: owner.id, statusChange: null });
    expect((await issueSignal(t, "edited", 1, "acme/count")).issue.status).toBe("triage");
    const third = await issueSignal(t, "edited", 1, "acme/count");
    expect(third.signal.action).toBe("grouped");
    expect(third.issue).toMatchObject({ status: "todo", signalCount: 3 });
    expect(third.issue.statusChange).toMatchObject({ from: "triage", to: "todo", by: "automation" });
    expect(await issue(t, opened.id)).toMatchObject({ status: "todo", statusChange: { by: "automation" } });
  });

  it("after a person holds an issue back, takes as many signals again before it moves it", async () => {
    await project(t, { sources: { codehost: ["acme/held"] }, automation: { acceptAtSignals: 2 } });
    const { issue: opened } = await issueSignal(t, "opened", 2, "acme/held");
    expect((await issueSignal(t, "edited", 2, "acme/held")).issue.status).toBe("todo");
    // todo goes back through backlog to triage.
    await dataOf<Issue>(t.app.request(`/api/issues/${opened.id}`, patch({ status: "backlog" })));
    const held = await dataOf<Issue>(t.app.request(`/api/issues/${opened.id}`, patch({ status: "triage" })));
    expect(held.statusChange).toMatchObject({ from: "backlog", to: "triage", by: "api" });
    expect((await issueSignal(t, "edited", 2, "acme/held")).issue.status).toBe("triage");
    const again = await issueSignal(t, "edited", 2, "acme/held");
    expect(again.issue).toMatchObject({ status: "todo", signalCount: 4, statusChange: { by: "automation" } });
  });

  it("applies to the issue's own project: not to issues in none, nor to those outside triage", async () => {
    await issueSignal(t, "opened", 3, "acme/nobody");
    for (let i = 0; i < 3; i++) expect((await issueSignal(t, "edited", 3, "acme/nobody")).issue.status).toBe("triage");
    await project(t, { sources: { codehost: ["acme/backlog"] }, automation: { acceptAtSignals: 2 } });
    const { issue: opened } = await issueSignal(t, "opened", 4, "acme/backlog");
    await dataOf(t.app.request(`/api/issues/${opened.id}`, patch({ status: "backlog" })));
    for (let i = 0; i < 3; i++)
      expect((await issueSignal(t, "edited", 4, "acme/backlog")).issue.status).toBe("backlog");
  });

  it("follows a person who moved the issue into another project: that project's automation applies", async () => {
    await project(t, { sources: { codehost: ["acme/moved"] } });
    const other = await project(t, { automation: { acceptAtSignals: 3 } });
    const { issue: opened } = await issueSignal(t, "opened", 5, "acme/moved");
    expect((await issueSignal(t, "edited", 5, "acme/moved")).issue.status).toBe("triage");
    await dataOf(t.app.request(`/api/issues/${opened.id}`, patch({ projectId: other.id })));
    const third = await issueSignal(t, "edited", 5, "acme/moved");
    expect(third.issue).toMatchObject({ status: "todo", projectId: other.id, statusChange: { by: "automation" } });
  });

  it("reaches every source's routing when the project changes its automation, more sources than one transaction holds", async () => {
    const names = (kind: string, n: number) => Array.from({ length: n }, (_, i) => `acme/${kind}-${i}`);
    const big = await project(t, { sources: { codehost: names("c", 50), errortracker: names("e", 40) } });
    await dataOf(
      t.app.request(
        `/api/projects/${big.id}`,
        patch({ sources: { codehost: names("c", 50), errortracker: names("e", 40), analytics: names("a", 10) } }),
      ),
    );
    await dataOf(t.app.request(`/api/projects/${big.id}`, patch({ automation: { acceptAtPriority: 3 } })));
    // A medium code-host issue (priority 3) from the last repository is accepted as it opens.
    const { issue: opened } = await issueSignal(t, "opened", 6, "acme/c-49");
    expect(opened).toMatchObject({ status: "todo", projectId: big.id });
  });

  it("accepts a manual signal's issue in a project by the project's own rules", async () => {
    const manual = await project(t, { automation: { acceptAtPriority: 2 } });
    const { issue: opened } = await dataOf<{ issue: Issue }>(
      t.app.request(
        "/api/signals",
        jsonPost({
          source: "ops",
          type: "deploy_failed",
          title: "Deploy failed",
          severity: "high",
          projectId: manual.id,
        }),
      ),
      201,
    );
    expect(opened).toMatchObject({ status: "todo", projectId: manual.id, statusChange: { by: "automation" } });
  });
});

function deliveryOf(delivery: { path: string; init: RequestInit }): [string, RequestInit] {
  return [delivery.path, delivery.init];
}
