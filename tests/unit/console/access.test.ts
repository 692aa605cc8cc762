/**
 * What the console offers a key (console/src/access.ts): a route is allowed when the key holds the
 * scope the route table declares for it and, for a key narrowed to projects, the route does not span
 * every project; a key `GET /api/me` refuses holds `dispatch` alone.
 */
import { describe, expect, it } from "vitest";
import { allows, type Caller, holds, refusedCaller, routeFor } from "../../../console/src/access.js";
import { allRoutes, SCOPES } from "../../../core/src/routes.js";

const key = (scopes: Caller["scopes"], projectIds: string[] | null = null): Caller => ({
  kind: "key",
  id: "key_01",
  name: "test",
  scopes,
  projectIds,
});
const ROOT: Caller = { kind: "root", id: "root", name: "root key", scopes: [...SCOPES], projectIds: null };
const PROJECT = "prj_01J0000000000000000000000A";

describe("the route a call names", () => {
  it("finds every route of the table, its parameters spelled as the table or as the typed client spells them", () => {
    for (const route of allRoutes()) {
      expect(routeFor(route.method, route.path), route.path).toMatchObject({ method: route.method, path: route.path });
      const braced = route.path.replace(/:(\w+)/g, "{$1}");
      expect(routeFor(route.method, braced), braced).toMatchObject({ method: route.method, path: route.path });
    }
  });

  it("tells a parameter from a word: /api/dispatch/queue is not /api/dispatch/{id}", () => {
    expect(routeFor("GET", "/api/dispatch/queue")?.path).toBe("/api/dispatch/queue");
    expect(routeFor("GET", "/api/dispatch/{id}")?.path).toBe("/api/dispatch/:id");
    expect(routeFor("GET", "/api/templates/preview/{issueId}")?.path).toBe("/api/templates/preview/:issueId");
    expect(routeFor("PUT", "/api/issues/{id}")).toBeUndefined();
    expect(routeFor("GET", "/api/nothing")).toBeUndefined();
  });
});

describe("what a key may call", () => {
  it("lets the root key call every route", () => {
    for (const route of allRoutes()) {
      // Every route, as the typed client names it (the generic types take only known pairs).
      const path = route.path.replace(/:(\w+)/g, "{$1}") as "/api/me";
      expect(allows(ROOT, route.method as "GET", path), `${route.method} ${route.path}`).toBe(true);
    }
    expect(allows(ROOT, "POST", "/api/keys")).toBe(true);
    expect(allows(ROOT, "GET", "/api/audit")).toBe(true);
    expect(allows(ROOT, "POST", "/api/dispatch/{id}/stop")).toBe(true);
    expect(allows(ROOT, "DELETE", "/api/event-destinations/{id}")).toBe(true);
  });

  it("lets a read key read, and change nothing", () => {
    const reader = key(["read"]);
    expect(allows(reader, "GET", "/api/me")).toBe(true);
    expect(allows(reader, "GET", "/api/issues/{id}")).toBe(true);
    expect(allows(reader, "GET", "/api/dashboard/stats")).toBe(true);
    expect(allows(reader, "GET", "/api/dispatch/{id}/activities")).toBe(true);
    for (const [method, path] of [
      ["POST", "/api/issues"],
      ["PATCH", "/api/issues/{id}"],
      ["POST", "/api/issues/{id}/comments"],
      ["POST", "/api/issues/{id}/merge"],
      ["POST", "/api/dispatch/{id}/messages"],
      ["POST", "/api/dispatch/{id}/approve"],
      ["POST", "/api/dispatch/{id}/reject"],
      ["POST", "/api/dispatch/{id}/stop"],
      ["POST", "/api/labels"],
      ["POST", "/api/templates/{id}/versions/{versionId}/promote"],
    ] as const) {
      expect(allows(reader, method, path), `${method} ${path}`).toBe(false);
    }
    expect(allows(reader, "GET", "/api/keys")).toBe(false);
    expect(allows(reader, "GET", "/api/audit")).toBe(false);
    expect(allows(reader, "GET", "/api/event-destinations")).toBe(false);
  });

  it("lets a write key change and steer, but neither claim nor manage keys", () => {
    const writer = key(["write"]);
    expect(allows(writer, "GET", "/api/issues")).toBe(true);
    expect(allows(writer, "PATCH", "/api/issues/{id}")).toBe(true);
    expect(allows(writer, "POST", "/api/dispatch/{id}/stop")).toBe(true);
    expect(allows(writer, "DELETE", "/api/templates/{id}/experiments/{experimentId}")).toBe(true);
    expect(allows(writer, "POST", "/api/dispatch/claim")).toBe(false);
    expect(allows(writer, "POST", "/api/keys")).toBe(false);
  });

  it("lets a dispatch key claim and work dispatches, and read nothing", () => {
    const fleet = key(["dispatch"]);
    expect(allows(fleet, "POST", "/api/dispatch/claim")).toBe(true);
    expect(allows(fleet, "POST", "/api/dispatch/{id}/complete")).toBe(true);
    expect(allows(fleet, "GET", "/api/me")).toBe(false);
    expect(allows(fleet, "GET", "/api/issues")).toBe(false);
    expect(allows(fleet, "POST", "/api/dispatch/{id}/stop")).toBe(false);
  });

  it("refuses a key narrowed to projects what spans every project, whatever its scopes", () => {
    const narrowedAdmin = key(["admin"], [PROJECT]);
    expect(allows(narrowedAdmin, "GET", "/api/issues")).toBe(true);
    expect(allows(narrowedAdmin, "PATCH", "/api/projects/{id}")).toBe(true);
    expect(allows(narrowedAdmin, "POST", "/api/labels")).toBe(true);
    for (const [method, path] of [
      ["GET", "/api/dashboard/stats"],
      ["GET", "/api/dashboard/activity"],
      ["GET", "/api/prompts"],
      ["POST", "/api/projects"],
      ["GET", "/api/keys"],
      ["GET", "/api/audit"],
      ["GET", "/api/event-destinations"],
    ] as const) {
      expect(allows(narrowedAdmin, method, path), `${method} ${path}`).toBe(false);
      expect(allows(key(["admin"]), method, path), `${method} ${path} unnarrowed`).toBe(true);
    }
  });

  it("lets anyone call a public route and no one a bearer route without a caller", () => {
    expect(allows(null, "GET", "/health")).toBe(true);
    expect(allows(null, "POST", "/api/signals/codehost")).toBe(true);
    expect(allows(null, "GET", "/api/issues")).toBe(false);
  });

  it("says which scopes a caller holds, each with what it includes", () => {
    expect(holds(key(["write"]), "read")).toBe(true);
    expect(holds(key(["write"]), "dispatch")).toBe(false);
    expect(holds(key(["admin"]), "dispatch")).toBe(true);
    expect(holds(key(["read", "dispatch"]), "write")).toBe(false);
    expect(holds(null, "read")).toBe(false);
  });
});

describe("a key GET /api/me refuses", () => {
  it("holds dispatch alone, named as the refusal names it", () => {
    expect(refusedCaller("Key agent fleet lacks the read scope")).toEqual({
      kind: "key",
      id: "",
      name: "agent fleet",
      scopes: ["dispatch"],
      projectIds: null,
    });
    expect(refusedCaller("Token not allowed for this resource")).toMatchObject({ name: "", scopes: ["dispatch"] });
  });
});
