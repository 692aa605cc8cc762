/**
 * The API routes' caller checks (core/src/http/caller-checks.ts) are handed to the app by the
 * composition root: an app of API routes is not built without them, and the webhook receivers'
 * app, which has none, is built and answers without them. No database: no route runs its handler.
 */
import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { type AppDeps, createHttpApp } from "../../../core/src/http/app.js";
import { callerChecks } from "../../../core/src/http/caller-checks.js";
import { createDb, loadConfig } from "../../../core/src/index.js";
import { createReceiverApp } from "../../../core/src/services.js";

const deps: AppDeps = {
  config: { ...loadConfig({ env: { TABLE_NAME: "unused" } }), serviceApiKey: `kaizen_${"ab".repeat(32)}` },
  // Never called: no handler runs.
  db: createDb({ tableName: "unused", region: "us-east-1", endpoint: "http://127.0.0.1:9" }),
};

describe("the API routes' caller checks", () => {
  it("are required by an app of API routes: without them it is not built", () => {
    expect(() => createHttpApp({ signals: ALL_FAMILIES.signals }, deps)).toThrow(
      "Family signals: GET /api/signals is an API route, and no caller checks are given",
    );
  });

  it("run before an API route's handler: no credentials, the 401 of the bearer check", async () => {
    const app = createHttpApp({ signals: ALL_FAMILIES.signals }, deps, { callers: callerChecks(deps) });
    const response = await app.request("/api/signals");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("are not needed by the webhook receivers: their app is built, and an unsigned delivery is refused by its signature check", async () => {
    const secrets = { codehost: "codehost-secret", errortracker: "errortracker-secret", analytics: "analytics-secret" };
    const app = createReceiverApp(
      { webhooks: ALL_FAMILIES.webhooks },
      {
        ...deps,
        config: { ...deps.config, webhookSecrets: secrets },
      },
    );
    const response = await app.request("/api/signals/codehost", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-1" },
      body: "{}",
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/signature/i) });
  });
});
