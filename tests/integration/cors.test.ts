/**
 * @module tests/integration/cors — browsers: CORS headers only for the origins CORS_ALLOWED_ORIGINS
 * lists, preflights answered for them alone, and none at all when the setting is empty.
 */
import type { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { CORS_POLICY } from "../../core/src/config.js";
import type { AppEnv } from "../../core/src/http/app.js";
import { createApp } from "../../core/src/services.js";
import { AUTH, createIssues, type TestApp, testApp } from "../helpers/app.js";
import { testConfig } from "../helpers/db.js";

const DASHBOARD = "https://dash.example.com";
const LOCAL_DASHBOARD = "http://localhost:5173";
const STRANGER = "https://evil.example.net";

/** Every `Access-Control-*` header of a response, by lower-case name. */
function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-")));
}

function preflight(origin: string, method = "PATCH"): RequestInit {
  return {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": method,
      "Access-Control-Request-Headers": "authorization,content-type,if-match",
    },
  };
}

describe("CORS", () => {
  let t: TestApp;
  let issuePath: string;
  beforeAll(async () => {
    t = await testApp();
    const [issue] = await createIssues(t.app, 1);
    issuePath = `/api/issues/${String(issue?.id)}`;
  });

  function appWith(corsAllowedOrigins: string[]): Hono<AppEnv> {
    const config = { ...testConfig({ tableName: t.tableName, endpoint: t.endpoint }), corsAllowedOrigins };
    return createApp(ALL_FAMILIES, { config, db: t.db });
  }

  describe("with no CORS_ALLOWED_ORIGINS (the default)", () => {
    it("sends no CORS header to any origin, and answers no preflight", async () => {
      const app = appWith([]);
      const read = await app.request(issuePath, { headers: { ...AUTH, Origin: DASHBOARD } });
      expect(read.status).toBe(200);
      expect(corsHeaders(read)).toEqual({});
      const pre = await app.request(issuePath, preflight(DASHBOARD));
      expect(pre.status).toBe(405);
      expect(corsHeaders(pre)).toEqual({});
    });
  });

  describe("with allowed origins", () => {
    let app: Hono<AppEnv>;
    beforeAll(() => {
      app = appWith([DASHBOARD, LOCAL_DASHBOARD]);
    });

    it("lets an allowed origin read responses and the headers clients need", async () => {
      for (const origin of [DASHBOARD, LOCAL_DASHBOARD]) {
        const read = await app.request(issuePath, { headers: { ...AUTH, Origin: origin } });
        expect(read.status).toBe(200);
        expect(corsHeaders(read)).toEqual({
          "access-control-allow-origin": origin,
          "access-control-expose-headers": CORS_POLICY.exposeHeaders.join(","),
        });
        expect(read.headers.get("Vary")).toMatch(/\bOrigin\b/);
        expect(read.headers.get("ETag")).toBeTruthy();
      }
    });

    it("lets an allowed origin read error responses too (a 401 the dashboard must show, with its challenge)", async () => {
      for (const path of ["/api/issues", "/mcp"]) {
        const denied = await app.request(path, {
          method: path === "/mcp" ? "POST" : "GET",
          headers: { Origin: DASHBOARD },
        });
        expect(denied.status, path).toBe(401);
        expect(denied.headers.get("Access-Control-Allow-Origin"), path).toBe(DASHBOARD);
        expect(denied.headers.get("Access-Control-Expose-Headers"), path).toContain("WWW-Authenticate");
        expect(denied.headers.get("WWW-Authenticate"), path).toBe("Bearer");
      }
    });

    it("answers an allowed origin's preflight 204 with the policy's methods, headers and max age", async () => {
      const pre = await app.request(issuePath, preflight(DASHBOARD));
      expect(pre.status).toBe(204);
      expect(corsHeaders(pre)).toEqual({
        "access-control-allow-origin": DASHBOARD,
        "access-control-allow-methods": "GET,POST,PATCH,DELETE,OPTIONS",
        "access-control-allow-headers":
          "Authorization,Content-Type,If-Match,Idempotency-Key,X-Request-Id,Mcp-Protocol-Version",
        "access-control-expose-headers":
          "ETag,Link,Location,X-Request-Id,Retry-After,Idempotent-Replayed,Kaizen-Claim-Stopped,WWW-Authenticate",
        "access-control-max-age": "600",
      });
      expect(pre.headers.get("X-Request-Id")).toBeTruthy();
      expect(await pre.text()).toBe("");
    });

    it("gives any other origin no CORS header, on requests and on preflights", async () => {
      const read = await app.request(issuePath, { headers: { ...AUTH, Origin: STRANGER } });
      expect(read.status).toBe(200);
      expect(corsHeaders(read)).toEqual({});
      expect(read.headers.get("Vary")).toMatch(/\bOrigin\b/);
      // An origin is matched exactly: no prefix, suffix, other scheme or port.
      for (const origin of [
        STRANGER,
        `${DASHBOARD}.evil.net`,
        "http://dash.example.com",
        `${DASHBOARD}:8443`,
        "null",
      ]) {
        const pre = await app.request(issuePath, preflight(origin));
        expect(pre.status, origin).toBe(405);
        expect(corsHeaders(pre), origin).toEqual({});
      }
    });

    it("adds nothing to a request without Origin (curl, server to server)", async () => {
      const read = await app.request(issuePath, { headers: AUTH });
      expect(read.status).toBe(200);
      expect(corsHeaders(read)).toEqual({});
    });
  });
});
