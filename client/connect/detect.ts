/**
 * @module client/connect/detect — which coding agents a repository is set up for, from the files
 * they read: `.mcp.json` and `CLAUDE.md` (Claude Code), `AGENTS.md` (Codex and the agents that follow
 * that convention), `.cursor/rules/` and `.cursor/mcp.json` (Cursor).
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

/** What a repository holds for agents; each flag is one file or folder found. */
export interface AgentSetup {
  /** `.mcp.json`: project MCP servers (Claude Code, and other MCP clients that read it). */
  mcpJson: boolean;
  /** `CLAUDE.md`: Claude Code's instructions. */
  claudeMd: boolean;
  /** `AGENTS.md`: the cross-agent instructions file. */
  agentsMd: boolean;
  /** `.cursor/rules/`: Cursor's project rules. */
  cursorRules: boolean;
  /** `.cursor/mcp.json`: Cursor's project MCP servers. */
  cursorMcp: boolean;
}

/** The paths {@link detectAgents} looks at, relative to the repository. */
export const AGENT_FILES = {
  mcpJson: ".mcp.json",
  claudeMd: "CLAUDE.md",
  agentsMd: "AGENTS.md",
  cursorRules: join(".cursor", "rules"),
  cursorMcp: join(".cursor", "mcp.json"),
} as const satisfies Record<keyof AgentSetup, string>;

/**
 * The agent files present in `dir` (a folder for `.cursor/rules`, files for the rest).
 * @example detectAgents("/src/shop") // { mcpJson: true, claudeMd: true, agentsMd: false, cursorRules: false, cursorMcp: false }
 */
export function detectAgents(dir: string): AgentSetup {
  const isFile = (path: string) => existsSync(join(dir, path)) && statSync(join(dir, path)).isFile();
  const isDir = (path: string) => existsSync(join(dir, path)) && statSync(join(dir, path)).isDirectory();
  return {
    mcpJson: isFile(AGENT_FILES.mcpJson),
    claudeMd: isFile(AGENT_FILES.claudeMd),
    agentsMd: isFile(AGENT_FILES.agentsMd),
    cursorRules: isDir(AGENT_FILES.cursorRules),
    cursorMcp: isFile(AGENT_FILES.cursorMcp),
  };
}

/** Whether Cursor is set up here: it has rules or MCP servers of its own. */
export function usesCursor(setup: AgentSetup): boolean {
  return setup.cursorRules || setup.cursorMcp;
}

/**
 * The agents `setup` shows, by name with the files that show them; empty when there are none.
 * @example describeAgents({ mcpJson: true, claudeMd: true, agentsMd: false, cursorRules: true, cursorMcp: false })
 * // ["Claude Code (.mcp.json, CLAUDE.md)", "Cursor (.cursor/rules)"]; AGENTS.md: "Codex and other AGENTS.md readers (AGENTS.md)"
 */
export function describeAgents(setup: AgentSetup): string[] {
  const named = (name: string, keys: (keyof AgentSetup)[]) => {
    const found = keys.filter((key) => setup[key]).map((key) => AGENT_FILES[key]);
    return found.length > 0 ? [`${name} (${found.join(", ")})`] : [];
  };
  return [
    ...named("Claude Code", ["mcpJson", "claudeMd"]),
    ...named("Codex and other AGENTS.md readers", ["agentsMd"]),
    ...named("Cursor", ["cursorRules", "cursorMcp"]),
  ];
}
