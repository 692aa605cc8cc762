/** @module client/cli/commands/mcp — `kaizen mcp`: the MCP server over stdio (client/mcp/), what .mcp.json starts. */
import type { Argv } from "yargs";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";

/** Registers `mcp`. */
export function registerMcp(yargs: Argv, define: Define): Argv {
  return yargs.command(
    ...define(
      ...COMMANDS.mcp,
      (y) => y,
      async (_args, { connection }) => {
        const { runMcpServer } = await import("../../mcp/server.js");
        await runMcpServer(connection);
        return 0;
      },
    ),
  );
}
