/**
 * @module client/cli/command-index — the top-level commands as `kaizen --help` lists them (usage and
 * one line each), and the module under ./commands/ that registers each. main imports only the module
 * of the command it runs, so a command starts without loading the others and what they import; the
 * modules take their commands' usage and line from here.
 */
import type { Argv } from "yargs";
import type { Define } from "./command.js";

/** Registers a module's commands on the parser (yargs' `.command()` adds them in place). */
export type Register = (yargs: Argv, define: Define) => Argv;

/** Each top-level command: its usage (name and positionals) and its line in `kaizen --help`. */
export const COMMANDS = {
  issues: ["issues", "List, show, create, update and merge issues"],
  projects: ["projects", "List and show projects; add and remove the sources whose signals they own"],
  signals: ["signals", "Send a manual signal; list and show received signals"],
  providers: ["providers", "Check a provider's webhook: send a signed test delivery"],
  next: ["next", "Claim the next issue from the queue: prints its prompt and the dispatch token"],
  heartbeat: ["heartbeat <dispatch>", "Extend a dispatch's lease by its length from now"],
  activity: [
    "activity <dispatch> <body>",
    "Say what you are doing on a dispatch; --type elicitation asks a person, --type plan shows your plan",
  ],
  complete: [
    "complete <dispatch>",
    "Report a dispatch's outcome: done moves the issue to done, failed gives it back to todo",
  ],
  release: ["release <dispatch>", "Give the issue back untouched (it returns to todo)"],
  run: [
    "run",
    "Work the queue with an agent command: claim, hand it the prompt, post its output, complete (-- <command>)",
  ],
  watch: [
    "watch <dispatch>",
    "Follow a dispatch: its activities as they arrive, what it waits for and its usage, until it ends",
  ],
  answer: ["answer <dispatch> <text>", "Answer an agent's question (a person's message; the dispatch works again)"],
  approve: ["approve <dispatch>", "Approve the plan a dispatch waits on: it works again and may complete"],
  reject: ["reject <dispatch> <feedback>", "Send a plan back with what to change: the agent posts a new one"],
  stop: ["stop <dispatch> <reason>", "Stop an agent at work: its issue goes to todo, backlog or canceled (--then)"],
  review: ["review <prompt>", "Rate the prompt you worked from (1..5 each), so its template improves"],
  comment: ["comment <issue> <body>", "Comment on an issue (body - reads stdin)"],
  templates: ["templates", "List and show prompt templates; preview an issue's prompt"],
  partials: ["partials", "List, show, create, update and delete the partials template versions include"],
  experiments: ["experiments", "Run experiments between a template's active version and a candidate draft"],
  events: ["events", "Outbound events: destinations, their deliveries, and tail to watch events arrive"],
  runners: [
    "runners",
    "Add, list, show, change and delete hosted runners: GitHub Actions workflows Kaizen hands dispatches to (needs the admin scope)",
  ],
  keys: ["keys", "Make, list, show and revoke API keys of their own: scopes, projects, expiry (needs the admin scope)"],
  audit: [
    "audit",
    "List the audit log, newest first: who changed what, each refused request, Kaizen's own actions (needs the admin scope)",
  ],
  queue: ["queue", "Show what claims would take, in their order, with each score's parts"],
  stats: [
    "stats",
    "Show the dashboard's figures: issues, queue, dispatches, signals, time to done, today's usage per agent, and each agent's claims and outcomes over --days (--json: the stats with `usage`, today's entry of the usage report, and `agents`, the agents dashboard's rows)",
  ],
  health: ["health", "Check the service and its database (no key needed); exit 1 when degraded"],
  connect: [
    "connect [dir]",
    "Connect a code repository to Kaizen: key check, project, MCP entry, settings, agent guide",
  ],
  mcp: ["mcp", "Run the Kaizen MCP server over stdio (what .mcp.json starts)"],
} as const satisfies Record<string, readonly [usage: string, description: string]>;

export type CommandName = keyof typeof COMMANDS;

export interface CommandModule {
  /** The top-level commands its `register` adds, in their order. */
  commands: readonly CommandName[];
  load(): Promise<Register>;
}

/** The command modules in `kaizen --help`'s order. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  { commands: ["issues"], load: async () => (await import("./commands/issues.js")).registerIssues },
  { commands: ["projects"], load: async () => (await import("./commands/projects.js")).registerProjects },
  { commands: ["signals"], load: async () => (await import("./commands/signals.js")).registerSignals },
  { commands: ["providers"], load: async () => (await import("./commands/providers.js")).registerProviders },
  {
    commands: ["next", "heartbeat", "activity", "complete", "release", "review", "comment"],
    load: async () => (await import("./commands/work.js")).registerWork,
  },
  { commands: ["run"], load: async () => (await import("./commands/run.js")).registerRun },
  {
    commands: ["watch", "answer", "approve", "reject", "stop"],
    load: async () => (await import("./commands/steering.js")).registerSteering,
  },
  { commands: ["templates"], load: async () => (await import("./commands/templates.js")).registerTemplates },
  { commands: ["partials"], load: async () => (await import("./commands/partials.js")).registerPartials },
  { commands: ["experiments"], load: async () => (await import("./commands/experiments.js")).registerExperiments },
  { commands: ["events"], load: async () => (await import("./commands/events.js")).registerEvents },
  { commands: ["runners"], load: async () => (await import("./commands/runners.js")).registerRunners },
  { commands: ["keys"], load: async () => (await import("./commands/keys.js")).registerKeys },
  { commands: ["audit"], load: async () => (await import("./commands/audit.js")).registerAudit },
  {
    commands: ["queue", "stats", "health"],
    load: async () => (await import("./commands/overview.js")).registerOverview,
  },
  { commands: ["connect"], load: async () => (await import("./commands/connect.js")).registerConnect },
  { commands: ["mcp"], load: async () => (await import("./commands/mcp.js")).registerMcp },
];

/**
 * The modules a command line needs: none when it names no command (`--help`, `--version`), its
 * command's module when it names one, every module otherwise (a mistyped command, for the
 * suggestion; `completion`), as yargs then may look at any of them.
 * @example modulesFor(["issues", "list", "--json"]) // the issues module only
 */
export function modulesFor(args: readonly string[]): readonly CommandModule[] {
  const word = args.find((arg) => !arg.startsWith("-"));
  if (word === undefined) return [];
  const named = COMMAND_MODULES.find((module) => (module.commands as readonly string[]).includes(word));
  return named ? [named] : COMMAND_MODULES;
}
