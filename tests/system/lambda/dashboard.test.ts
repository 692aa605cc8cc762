/** The built dashboard bundle, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { beforeAll, describe, expect, it } from "vitest";
import { apiGatewayEvent } from "../../helpers/apigw.js";
import { TEST_API_KEY } from "../../helpers/db.js";
import { deployedEnv, type Handler, invoke, loadHandler } from "../../helpers/lambda.js";

const headers = { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" };

describe("dashboard Lambda bundle", () => {
  let dashboard: Handler;
  let issues: Handler;
  beforeAll(async () => {
    const { env } = await deployedEnv();
    dashboard = await loadHandler("dashboard", env);
    issues = await loadHandler("issues", env);
  });

  it("counts what the issues bundle wrote, and pages activity and prompts", async () => {
    for (const [type, status] of [
      ["task", "todo"],
      ["plan", "triage"],
    ]) {
      const created = await invoke(
        issues,
        apiGatewayEvent({
          method: "POST",
          path: "/api/issues",
          routeKey: "POST /api/issues",
          headers,
          body: JSON.stringify({ title: "t", type, status }),
          base64: true,
        }),
      );
      expect(created.statusCode).toBe(201);
    }
    const stats = await invoke(
      dashboard,
      apiGatewayEvent({ method: "GET", path: "/api/dashboard/stats", routeKey: "GET /api/dashboard/stats", headers }),
    );
    expect(stats.statusCode).toBe(200);
    expect(stats.json.data).toMatchObject({
      issues: { total: 2, byStatus: { todo: 1, triage: 1 }, byType: { task: 1, plan: 1 } },
      queue: { depth: 1 },
    });
    for (const path of ["/api/dashboard/activity", "/api/dashboard/prompts"]) {
      const page = await invoke(
        dashboard,
        apiGatewayEvent({ method: "GET", path, routeKey: `GET ${path}`, headers, query: "limit=5" }),
      );
      expect(page.statusCode).toBe(200);
      expect(Array.isArray(page.json.data)).toBe(true);
    }
    const usage = await invoke(
      dashboard,
      apiGatewayEvent({
        method: "GET",
        path: "/api/dashboard/usage",
        routeKey: "GET /api/dashboard/usage",
        headers,
        query: "days=3",
      }),
    );
    expect(usage.statusCode).toBe(200);
    expect((usage.json.data as { days: { reports: number }[] }).days.map((day) => day.reports)).toEqual([0, 0, 0]);
    const refused = await invoke(
      dashboard,
      apiGatewayEvent({ method: "GET", path: "/api/dashboard/stats", routeKey: "GET /api/dashboard/stats" }),
    );
    expect(refused.statusCode).toBe(401);
  });
});
