/**
 * @module client/mcp/main — runs the Kaizen MCP server over stdio with the connection the environment
 * names (`KAIZEN_URL`, `KAIZEN_API_KEY`, `KAIZEN_DISPATCH_TOKEN`): `node --import tsx client/mcp/main.ts`.
 * `kaizen mcp` runs the same server through `runMcpServer`.
 */
import { resolveConnection } from "../config.js";
import { runMcpServer } from "./server.js";

try {
  await runMcpServer(resolveConnection(process.env, process.cwd()));
} catch (error) {
  // stdout carries the protocol; anything for a human goes to stderr.
  console.error(`kaizen mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
