/** The built catalog bundle, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { beforeAll, describe, expect, it } from "vitest";
import { apiGatewayEvent, authorizedEvent } from "../../helpers/apigw.js";
import { deployedEnv, type Handler, invoke, loadHandler } from "../../helpers/lambda.js";

const event = authorizedEvent;

describe("catalog Lambda bundle", () => {
  let handler: Handler;
  beforeAll(async () => {
    handler = await loadHandler("catalog", (await deployedEnv()).env);
  });

  it("creates, reads, patches, lists and deletes a project", async () => {
    const created = await invoke(
      handler,
      event("POST /api/projects", {
        path: "/api/projects",
        body: JSON.stringify({ name: "Caisse 🚀 収納", status: "planned" }),
        base64: true,
      }),
    );
    expect(created.statusCode).toBe(201);
    const project = created.json.data as { id: string; name: string };
    expect(project.name).toBe("Caisse 🚀 収納");
    expect(created.headers.location).toBe(`/api/projects/${project.id}`);
    expect(created.headers.etag).toBe('"1"');

    const path = `/api/projects/${project.id}`;
    const fetched = await invoke(handler, event("GET /api/projects/{id}", { path }));
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json.data).toMatchObject({ ...project, issueCounts: { triage: 0, done: 0 } });

    const stale = await invoke(
      handler,
      event("PATCH /api/projects/{id}", {
        path,
        body: JSON.stringify({ health: "at_risk" }),
        headers: { "If-Match": '"9"' },
      }),
    );
    expect(stale.statusCode).toBe(412);
    const patched = await invoke(
      handler,
      event("PATCH /api/projects/{id}", {
        path,
        body: JSON.stringify({ health: "at_risk" }),
        headers: { "If-Match": '"1"' },
      }),
    );
    expect(patched.statusCode).toBe(200);
    expect(patched.headers.etag).toBe('"2"');

    const listed = await invoke(
      handler,
      event("GET /api/projects", { path: "/api/projects", query: "status=planned&limit=1" }),
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json).toMatchObject({ data: [{ id: project.id, health: "at_risk" }], total: 1 });

    const deleted = await invoke(handler, event("DELETE /api/projects/{id}", { path }));
    expect(deleted.statusCode).toBe(204);
    expect(deleted.text).toBe("");
    const again = await invoke(handler, event("DELETE /api/projects/{id}", { path }));
    expect(again.statusCode).toBe(404);
    expect(again.json).toEqual({ error: `Project ${project.id} not found` });
  });

  it("creates goals and labels, refusing a duplicate label name", async () => {
    const goal = await invoke(
      handler,
      event("POST /api/goals", { path: "/api/goals", body: JSON.stringify({ title: "Cut churn", unit: "%" }) }),
    );
    expect(goal.statusCode).toBe(201);
    const goals = await invoke(handler, event("GET /api/goals", { path: "/api/goals", query: "status=active" }));
    expect(goals.json).toMatchObject({ total: 1, data: [{ title: "Cut churn", unit: "%" }] });

    const label = await invoke(
      handler,
      event("POST /api/labels", { path: "/api/labels", body: JSON.stringify({ name: "Bug", color: "#FF0000" }) }),
    );
    expect(label.statusCode).toBe(201);
    expect(label.json.data).toMatchObject({ name: "Bug", color: "#ff0000" });
    const duplicate = await invoke(
      handler,
      event("POST /api/labels", { path: "/api/labels", body: JSON.stringify({ name: "bug", color: "#00ff00" }) }),
    );
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json).toEqual({ error: 'Label "bug" already exists' });
    const labels = await invoke(handler, event("GET /api/labels", { path: "/api/labels" }));
    expect(labels.json).toMatchObject({ total: 1 });
    const id = (label.json.data as { id: string }).id;
    const removed = await invoke(handler, event("DELETE /api/labels/{id}", { path: `/api/labels/${id}` }));
    expect(removed.statusCode).toBe(204);
  });

  it("answers validation errors and missing tokens with the JSON envelope", async () => {
    const invalid = await invoke(
      handler,
      event("POST /api/labels", { path: "/api/labels", body: JSON.stringify({ name: "x", color: "red" }) }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(invalid.json).toMatchObject({ error: "color: must be a colour #rrggbb" });
    const unauthorized = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/goals", routeKey: "GET /api/goals" }),
    );
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json).toEqual({ error: "Missing or malformed Authorization header" });
  });
});
