/**
 * A request no route takes (docs/api.md#status-codes): 405 with `Allow` when another method serves its
 * path, else 404. A family's app judges by its own routes; the service family, whose function also
 * takes API Gateway's `$default` route, judges by the whole route table. A path a static route declares
 * is judged by the static routes there alone, in a miss and before a parameter route of the same family
 * can take it. No database: nothing here reads the table.
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
  const response = await createHttpApp(families, deps, { callers: callerChecks(deps) }).request(path, {
    method,
    headers: { Authorization: `Bearer ${deps.config.serviceApiKey}` },
  });
  const body = method === "HEAD" ? null : await response.json();
  return { status: response.status, allow: response.headers.get("allow"), body };
}

const NOT_ALLOWED = { error: "Method not allowed" };
const DISPATCH_ID = "dsp_01J0000000000000000000000A";

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

  it("on a path a static route declares: the methods of the static routes there alone, not of a parameter route's", async () => {
    for (const families of [
      { dispatch: ALL_FAMILIES.dispatch },
      { service: ALL_FAMILIES.service },
      ALL_FAMILIES,
    ] as FamilyModules[]) {
      // `/api/dispatch/:id` (GET) matches `/api/dispatch/claim` too, which is POST's alone.
      expect(await miss(families, "DELETE", "/api/dispatch/claim")).toEqual({
        status: 405,
        allow: "POST",
        body: NOT_ALLOWED,
      });
      expect(await miss(families, "DELETE", "/api/dispatch/queue")).toEqual({
        status: 405,
        allow: "GET, HEAD",
        body: NOT_ALLOWED,
      });
      expect(await miss(families, "DELETE", `/api/dispatch/${DISPATCH_ID}`)).toEqual({
        status: 405,
        allow: "GET, HEAD",
        body: NOT_ALLOWED,
      });
    }
    // A receiver's path is the webhooks family's, beside the signals family's `/api/signals/:id`.
    for (const families of [{ service: ALL_FAMILIES.service }, ALL_FAMILIES] as FamilyModules[]) {
      expect(await miss(families, "PUT", "/api/signals/codehost")).toEqual({
        status: 405,
        allow: "POST",
        body: NOT_ALLOWED,
      });
    }
    // Its GET is the signals family's `:id` route, here as behind the gateway, which sends it to that family's function.
    for (const families of [{ signals: ALL_FAMILIES.signals }, ALL_FAMILIES] as FamilyModules[]) {
      expect(await miss(families, "GET", "/api/signals/codehost")).toEqual({
        status: 404,
        allow: null,
        body: { error: "Signal codehost not found" },
      });
    }
  });

  it("sends no other method of such a path to its family's parameter route: GET /api/dispatch/claim is a 405", async () => {
    for (const families of [{ dispatch: ALL_FAMILIES.dispatch }, ALL_FAMILIES] as FamilyModules[]) {
      expect(await miss(families, "GET", "/api/dispatch/claim")).toEqual({
        status: 405,
        allow: "POST",
        body: NOT_ALLOWED,
      });
      expect(await miss(families, "HEAD", "/api/dispatch/claim")).toEqual({ status: 405, allow: "POST", body: null });
      // The routes themselves still take their own: here, each asks for credentials first.
      const app = createHttpApp(families, deps, { callers: callerChecks(deps) });
      for (const [method, path] of [
        ["POST", "/api/dispatch/claim"],
        ["GET", "/api/dispatch/queue"],
        ["GET", `/api/dispatch/${DISPATCH_ID}`],
      ] as const) {
        expect((await app.request(path, { method })).status, `${method} ${path}`).toBe(401);
      }
    }
  });
});
