/** @module client/cli/commands/connect — `kaizen connect [dir]`: connect a repository (see client/connect/). */
import { createInterface } from "node:readline/promises";
import type { Argv } from "yargs";
import { type ConnectReport, connectRepository, type Launcher } from "../../connect/connect.js";
import { AGENT_PRESETS, DEFAULT_EVENT_TYPE } from "../../connect/workflow.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { emit, formatFields, formatTable, paint } from "../output.js";

/** Shown by `kaizen connect --help`. */
const CONNECT_EPILOGUE = `Writes, in the repository (a second run changes nothing):
  .kaizen/env         KAIZEN_URL, KAIZEN_API_KEY, KAIZEN_PROJECT; mode 600, written only once
                      git check-ignore and git ls-files show it ignored and untracked
  .kaizen/.gitignore  "env", so the key stays out of git wherever the repository goes
  .kaizen/AGENTS.md   a short guide to the agent loop
  .mcp.json           the "kaizen" MCP server (no key in it); other servers are kept
  .cursor/mcp.json and .cursor/rules/kaizen.mdc, when .cursor/rules/ or .cursor/mcp.json exists
  AGENTS.md, CLAUDE.md  a pointer to the guide, appended once (AGENTS.md made when neither exists)
  .claude/skills/kaizen/SKILL.md       the guide as a Claude Code skill
  .openhands/microagents/kaizen.md     the guide as an OpenHands microagent
With --github-actions, also:
  .github/workflows/kaizen.yml  answers a hosted runner's repository dispatch with
                      kaizen run --dispatch -- <--agent-command>; kept as it is once its first
                      line is no longer kaizen connect's (then it is yours)
On a TTY it asks for the project and before writing; --yes never asks.`;

/**
 * The report as people read it: the project, the agents found, each file and what happened to it.
 * @example formatConnectReport(report, false)
 */
/** How `connect` says what became of the repository as a project source. */
const SOURCE_OUTCOMES = {
  added: "its signals belong to the project",
  listed: "already a source of the project",
  owned: "another project owns it (left there)",
} as const;

export function formatConnectReport(report: ConnectReport, colour: boolean): string {
  const project = `${report.project.name} (${report.project.id})${report.project.created ? (report.dryRun ? ", to be created" : ", created") : ""}`;
  const lines = [
    formatFields(
      [
        ["repository", report.dir],
        ["kaizen", report.url],
        ["project", project],
        ["agents", report.agents.length > 0 ? report.agents.join("; ") : "none found (generic MCP and AGENTS.md)"],
        [
          "source",
          report.source === null
            ? "no origin remote (kaizen projects sources add names the repository)"
            : `${report.source.repository}: ${SOURCE_OUTCOMES[report.source.outcome]}`,
        ],
        ["mcp server", [report.mcpServer.command, ...report.mcpServer.args].join(" ")],
        [
          ".kaizen/env",
          report.envFile === null
            ? "not in a git repository: .kaizen/.gitignore will keep it out once it is one"
            : report.envFile.ignored && !report.envFile.tracked
              ? "ignored by git, not tracked"
              : "NOT ignored by git",
        ],
      ],
      colour,
    ),
    "",
    formatTable(
      [
        {
          header: report.dryRun ? "WOULD BE" : "FILE",
          value: (f: ConnectReport["files"][number]) => f.action,
          style: (f) => (f.action === "unchanged" ? "dim" : "green"),
        },
        { header: "PATH", value: (f) => f.path },
        { header: "FOR", value: (f) => f.purpose },
      ],
      report.files,
      colour,
    ),
    "",
    report.changed
      ? report.dryRun
        ? "Dry run: nothing was written."
        : paint(
            colour,
            "green",
            "Connected. Agents in this repository can now run `kaizen next` or use the kaizen MCP tools.",
          )
      : "Nothing changed: this repository was already connected.",
  ];
  return lines.join("\n");
}

/** Registers `connect`. */
export function registerConnect(yargs: Argv, define: Define): Argv {
  return yargs.command(
    ...define(
      ...COMMANDS.connect,
      (y) =>
        y
          .positional("dir", { type: "string", default: ".", describe: "The repository (default: here)" })
          .option("project", { type: "string", describe: "Project id (prj_…) or name" })
          .option("create-project", {
            type: "boolean",
            default: false,
            describe: "Create the project (--project's name, else the directory's) unless one has that name",
          })
          .option("url", {
            type: "string",
            describe: "Kaizen's URL (default: KAIZEN_URL, else http://localhost:4242)",
          })
          .option("yes", { alias: "y", type: "boolean", default: false, describe: "Ask nothing (for scripts)" })
          .option("dry-run", { type: "boolean", default: false, describe: "Show what would change; write nothing" })
          .option("launcher", {
            type: "string",
            choices: ["auto", "node", "npx"] as const,
            default: "auto",
            describe:
              "How the MCP entry starts kaizen: node with this checkout's bin/kaizen.js, or npx (an installed package only, never a download); auto: npx when installed as a package",
          })
          .option("github-actions", {
            type: "boolean",
            default: false,
            describe:
              "Also write .github/workflows/kaizen.yml, which works a hosted runner's dispatches in GitHub Actions",
          })
          .option("agent-command", {
            type: "string",
            default: "claude-code",
            describe: `The workflow's agent: ${Object.keys(AGENT_PRESETS).join(" or ")} (installed and run without prompts), or a command line of your own`,
          })
          .option("kaizen-package", {
            type: "string",
            describe:
              "Where the workflow installs the kaizen CLI from (an npm install spec; default: this checkout's GitHub origin as github:owner/name)",
          })
          .option("event-type", {
            type: "string",
            default: DEFAULT_EVENT_TYPE,
            describe: "The repository dispatch event the workflow answers (the runner's eventType)",
          })
          .epilogue(CONNECT_EPILOGUE),
      async (args, { io, output }) => {
        const interactive = !args.yes && io.stdin.isTTY === true && io.stdout.isTTY === true;
        const readline = interactive
          ? createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream })
          : undefined;
        try {
          const report = await connectRepository({
            dir: args.dir ?? ".",
            env: io.env,
            url: args.url,
            project: args.project,
            createProject: args.createProject,
            launcher: args.launcher as Launcher,
            dryRun: args.dryRun,
            ask: readline ? (question) => readline.question(question) : undefined,
            log: (line) => output.err(line),
            githubActions: args.githubActions
              ? { agentCommand: args.agentCommand, kaizenPackage: args.kaizenPackage, eventType: args.eventType }
              : undefined,
          });
          emit(output, report, (r) => formatConnectReport(r, output.colour));
        } finally {
          readline?.close();
        }
        return 0;
      },
    ),
  );
}
