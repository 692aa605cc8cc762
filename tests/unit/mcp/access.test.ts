import { describe, expect, it } from "vitest";
import { routeSpec, tokenMayCall, toolsAllowed } from "../../../client/mcp/access.js";
import { TOOLS } from "../../../client/mcp/tools.js";
import { allRoutes, routeKey } from "../../../core/src/routes.js";
import { TOKEN_TOOLS } from "../../helpers/mcp-tools.js";

const TOKEN = `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`;
const KEY = `kaizen_${"ab".repeat(32)}`;
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

describe("toolsAllowed", () => {
  it("gives the service key every tool, alone or with a token", () => {
    expect(names(toolsAllowed(TOOLS, { apiKey: KEY }))).toEqual(names(TOOLS));
    expect(names(toolsAllowed(TOOLS, { apiKey: KEY, dispatchToken: TOKEN }))).toEqual(names(TOOLS));
  });

  it("gives a dispatch token alone the agent-loop tools on its own dispatch, issue and prompt", () => {
    expect(names(toolsAllowed(TOOLS, { dispatchToken: TOKEN }))).toEqual(TOKEN_TOOLS);
  });

  it("never gives a dispatch token a person's tools: answering, deciding on a plan, stopping", () => {
    const offered = names(toolsAllowed(TOOLS, { dispatchToken: TOKEN }));
    for (const name of ["send_message", "approve_plan", "reject_plan", "stop_dispatch"]) {
      expect(offered, name).not.toContain(name);
      expect(names(toolsAllowed(TOOLS, { apiKey: KEY })), name).toContain(name);
    }
  });

  it("gives nothing without a credential", () => {
    expect(toolsAllowed(TOOLS, {})).toEqual([]);
    expect(toolsAllowed(TOOLS, { apiKey: "", dispatchToken: "" })).toEqual([]);
  });

  it("follows the route table: the token's tools call exactly the routes that take a token", () => {
    const tokenRoutes = allRoutes()
      .filter((route) => route.token !== undefined)
      .map(routeKey)
      .sort();
    const tokenToolRoutes = toolsAllowed(TOOLS, { dispatchToken: TOKEN })
      .map((tool) => tool.route)
      .sort();
    // A token may read its dispatch and its prompt, which no tool does: the claim's and the
    // heartbeat's answers carry them to an MCP client.
    const untooled = ["GET /api/dispatch/:id", "GET /api/prompts/:id"];
    for (const route of untooled) expect(TOOLS.map((tool) => tool.route)).not.toContain(route);
    expect(tokenToolRoutes).toEqual(tokenRoutes.filter((route) => !untooled.includes(route)));
  });
});

describe("routeSpec and tokenMayCall", () => {
  it("finds each tool's route in the table, every one a bearer route under /api/", () => {
    for (const tool of TOOLS) {
      const route = routeSpec(tool.route);
      expect(route.auth, tool.name).toBe("bearer");
      expect(route.path.startsWith("/api/"), tool.name).toBe(true);
    }
  });

  it("reads the token scope of a route", () => {
    expect(tokenMayCall("POST /api/dispatch/:id/heartbeat")).toBe(true);
    expect(tokenMayCall("POST /api/issues/:id/comments")).toBe(true);
    expect(tokenMayCall("POST /api/prompts/:id/reviews")).toBe(true);
    expect(tokenMayCall("GET /api/issues/:id")).toBe(true);
    expect(tokenMayCall("GET /api/issues")).toBe(false);
    expect(tokenMayCall("POST /api/dispatch/claim")).toBe(false);
  });

  it("throws for a route the table lacks", () => {
    expect(() => routeSpec("POST /api/dispatch/:id/abandon")).toThrow("No route POST /api/dispatch/:id/abandon");
    expect(() => tokenMayCall("GET /api/nowhere")).toThrow();
  });
});
