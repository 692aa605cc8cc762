/** `GET /api/providers`: each webhook receiver as its provider's setup needs it, from the configuration, never a secret's value. */

import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp, loadConfig } from "../../core/src/index.js";
import { AUTH, testApp } from "../helpers/app.js";
import { TEST_API_KEY } from "../helpers/db.js";

const SECRETS = {
  codehost: "gh-secret-4f1d9c2b7a6e",
  analytics: "ph-secret-0b3e8d5a9c1f",
};

/** The app over a fresh table, configured as the service reads its environment. */
async function appWith(env: Record<string, string>) {
  const t = await testApp();
  const config = loadConfig({
    env: { TABLE_NAME: t.tableName, DYNAMODB_ENDPOINT: t.endpoint, SERVICE_API_KEY: TEST_API_KEY, ...env },
  });
  return createApp(ALL_FAMILIES, { config, db: t.db });
}

describe("GET /api/providers", () => {
  it("refuses a request without the key", async () => {
    const { app } = await testApp();
    const response = await app.request("/api/providers");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Missing or malformed Authorization header" });
  });

  it("lists the three receivers under the public base URL, saying which secrets are set and never what they are", async () => {
    const app = await appWith({
      PUBLIC_BASE_URL: "https://kaizen.example.com/",
      CODEHOST_WEBHOOK_SECRET: SECRETS.codehost,
      ANALYTICS_WEBHOOK_SECRET: SECRETS.analytics,
      // Blank is unset, to the receiver (500 "not configured") and so here.
      ERRORTRACKER_CLIENT_SECRET: "  ",
    });
    const response = await app.request("/api/providers", { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await response.text();
    for (const secret of Object.values(SECRETS)) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, 8));
      expect(text).not.toContain(secret.slice(-8));
    }
    expect(JSON.parse(text)).toEqual({
      data: [
        {
          provider: "codehost",
          name: "GitHub",
          receiverPath: "/api/signals/codehost",
          receiverUrl: "https://kaizen.example.com/api/signals/codehost",
          secret: { variable: "CODEHOST_WEBHOOK_SECRET", configured: true },
          signatureHeaders: ["X-Codehost-Signature-256", "X-Hub-Signature-256"],
          guide: "docs/providers/github.md",
        },
        {
          provider: "errortracker",
          name: "Sentry",
          receiverPath: "/api/signals/errortracker",
          receiverUrl: "https://kaizen.example.com/api/signals/errortracker",
          secret: { variable: "ERRORTRACKER_CLIENT_SECRET", configured: false },
          signatureHeaders: ["X-Errortracker-Hook-Signature", "Sentry-Hook-Signature"],
          guide: "docs/providers/sentry.md",
        },
        {
          provider: "analytics",
          name: "PostHog",
          receiverPath: "/api/signals/analytics",
          receiverUrl: "https://kaizen.example.com/api/signals/analytics",
          secret: { variable: "ANALYTICS_WEBHOOK_SECRET", configured: true },
          signatureHeaders: ["X-Analytics-Secret"],
          guide: "docs/providers/posthog.md",
        },
      ],
      total: 3,
    });
    expect(response.headers.get("link")).toBeNull();

    // What it says is what the receivers do: a configured one verifies, an unconfigured one answers 500.
    const unsigned = { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" };
    expect((await app.request("/api/signals/codehost", unsigned)).status).toBe(401);
    const unconfigured = await app.request("/api/signals/errortracker", unsigned);
    expect(unconfigured.status).toBe(500);
    expect(await unconfigured.json()).toEqual({ error: "ERRORTRACKER_CLIENT_SECRET is not configured" });
  });

  it("follows the configuration: the local address and no secret when nothing is set", async () => {
    const app = await appWith({ PORT: "5151" });
    const { data } = (await (await app.request("/api/providers", { headers: AUTH })).json()) as {
      data: { receiverUrl: string; secret: { configured: boolean } }[];
    };
    expect(data.map(({ receiverUrl }) => receiverUrl)).toEqual([
      "http://localhost:5151/api/signals/codehost",
      "http://localhost:5151/api/signals/errortracker",
      "http://localhost:5151/api/signals/analytics",
    ]);
    expect(data.map(({ secret }) => secret.configured)).toEqual([false, false, false]);
  });

  it("pages like every list: page and limit, a Link to the next page, a 400 for a bad or unknown parameter", async () => {
    const app = await appWith({});
    const first = await app.request("/api/providers?limit=2", { headers: AUTH });
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { data: { provider: string }[]; total: number };
    expect(firstBody.data.map(({ provider }) => provider)).toEqual(["codehost", "errortracker"]);
    expect(firstBody.total).toBe(3);
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = (await (await app.request("/api/providers?limit=2&page=2", { headers: AUTH })).json()) as {
      data: { provider: string }[];
    };
    expect(second.data.map(({ provider }) => provider)).toEqual(["analytics"]);
    const past = (await (await app.request("/api/providers?page=9", { headers: AUTH })).json()) as unknown;
    expect(past).toEqual({ data: [], total: 3 });
    for (const query of ["limit=0", "page=abc", "secret=1"]) {
      const response = await app.request(`/api/providers?${query}`, { headers: AUTH });
      expect(response.status, query).toBe(400);
    }
  });
});
