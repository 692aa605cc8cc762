/**
 * @module client/connect/plan — every file `kaizen connect` writes, worked out from the files as
 * they are: pure (the caller reads and writes), so a plan can be shown, tested and applied.
 */
import { join } from "node:path";
import { KAIZEN_ENV_FILE } from "../config.js";
import { AGENT_FILES, type AgentSetup, usesCursor } from "./detect.js";
import { appendOnce, ensureIgnored, type McpServerEntry, mergeEnvFile, mergeMcpConfig } from "./files.js";
import {
  agentGuide,
  claudeSkill,
  cursorRule,
  GUIDE_PATH,
  MICROAGENT_PATH,
  openHandsMicroagent,
  pointerBlock,
  SKILL_PATH,
} from "./guide.js";
import { WORKFLOW_PATH, type WorkflowChoice, workflowAfter } from "./workflow.js";

/** The MCP server's name in `.mcp.json`. */
export const MCP_SERVER_NAME = "kaizen";
/** Keeps `.kaizen/env` out of git wherever `.kaizen/` is committed: it travels with the repository. */
export const KAIZEN_IGNORE_FILE = join(".kaizen", ".gitignore");
export const CURSOR_RULE_FILE = join(".cursor", "rules", "kaizen.mdc");

/** One file of the plan: its text now (`undefined`: it does not exist) and after. */
export interface FileChange {
  /** Relative to the repository. */
  path: string;
  before: string | undefined;
  after: string;
  /** Holds the API key: written with mode 600, only once it is known to be git-ignored. */
  secret?: boolean;
  /** Why the file is written, for the report. */
  purpose: string;
}

/** What the plan needs: the repository's agent files, a reader for its files, and the connection to save. */
export interface PlanInput {
  setup: AgentSetup;
  /** A file's text, relative to the repository; undefined when it does not exist. */
  read: (path: string) => string | undefined;
  url: string;
  apiKey: string;
  project: { id: string; name: string };
  mcpEntry: McpServerEntry;
  /** With `--github-actions`: the workflow that works Kaizen's hand-offs in GitHub Actions. */
  githubActions?: WorkflowChoice | undefined;
}

/**
 * The files to write, in the order to write them (the ignore rule before the key it protects).
 * Unchanged files are in the plan too, with `before === after`.
 * @example planConnect({ setup, read, url, apiKey, project, mcpEntry }).filter((f) => f.before !== f.after)
 */
export function planConnect(input: PlanInput): FileChange[] {
  const { setup, read } = input;
  const facts = { projectName: input.project.name, projectId: input.project.id };
  const change = (path: string, after: (before: string | undefined) => string, purpose: string, secret = false) => {
    const before = read(path);
    return { path, before, after: after(before), purpose, ...(secret ? { secret } : {}) };
  };
  const changes: FileChange[] = [
    change(
      KAIZEN_IGNORE_FILE,
      (text) => ensureIgnored(text, "env", "written by kaizen connect: the API key stays out of git"),
      "keeps .kaizen/env out of git",
    ),
    change(
      KAIZEN_ENV_FILE,
      (text) =>
        mergeEnvFile(
          text,
          { KAIZEN_URL: input.url, KAIZEN_API_KEY: input.apiKey, KAIZEN_PROJECT: input.project.id },
          "# Kaizen connection for this repository (kaizen connect). Secret: git-ignored, never commit it.",
        ),
      "URL, API key and project (git-ignored)",
      true,
    ),
    change(GUIDE_PATH, () => agentGuide(facts), "agent guide"),
    change(
      AGENT_FILES.mcpJson,
      (text) => mergeMcpConfig(text, MCP_SERVER_NAME, input.mcpEntry),
      "MCP server for Claude Code",
    ),
    change(SKILL_PATH, () => claudeSkill(facts), "Claude Code skill"),
    change(MICROAGENT_PATH, () => openHandsMicroagent(facts), "OpenHands microagent"),
  ];
  if (input.githubActions) {
    const choice = input.githubActions;
    changes.push(
      change(WORKFLOW_PATH, (text) => workflowAfter(text, choice), "GitHub Actions workflow for hosted runners"),
    );
  }
  if (usesCursor(setup)) {
    changes.push(
      change(
        AGENT_FILES.cursorMcp,
        (text) => mergeMcpConfig(text, MCP_SERVER_NAME, input.mcpEntry),
        "MCP server for Cursor",
      ),
      change(CURSOR_RULE_FILE, () => cursorRule(), "Cursor rule pointing at the guide"),
    );
  }
  // AGENTS.md is the file most agents read: it gets the pointer when no instructions file exists yet.
  const pointerFiles = [
    ...(setup.agentsMd || !setup.claudeMd ? [AGENT_FILES.agentsMd] : []),
    ...(setup.claudeMd ? [AGENT_FILES.claudeMd] : []),
  ];
  for (const path of pointerFiles) {
    changes.push(change(path, (text) => appendOnce(text, pointerBlock(), GUIDE_PATH), "pointer to the guide"));
  }
  return changes;
}
