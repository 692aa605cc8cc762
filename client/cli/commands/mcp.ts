/**
 * @module client/cli/commands/mcp — `kaizen mcp`: the MCP server over stdio (client/mcp/), what .mcp.json starts;
 * with a key, it offers the tools the key's scopes allow (`GET /api/me`).
 */
import type { Argv } from "yargs";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";

/** Registers `mcp`. */
export function registerMcp(yargs: Argv, define: Define): Argv {
  return yargs.command(
    ...define(
      ...COMMANDS.mcp,
      (y) => y,
      async (_args, { connection, output }) => {
        const { runMcpServer } = await import("../../mcp/server.js");
        // Stdout carries the protocol: a warning goes to stderr, which MCP clients log.
        await runMcpServer(connection, output.err);
        return 0;
      },
    ),
  );
}
