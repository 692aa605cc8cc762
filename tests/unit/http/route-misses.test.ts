/**
 * A request no route takes (docs/api.md#status-codes): 405 with `Allow` when another method serves its
 * path, else 404. A family's app judges by its own routes; the service family, whose function also
 * takes API Gateway's `$default` route, judges by the whole route table. No database: no route runs.
 */
import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { type AppDeps, createHttpApp, type FamilyModules } from "../../../core/src/http/app.js";
import { callerChecks } from "../../../core/src/http/caller-checks.js";
import { createDb, loadConfig } from "../../../core/src/index.js";

const deps: AppDeps = {
  config: { ...loadConfig({ env: { TABLE_NAME: "unused" } }), serviceApiKey: `kaizen_${"ab".repeat(32)}` },
  // Never called: nothing here reads or writes the table.
  db: createDb({ tableName: "unused", region: "us-east-1", endpoint: "http://127.0.0.1:9" }),
};

async function miss(families: FamilyModules, method: string, path: string) {
  const response = await createHttpApp(families, deps, { callers: callerChecks(deps) }).request(path, { method });
  return { status: response.status, allow: response.headers.get("allow"), body: await response.json() };
}

describe("a request no route takes", () => {
  it("in one family's app: 405 for another method of its own path, 404 for another family's path", async () => {
    const signals = { signals: ALL_FAMILIES.signals };
    expect(await miss(signals, "PUT", "/api/signals")).toEqual({
      status: 405,
      allow: "GET, HEAD, POST",
      body: { error: "Method not allowed" },
    });
    expect(await miss(signals, "DELETE", "/api/templates")).toEqual({
      status: 404,
      allow: null,
      body: { error: "No route for DELETE /api/templates" },
    });
  });

  it("in the service family's app and in the app of every family: 405 by the whole route table", async () => {
    for (const families of [{ service: ALL_FAMILIES.service }, ALL_FAMILIES] as FamilyModules[]) {
      expect(await miss(families, "DELETE", "/api/templates")).toEqual({
        status: 405,
        allow: "GET, HEAD, POST",
        body: { error: "Method not allowed" },
      });
      expect(await miss(families, "GET", "/api/nowhere")).toEqual({
        status: 404,
        allow: null,
        body: { error: "No route for GET /api/nowhere" },
      });
    }
  });
});
