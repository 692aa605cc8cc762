/**
 * Every route under `/api/` refuses a missing or wrong key, walked from the route table so a new
 * route cannot forget auth; the only public ones are the webhook receivers (their signature is
 * their credential) and the OpenAPI document, and outside `/api/` the service's own pages.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "../../core/src/routes.js";
import { type TestApp, testApp } from "../helpers/app.js";

const FAILURE = { error: "Missing or malformed Authorization header" };
const PUBLIC_API_ROUTES = new Set(["GET /api/openapi.json"]);

/** A path for the route with every parameter filled with something well formed enough to route. */
function concretePath(path: string): string {
  return path.replace(/:(\w+)/g, (_all, name: string) =>
    name === "file" ? "swagger-ui.css" : name === "issueId" ? "KZN-1" : "x_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  );
}

describe("auth across the route table", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  const apiRoutes = allRoutes().filter((route) => route.path.startsWith("/api/"));

  it("has only the receivers and the OpenAPI document public under /api/", () => {
    const open = apiRoutes.filter((route) => route.auth !== "bearer").map((route) => `${route.method} ${route.path}`);
    expect(open.sort()).toEqual(
      [
        "GET /api/openapi.json",
        "POST /api/signals/analytics",
        "POST /api/signals/codehost",
        "POST /api/signals/errortracker",
      ].sort(),
    );
    for (const route of apiRoutes.filter(
      (r) => r.auth !== "bearer" && !PUBLIC_API_ROUTES.has(`${r.method} ${r.path}`),
    )) {
      expect(route.auth, `${route.method} ${route.path}`).toBe("webhook");
    }
  });

  it.each(
    apiRoutes
      .filter((route) => route.auth === "bearer")
      .map((route) => [`${route.method} ${route.path}`, route] as const),
  )("%s refuses a missing, a wrong and a malformed key with the one 401 body", async (_name, route) => {
    const path = concretePath(route.path);
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: `Bearer kaizen_${"cd".repeat(32)}` },
      { Authorization: `Bearer kzd_01ARZ3NDEKTSV4RRFFQ69G5FAV_${"0".repeat(64)}` },
      { Authorization: "Basic a2FpemVu" },
    ];
    for (const headers of attempts) {
      const response = await t.app.request(path, {
        method: route.method,
        headers: { ...headers, "Content-Type": "application/json" },
        ...(route.method === "GET" ? {} : { body: "{}" }),
      });
      expect(response.status, `${route.method} ${path} with ${JSON.stringify(headers)}`).toBe(401);
      expect(await response.json()).toEqual(FAILURE);
    }
  });

  it("lets the receivers refuse unsigned deliveries with their own 401", async () => {
    for (const route of apiRoutes.filter((r) => r.auth === "webhook")) {
      const response = await t.app.request(route.path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(response.status, route.path).toBe(401);
      expect(await response.json()).toEqual({ error: "Invalid webhook signature" });
    }
  });
});
