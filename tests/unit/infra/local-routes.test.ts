/**
 * @module tests/unit/infra/local-routes — the local server serves exactly the route table: every route
 * once, nothing else, and each family alone serves exactly the routes it declares.
 */
import type { Hono } from "hono";
import { inspectRoutes } from "hono/dev";
import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { loadConfig } from "../../../core/src/config.js";
import { createDb } from "../../../core/src/db/create-db.js";
import { ALL_DECLARATIONS } from "../../../core/src/families.js";
import type { AppDeps, AppEnv, FamilyModules } from "../../../core/src/http/app.js";
import { allRoutes, FAMILIES, ROUTE_TABLE, routeKey } from "../../../core/src/routes.js";
import { createApp } from "../../../core/src/services.js";

// Construction does no I/O: the unreachable endpoint is never called.
const deps: AppDeps = {
  config: loadConfig({ env: {} }),
  db: createDb({ tableName: "t", region: "us-east-1", endpoint: "http://127.0.0.1:9" }),
};

/** `METHOD /path` of every route handler the app registered (shared and route middleware left out). */
function servedRoutes(app: Hono<AppEnv>): string[] {
  return inspectRoutes(app)
    .filter((route) => route.method !== "ALL" && !route.isMiddleware)
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}

describe("the local server", () => {
  it("mounts every family core knows", () => {
    expect(Object.keys(ALL_FAMILIES).sort()).toEqual([...FAMILIES].sort());
  });

  it("serves every route of the table exactly once, and nothing else", () => {
    const app = createApp(ALL_FAMILIES, deps);
    expect(servedRoutes(app)).toEqual(allRoutes().map(routeKey).sort());
  });

  it("registers route-specific middleware only on routes of the table, and only handlers on them", () => {
    const tableKeys = new Set(allRoutes().map(routeKey));
    for (const route of inspectRoutes(createApp(ALL_FAMILIES, deps))) {
      // "ALL" entries are the shared middleware; a handler there would answer paths outside the table.
      if (route.method === "ALL") expect(route.isMiddleware, `ALL ${route.path}`).toBe(true);
      else expect(tableKeys.has(`${route.method} ${route.path}`), `${route.method} ${route.path}`).toBe(true);
    }
  });

  it("would notice a route served twice or a route outside the table", () => {
    const expected = allRoutes().map(routeKey).sort();
    const doubled = createApp(ALL_FAMILIES, deps);
    doubled.get("/health", (c) => c.text("again"));
    expect(servedRoutes(doubled)).not.toEqual(expected);
    expect(servedRoutes(doubled).filter((key) => key === "GET /health")).toHaveLength(2);
    const extra = createApp(ALL_FAMILIES, deps);
    extra.post("/api/nowhere", (c) => c.text("hi"));
    expect(servedRoutes(extra)).toEqual([...expected, "POST /api/nowhere"].sort());
  });

  for (const family of FAMILIES) {
    it(`serves exactly the ${family} routes when ${family} is mounted alone`, () => {
      const app = createApp({ [family]: ALL_FAMILIES[family] } as FamilyModules, deps);
      expect(servedRoutes(app)).toEqual(ROUTE_TABLE[family].map(routeKey).sort());
      expect(servedRoutes(app)).toEqual(Object.keys(ALL_DECLARATIONS[family]).sort());
    });
  }
});
