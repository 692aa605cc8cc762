/** The built templates and prompts bundles, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../core/src/index.js";
import { promptRenderer, promptService } from "../../core/src/services.js";
import { authorizedEvent } from "../helpers/apigw.js";
import { testConfig } from "../helpers/db.js";
import { deployedEnv, type Handler, invoke, loadHandler } from "../helpers/lambda.js";

const event = authorizedEvent;

describe("templates and prompts Lambda bundles", () => {
  let templates: Handler;
  let prompts: Handler;
  let issues: Handler;
  let tableName: string;
  let endpoint: string;
  beforeAll(async () => {
    let env: Record<string, string>;
    ({ env, tableName, endpoint } = await deployedEnv({ PUBLIC_BASE_URL: "https://kaizen.example.com/" }));
    templates = await loadHandler("templates", env);
    prompts = await loadHandler("prompts", env);
    issues = await loadHandler("issues", env);
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

  it("prompts: read a recorded prompt, review it, list its reviews", async () => {
    const issue = await invoke(
      issues,
      event("POST /api/issues", { path: "/api/issues", body: JSON.stringify({ title: "s", type: "signal" }) }),
    );
    const db = createDb({ tableName, region: "us-east-1", endpoint });
    const deps = { config: testConfig({ tableName, endpoint }), db };
    await promptRenderer(deps).defaultsReady();
    const prepared = await promptService(deps).preparePrompt((issue.json.data as { id: string }).id, null, {
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
