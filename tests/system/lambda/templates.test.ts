/** The built templates and prompts bundles, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../../core/src/index.js";
import { claimPrompts } from "../../../core/src/services.js";
import { authorizedEvent } from "../../helpers/apigw.js";
import { testConfig } from "../../helpers/db.js";
import { deployedEnv, type Handler, invoke, loadHandler } from "../../helpers/lambda.js";

const event = authorizedEvent;

describe("templates and prompts Lambda bundles", () => {
  let templates: Handler;
  let prompts: Handler;
  let issues: Handler;
  let dispatch: Handler;
  let tableName: string;
  let endpoint: string;
  beforeAll(async () => {
    let env: Record<string, string>;
    ({ env, tableName, endpoint } = await deployedEnv({ PUBLIC_BASE_URL: "https://kaizen.example.com/" }));
    templates = await loadHandler("templates", env);
    prompts = await loadHandler("prompts", env);
    issues = await loadHandler("issues", env);
    dispatch = await loadHandler("dispatch", env);
  });

  it("templates: the defaults exist at the first request of a cold start", async () => {
    const list = await invoke(templates, event("GET /api/templates", { path: "/api/templates" }));
    expect(list.statusCode).toBe(200);
    expect(list.json.total).toBe(5);
  });

  it("templates: create (base64 body), add a version, promote it, preview with the deployed base URL", async () => {
    const created = await invoke(
      templates,
      event("POST /api/templates", {
        path: "/api/templates",
        body: JSON.stringify({
          slug: "émoji-free",
          name: "x",
        }),
      }),
    );
    expect(created.statusCode).toBe(400);
    const made = await invoke(
      templates,
      event("POST /api/templates", {
        path: "/api/templates",
        body: JSON.stringify({
          slug: "deployed",
          name: "Déployé 🚀",
          conditions: { type: "task" },
          specificity: 200,
          content: "v1 {{api.baseUrl}}",
        }),
        base64: true,
      }),
    );
    expect(made.statusCode).toBe(201);
    const template = made.json.data as { id: string; name: string };
    expect(template.name).toBe("Déployé 🚀");
    const version = await invoke(
      templates,
      event("POST /api/templates/{id}/versions", {
        path: `/api/templates/${template.id}/versions`,
        body: JSON.stringify({ content: "v2 {{issueRef issue}} at {{api.baseUrl}}/api/issues/{{issue.id}}" }),
      }),
    );
    expect(version.statusCode).toBe(201);
    const versionId = (version.json.data as { id: string }).id;
    const promoted = await invoke(
      templates,
      event("POST /api/templates/{id}/versions/{versionId}/promote", {
        path: `/api/templates/${template.id}/versions/${versionId}/promote`,
        body: "{}",
      }),
    );
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json.data).toMatchObject({ activeVersionId: versionId, activeVersion: { version: 2 } });
    const issue = await invoke(
      issues,
      event("POST /api/issues", { path: "/api/issues", body: JSON.stringify({ title: "t", type: "task" }) }),
    );
    const { id, number } = issue.json.data as { id: string; number: number };
    const preview = await invoke(
      templates,
      event("GET /api/templates/preview/{issueId}", {
        path: `/api/templates/preview/${id}`,
      }),
    );
    expect(preview.statusCode).toBe(200);
    expect((preview.json.data as { text: string }).text).toBe(
      `v2 KZN-${number} at https://kaizen.example.com/api/issues/${id}`,
    );
  });

  it("experiments: started by the templates bundle, decided by the dispatch bundle", async () => {
    const made = await invoke(
      templates,
      event("POST /api/templates", {
        path: "/api/templates",
        body: JSON.stringify({
          slug: "deployed-experiment",
          name: "Experimented",
          conditions: { type: "plan" },
          specificity: 300,
          content: "control {{issue.title}}",
        }),
      }),
    );
    const template = made.json.data as { id: string };
    const draft = await invoke(
      templates,
      event("POST /api/templates/{id}/versions", {
        path: `/api/templates/${template.id}/versions`,
        body: JSON.stringify({ content: "candidate {{issue.title}}" }),
      }),
    );
    const candidateId = (draft.json.data as { id: string }).id;
    const started = await invoke(
      templates,
      event("POST /api/templates/{id}/experiments", {
        path: `/api/templates/${template.id}/experiments`,
        body: JSON.stringify({ candidateVersionId: candidateId, trafficPercent: 50, minSamples: 6 }),
      }),
    );
    expect(started.statusCode).toBe(201);
    const experimentId = (started.json.data as { id: string }).id;
    const read = () =>
      invoke(
        templates,
        event("GET /api/templates/{id}/experiments/{experimentId}", {
          path: `/api/templates/${template.id}/experiments/${experimentId}`,
        }),
      );
    // The candidate's dispatches end done, the control's failed, until the rule decides.
    for (let n = 0; n < 60; n++) {
      await invoke(
        issues,
        event("POST /api/issues", {
          path: "/api/issues",
          body: JSON.stringify({ title: `plan ${n}`, type: "plan", status: "todo", priority: 1 }),
        }),
      );
      const claim = await invoke(
        dispatch,
        event("POST /api/dispatch/claim", {
          path: "/api/dispatch/claim",
          body: JSON.stringify({ agent: "λ-experiment", types: ["plan"] }),
        }),
      );
      const claimed = claim.json.data as {
        dispatch: { id: string; token: string };
        prompt: { text: string; experiment: { id: string; arm: string } };
      };
      expect(claimed.prompt.experiment.id).toBe(experimentId);
      expect(claimed.prompt.text.startsWith(claimed.prompt.experiment.arm)).toBe(true);
      const result = claimed.prompt.experiment.arm === "candidate" ? "done" : "failed";
      const completed = await invoke(
        dispatch,
        event("POST /api/dispatch/{id}/complete", {
          path: `/api/dispatch/${claimed.dispatch.id}/complete`,
          headers: { Authorization: `Bearer ${claimed.dispatch.token}` },
          body: JSON.stringify({ result, summary: result }),
        }),
      );
      expect(completed.statusCode).toBe(200);
      if (((await read()).json.data as { status: string }).status !== "running") break;
    }
    const ended = (await read()).json.data as { status: string; decision: { outcome: string } };
    expect(ended).toMatchObject({ status: "promoted", decision: { outcome: "promoted" } });
    const detail = await invoke(templates, event("GET /api/templates/{id}", { path: `/api/templates/${template.id}` }));
    expect((detail.json.data as { activeVersionId: string }).activeVersionId).toBe(candidateId);
  });

  it("prompts: read a recorded prompt, review it, list its reviews", async () => {
    const issue = await invoke(
      issues,
      event("POST /api/issues", { path: "/api/issues", body: JSON.stringify({ title: "s", type: "signal" }) }),
    );
    const db = createDb({ tableName, region: "us-east-1", endpoint });
    const deps = { config: testConfig({ tableName, endpoint }), db };
    await claimPrompts(deps).ready();
    const prepared = await claimPrompts(deps).preparePrompt((issue.json.data as { id: string }).id, null, {
      dispatch: null,
      previousDispatches: [],
    });
    if (!prepared.prompt) throw new Error("no template for a signal issue");
    await db.transactWrite(prepared.writes);
    const { id } = prepared.prompt;
    const read = await invoke(prompts, event("GET /api/prompts/{id}", { path: `/api/prompts/${id}` }));
    expect(read.statusCode).toBe(200);
    expect(read.json.data).toMatchObject({ id, text: prepared.prompt.text });
    const review = await invoke(
      prompts,
      event("POST /api/prompts/{id}/reviews", {
        path: `/api/prompts/${id}/reviews`,
        body: JSON.stringify({ clarity: 4, completeness: 5, relevance: 3, authorType: "agent" }),
        base64: true,
      }),
    );
    expect(review.statusCode).toBe(201);
    expect(review.json.data).toMatchObject({ sequence: 1, composite: 4 });
    const list = await invoke(prompts, event("GET /api/prompts/{id}/reviews", { path: `/api/prompts/${id}/reviews` }));
    expect(list.json.total).toBe(1);
    const unauthorized = await invoke(
      prompts,
      event("GET /api/prompts", { path: "/api/prompts", headers: { Authorization: "Bearer nope" } }),
    );
    expect(unauthorized.statusCode).toBe(401);
  });
});
