/**
 * `GET /llms.txt`'s guide (core/src/service/llms-txt.ts): every link on the deployment's base URL, and
 * every path it names one the route table serves, so the guide cannot send an agent to a route that
 * is not there; the remote MCP endpoint linked, with how to authenticate.
 */
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../../core/src/routes.js";
import { llmsText } from "../../../core/src/service/llms-txt.js";

const BASE = "https://kaizen.example.com";

describe("the agents' guide", () => {
  const text = llmsText(BASE);

  it("is in the llms.txt form: a title, a summary, sections", () => {
    expect(text.startsWith("# Kaizen\n\n> ")).toBe(true);
    expect(text).toContain("\n## Working an issue\n");
    expect(text).toContain("\n## Reference\n");
  });

  it("names only routes the table serves, each on the base URL", () => {
    const named = [...text.matchAll(/https:\/\/kaizen\.example\.com(\/[^\s)`?]*)/g)].map(([, path]) => path as string);
    expect(named.length).toBeGreaterThanOrEqual(10);
    const served = allRoutes().map((route) => new RegExp(`^${route.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`));
    for (const path of named) {
      const concrete = path.replace(/<[^>]+>/g, "x");
      expect(
        served.some((route) => route.test(concrete)),
        path,
      ).toBe(true);
    }
    for (const step of ["/api/dispatch/claim", "/heartbeat", "/activities", "/complete", "/release", "/reviews"]) {
      expect(named.some((path) => path.endsWith(step))).toBe(true);
    }
  });

  it("links the remote MCP endpoint on the base URL and says how to authenticate to it", () => {
    expect(text).toContain(`[Remote MCP](${BASE}/mcp)`);
    const remote = text.slice(text.indexOf("[Remote MCP]"));
    expect(remote).toContain("Authorization: Bearer <key or dispatch token>");
    expect(allRoutes().some((route) => route.method === "POST" && route.path === "/mcp")).toBe(true);
  });

  it("never names another host", () => {
    expect(text.replaceAll(BASE, "")).not.toMatch(/https?:\/\//);
  });
});
