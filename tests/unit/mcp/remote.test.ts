/**
 * What the remote MCP endpoint serves its tools with (client/mcp/remote.ts): the families whose routes
 * the tools call, every one of them and no other, so no tool call meets a 404 in process and the `mcp`
 * function bundles no family it does not need.
 */
import { describe, expect, it } from "vitest";
import { TOOL_FAMILIES } from "../../../client/mcp/remote.js";
import { TOOLS } from "../../../client/mcp/tools.js";
import { allRoutes, routeKey } from "../../../core/src/routes.js";

describe("the remote MCP endpoint's families", () => {
  it("are exactly those serving the tools' routes", () => {
    const familyOf = new Map(allRoutes().map((route) => [routeKey(route), route.family]));
    const needed = new Set(TOOLS.map((tool) => familyOf.get(tool.route)));
    expect(needed.has(undefined)).toBe(false);
    expect(Object.keys(TOOL_FAMILIES).sort()).toEqual([...needed].sort());
  });

  it("serve each tool's route from the family that declares it", () => {
    for (const tool of TOOLS) {
      const route = allRoutes().find((candidate) => routeKey(candidate) === tool.route);
      const family = TOOL_FAMILIES[route?.family as keyof typeof TOOL_FAMILIES];
      expect(Object.keys(family.routes), tool.name).toContain(tool.route);
    }
  });
});
