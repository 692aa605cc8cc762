/** The built dispatch bundle, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { beforeAll, describe, expect, it } from "vitest";
import { authorizedEvent } from "../../helpers/apigw.js";
import { deployedEnv, type Handler, invoke, loadHandler } from "../../helpers/lambda.js";

const event = authorizedEvent;

describe("dispatch Lambda bundle", () => {
  let dispatch: Handler;
  let issues: Handler;
  let catalog: Handler;
  beforeAll(async () => {
    const { env } = await deployedEnv({ PUBLIC_BASE_URL: "https://kaizen.example.com" });
    dispatch = await loadHandler("dispatch", env);
    issues = await loadHandler("issues", env);
    catalog = await loadHandler("catalog", env);
  });

  it("previews the queue, claims (base64 body) with a prompt from a default template, heartbeats and completes with the token", async () => {
    const created = await invoke(
      issues,
      event("POST /api/issues", {
        path: "/api/issues",
        body: JSON.stringify({ title: "Lambda 🚀 task", type: "task", status: "todo" }),
      }),
    );
    expect(created.statusCode).toBe(201);
    const queue = await invoke(dispatch, event("GET /api/dispatch/queue", { path: "/api/dispatch/queue" }));
    expect(queue.json.total).toBe(1);
    const claim = await invoke(
      dispatch,
      event("POST /api/dispatch/claim", {
        path: "/api/dispatch/claim",
        body: JSON.stringify({ agent: "λ-agent" }),
        base64: true,
      }),
    );
    expect(claim.statusCode).toBe(201);
    const data = claim.json.data as {
      dispatch: { id: string; token: string; agent: string };
      prompt: { text: string } | null;
      issue: { status: string };
    };
    expect(data.dispatch.agent).toBe("λ-agent");
    expect(data.issue.status).toBe("in_progress");
    expect(data.prompt?.text).toContain(`https://kaizen.example.com/api/dispatch/${data.dispatch.id}/heartbeat`);
    const asAgent = { Authorization: `Bearer ${data.dispatch.token}` };
    const beat = await invoke(
      dispatch,
      event("POST /api/dispatch/{id}/heartbeat", {
        path: `/api/dispatch/${data.dispatch.id}/heartbeat`,
        headers: asAgent,
        body: "{}",
      }),
    );
    expect(beat.statusCode).toBe(200);
    const forbidden = await invoke(dispatch, event("GET /api/dispatch", { path: "/api/dispatch", headers: asAgent }));
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json).toEqual({ error: "Token not allowed for this resource" });
    const done = await invoke(
      dispatch,
      event("POST /api/dispatch/{id}/complete", {
        path: `/api/dispatch/${data.dispatch.id}/complete`,
        headers: asAgent,
        body: JSON.stringify({ result: "done", summary: "Done in Lambda" }),
      }),
    );
    expect(done.statusCode).toBe(200);
    expect(done.json.data).toMatchObject({ dispatch: { status: "completed" }, issue: { status: "done" } });
    const empty = await invoke(dispatch, event("GET /api/dispatch/next", { path: "/api/dispatch/next" }));
    expect(empty.statusCode).toBe(204);
  });

  it("answers 429 with Retry-After for an agent at its project's limit, and 204 with the stop header past its budget", async () => {
    const project = async (limits: Record<string, number>) => {
      const created = await invoke(
        catalog,
        event("POST /api/projects", { path: "/api/projects", body: JSON.stringify({ name: "λ limits", limits }) }),
      );
      expect(created.statusCode).toBe(201);
      const id = (created.json.data as { id: string }).id;
      for (const title of ["one", "two"]) {
        const issue = await invoke(
          issues,
          event("POST /api/issues", {
            path: "/api/issues",
            body: JSON.stringify({ title, type: "task", status: "todo", projectId: id }),
          }),
        );
        expect(issue.statusCode).toBe(201);
      }
      return id;
    };
    const claim = (body: Record<string, unknown>) =>
      invoke(dispatch, event("POST /api/dispatch/claim", { path: "/api/dispatch/claim", body: JSON.stringify(body) }));

    const limited = await project({ maxActivePerAgent: 1 });
    expect((await claim({ agent: "λ-limited", projectId: limited })).statusCode).toBe(201);
    const refused = await claim({ agent: "λ-limited", projectId: limited });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("30");
    expect(refused.json).toEqual({
      error: `Agent λ-limited holds 1 active dispatch of project ${limited} (limits.maxActivePerAgent is 1)`,
    });

    const budgeted = await project({ dailyCostBudgetUsd: 0.5 });
    const paid = await claim({ agent: "λ-payer", projectId: budgeted });
    const { dispatch: held } = paid.json.data as { dispatch: { id: string; token: string } };
    const done = await invoke(
      dispatch,
      event("POST /api/dispatch/{id}/complete", {
        path: `/api/dispatch/${held.id}/complete`,
        headers: { Authorization: `Bearer ${held.token}` },
        body: JSON.stringify({ result: "done", summary: "paid", usage: { costUsd: 0.5 } }),
      }),
    );
    expect(done.statusCode).toBe(200);
    const stopped = await invoke(
      dispatch,
      event("GET /api/dispatch/next", { path: "/api/dispatch/next", query: `agent=x&projectId=${budgeted}` }),
    );
    expect(stopped.statusCode).toBe(204);
    expect(stopped.headers["kaizen-claim-stopped"]).toBe("daily-cost-budget");
  });
});
