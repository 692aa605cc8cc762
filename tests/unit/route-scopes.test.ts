/**
 * Every bearer route declares the scope a caller needs (core/src/routes.ts, docs/security.md#scopes),
 * by the rules the docs give, and the OpenAPI document names it on each operation; the one route open
 * to every credential (the remote MCP endpoint, `anyCaller`) declares none.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allRoutes, routeKey, SCOPES, type Scope, scopeAllows } from "../../core/src/routes.js";

const bearer = allRoutes().filter((route) => route.auth === "bearer" && !route.anyCaller);

/** The agent's own steps of a dispatch: what a dispatch token does, and claims. */
const AGENT_STEPS = new Set([
  "POST /api/dispatch/claim",
  "GET /api/dispatch/next",
  "POST /api/dispatch/:id/heartbeat",
  "POST /api/dispatch/:id/activities",
  "POST /api/dispatch/:id/complete",
  "POST /api/dispatch/:id/release",
]);

describe("route scopes", () => {
  it("are declared by every bearer route and by no other", () => {
    expect(bearer.length).toBeGreaterThan(50);
    expect(bearer.filter((route) => route.scope === undefined).map(routeKey)).toEqual([]);
    expect(allRoutes().filter((route) => route.auth !== "bearer" && route.scope !== undefined)).toEqual([]);
  });

  it("are left to the calls it makes in the caller's name on the one route open to every credential", () => {
    const open = allRoutes().filter((route) => route.anyCaller);
    expect(
      open.map((route) => ({ key: routeKey(route), auth: route.auth, scope: route.scope, reach: route.reach })),
    ).toEqual([{ key: "POST /mcp", auth: "bearer", scope: undefined, reach: "handler" }]);
  });

  it("follow the rules: reads read, changes write, an agent's steps dispatch, destinations, runners and keys admin", () => {
    for (const route of bearer) {
      const key = routeKey(route);
      const expected: Scope = /^\/api\/(event-destinations|runners|keys|audit)/.test(route.path)
        ? "admin"
        : AGENT_STEPS.has(key)
          ? "dispatch"
          : route.method === "GET"
            ? "read"
            : "write";
      expect(route.scope, key).toBe(expected);
    }
  });

  it("include one another as documented: admin all, write read, dispatch and read only themselves", () => {
    const allowed = Object.fromEntries(
      SCOPES.map((held) => [held, SCOPES.filter((needed) => scopeAllows(held, needed))]),
    );
    expect(allowed).toEqual({
      read: ["read"],
      write: ["read", "write"],
      dispatch: ["dispatch"],
      admin: ["read", "write", "dispatch", "admin"],
    });
  });

  it("come with how a key narrowed to projects reaches each route, declared by every bearer route", () => {
    expect(bearer.filter((route) => route.reach === undefined).map(routeKey)).toEqual([]);
    expect(allRoutes().filter((route) => route.auth !== "bearer" && route.reach !== undefined)).toEqual([]);
    for (const route of bearer) {
      const key = routeKey(route);
      // A route naming one resource by its `:id` holds it to the key's projects; admin routes span them all.
      if (route.scope === "admin") expect(route.reach, key).toBe("global");
      if (route.reach && ["issue", "dispatch", "prompt", "signal", "relation", "project"].includes(route.reach)) {
        expect(route.path, key).toMatch(/:(id|issueId)(\/|$)/);
      }
      if (/^\/api\/(issues|dispatch|prompts|signals)\/:id/.test(route.path)) {
        expect(route.reach, key).toBe(
          { issues: "issue", dispatch: "dispatch", prompts: "prompt", signals: "signal" }[
            route.path.split("/")[2] as string
          ],
        );
      }
    }
  });

  it("are named on each operation of the OpenAPI document", () => {
    const document = JSON.parse(readFileSync("docs/openapi.json", "utf8")) as {
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    for (const route of bearer) {
      const path = route.path.replace(/:([A-Za-z]+)/g, "{$1}");
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      expect(operation?.security, routeKey(route)).toEqual([{ bearerAuth: [route.scope] }]);
    }
  });
});
