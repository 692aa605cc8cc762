/**
 * The remote MCP endpoint (docs/api.md#remote-mcp) driven by the official MCP Inspector's CLI over HTTP
 * (`npx mcp-inspector --cli <url>/mcp --transport http`), against a real local server: it lists the
 * tools a credential allows and calls one, with the credential as an `Authorization` header, and is
 * refused without one.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../client/mcp/tools.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

const ROOT = join(import.meta.dirname, "..", "..");

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer("remote_mcp_inspector");
});

afterAll(async () => {
  await server?.stop();
});

/** Runs the Inspector's CLI against this server's `/mcp`; its exit code and output. */
function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "npx",
      ["--no-install", "mcp-inspector", "--cli", `${server.url}/mcp`, "--transport", "http", ...args],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const ROOT_KEY = ["--header", `Authorization: Bearer ${TEST_API_KEY}`];

describe("the MCP Inspector's CLI over HTTP", () => {
  it("lists every tool with the root key", async () => {
    const { code, stdout, stderr } = await inspector([...ROOT_KEY, "--method", "tools/list"]);
    expect(code, stderr).toBe(0);
    const { tools } = JSON.parse(stdout) as { tools: { name: string; inputSchema: { type: string } }[] };
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect(tools.every((tool) => tool.inputSchema.type === "object")).toBe(true);
  });

  it("calls a tool: an issue made through it is the API's", async () => {
    const { code, stdout, stderr } = await inspector([
      ...ROOT_KEY,
      "--method",
      "tools/call",
      "--tool-name",
      "create_issue",
      "--tool-arg",
      "title=Made by the inspector",
      "--tool-arg",
      "type=task",
    ]);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as { isError?: boolean; structuredContent: { id: string; title: string } };
    expect(result.isError ?? false).toBe(false);
    const read = await fetch(`${server.url}/api/issues/${result.structuredContent.id}`, {
      headers: { Authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect(((await read.json()) as { data: { title: string } }).data.title).toBe("Made by the inspector");
  });

  it("is refused without a credential", async () => {
    const { code, stdout, stderr } = await inspector(["--method", "tools/list"]);
    expect(code).not.toBe(0);
    expect(`${stdout}${stderr}`).toContain("Missing or malformed Authorization header");
  });
});
