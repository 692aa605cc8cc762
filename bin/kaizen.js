#!/usr/bin/env node
/**
 * @module bin/kaizen — the `kaizen` executable: registers tsx so Node runs the TypeScript sources,
 * then hands the arguments to client/cli/main.ts and exits with the status it returns.
 */
import { register } from "tsx/esm/api";

// Packages of plain JavaScript are loaded before tsx's hooks are registered: through them each of
// their files would cost a round trip to the hooks' thread, and only the TypeScript sources need
// them. yargs is loaded by every command; the MCP SDK and zod by `kaizen mcp`.
const packages = ["yargs"];
if (process.argv[2] === "mcp") {
  packages.push("@modelcontextprotocol/sdk/server/mcp.js", "@modelcontextprotocol/sdk/server/stdio.js", "zod/mini");
}
await Promise.all(packages.map((name) => import(name)));
register();
const { main } = await import("../client/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
