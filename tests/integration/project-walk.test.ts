/**
 * The walk docs/operations.md#a-project-that-triages-itself takes a reader through, as a team would:
 * a project "Checkout" owns its repository and its error-tracker project, has its own template, a
 * goal, automation and `limits.maxActivePerAgent: 1`; the real providers' deliveries then open
 * issues in it, the busy one is accepted by itself and ranked by its impact, and an agent claims it
 * with the project's own template.
 */
import { describe, expect, it } from "vitest";
import { AUTH, dataOf, jsonPost, testApp } from "../helpers/app.js";
import { codehostDelivery, errortrackerDelivery, issueEvent } from "../helpers/deliveries.js";
import { loadFixture } from "../helpers/fixtures.js";

type Issue = { id: string; identifier: string; status: string; projectId: string | null; signalCount: number };

describe("a project that triages itself", () => {
  it("takes a repository's and an error tracker's signals to an accepted, impact-ranked issue claimed with its own template", async () => {
    const t = await testApp();
    const project = await dataOf<{ id: string }>(
      t.app.request(
        "/api/projects",
        jsonPost({
          name: "Checkout",
          status: "active",
          limits: { maxActivePerAgent: 1 },
          sources: { codehost: ["octo-org/checkout"], errortracker: ["checkout-web"] },
          automation: { acceptAtPriority: 1, acceptAtSignals: 3 },
        }),
      ),
      201,
    );
    await dataOf(
      t.app.request("/api/goals", jsonPost({ title: "Checkout errors under 0.1 %", projectId: project.id })),
      201,
    );
    const template = await dataOf<{ id: string }>(
      t.app.request(
        "/api/templates",
        jsonPost({
          slug: "checkout-fix",
          name: "Checkout fixes",
          projectId: project.id,
          content: "Checkout team: fix {{issue.identifier}} ({{issue.title}}) with a test that fails first.",
        }),
      ),
      201,
    );

    // A user files an issue in the repository: it opens in the project, in triage.
    const filed = codehostDelivery(
      "issues",
      issueEvent("opened", 12, "Coupon field ignores Enter", "octo-org/checkout"),
    );
    const { issue: triaged } = await dataOf<{ issue: Issue }>(t.app.request(filed.path, filed.init), 201);
    expect(triaged).toMatchObject({ status: "triage", projectId: project.id });

    // The error tracker reports an error three times: the third signal reaches the threshold.
    const error = loadFixture("errortracker/issue.created.json");
    let busy: Issue | undefined;
    for (let i = 0; i < 3; i++) {
      const delivery = errortrackerDelivery("issue", error);
      busy = (await dataOf<{ issue: Issue }>(t.app.request(delivery.path, delivery.init), 201)).issue;
    }
    expect(busy).toMatchObject({ status: "todo", projectId: project.id, signalCount: 3 });

    // A person accepts the filed issue too; the busy one still ranks first, by its impact.
    await dataOf(
      t.app.request(`/api/issues/${triaged.id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "todo", priority: 2 }),
      }),
    );
    const queue = (await (
      await t.app.request(`/api/dispatch/queue?projectId=${project.id}`, { headers: AUTH })
    ).json()) as {
      data: { issue: Issue; breakdown: Record<string, number> }[];
    };
    expect(queue.data.map((item) => item.issue.id)).toEqual([busy?.id, triaged.id]);
    expect(queue.data[0]?.breakdown).toMatchObject({ goal: 20, impact: 10 });

    // An agent claims it with the project's template; the project's limit holds its second claim.
    const claim = await dataOf<{ issue: Issue; prompt: { templateId: string; text: string } }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-1" })),
      201,
    );
    expect(claim.issue.id).toBe(busy?.id);
    expect(claim.prompt.templateId).toBe(template.id);
    expect(claim.prompt.text).toContain(`Checkout team: fix ${busy?.identifier}`);
    const held = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "agent-1", projectId: project.id }));
    expect(held.status).toBe(429);
  });
});
