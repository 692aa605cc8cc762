/**
 * @module client/connect/connect — `kaizen connect`: checks the key against the service, picks or
 * creates the project, detects the repository's agents, and writes the plan of ./plan.ts (the key
 * only once git is known to ignore it). Running it again changes nothing.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { listAllProjects } from "../cli/options.js";
import { missingKeyMessage, UsageError } from "../cli/runtime.js";
import { createKaizenClient, KaizenApiError, type KaizenClient, type Schema } from "../client.js";
import { KAIZEN_ENV_FILE, resolveConnection } from "../config.js";
import { describeAgents, detectAgents } from "./detect.js";
import type { McpServerEntry } from "./files.js";
import { gitStanding, originRepository, originUrl, repositoryOfUrl } from "./git.js";
import { type FileChange, planConnect } from "./plan.js";
import { choiceProblem, type WorkflowChoice } from "./workflow.js";

/** This Kaizen's own root: the launcher the MCP entry runs is its `bin/kaizen.js`. */
const KAIZEN_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** How the MCP entry starts the server: `node <this repo>/bin/kaizen.js mcp`, or `npx --no kaizen mcp`. */
export type Launcher = "auto" | "node" | "npx";

/** A failure that is not the command line's fault: exit status 1. */
export class ConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectError";
  }
}

/**
 * The MCP server entry for `launcher`. `auto` is `npx` when this CLI runs from an installed package
 * (under `node_modules`, so `npx --no` finds it without downloading anything) and otherwise the
 * absolute path to this checkout's launcher. Never `npx -y kaizen`: that would fetch whatever
 * package holds the name on the registry.
 * @example mcpEntry("node") // { command: "node", args: ["/src/kaizen/bin/kaizen.js", "mcp"] }
 */
export function mcpEntry(launcher: Launcher, root = KAIZEN_ROOT): McpServerEntry {
  const installed = root.split(sep).includes("node_modules");
  if (launcher === "npx" || (launcher === "auto" && installed))
    return { command: "npx", args: ["--no", "kaizen", "mcp"] };
  return { command: "node", args: [join(root, "bin", "kaizen.js"), "mcp"] };
}

/** Asks a question and resolves with the answer (readline on a TTY; scripted in tests). */
export type Ask = (question: string) => Promise<string>;

export interface ConnectOptions {
  /** The repository to connect. */
  dir: string;
  env: NodeJS.ProcessEnv;
  /** The service; default from the environment or `.kaizen/env`, else the local server. */
  url?: string | undefined;
  /** A project id (`prj_…`) or name. */
  project?: string | undefined;
  /** Create the project (named `project`, or after the directory) when none has that name. */
  createProject: boolean;
  launcher: Launcher;
  /** Work out and report, write nothing and create nothing. */
  dryRun: boolean;
  /** Set on a TTY without `--yes`: questions are asked instead of failing. */
  ask?: Ask | undefined;
  /** Progress lines for people (stderr). */
  log: (line: string) => void;
  /**
   * `--github-actions`: also write the workflow; `kaizenPackage` undefined takes this checkout's
   * GitHub origin ({@link kaizenPackageOf}).
   */
  githubActions?: (Omit<WorkflowChoice, "kaizenPackage"> & { kaizenPackage?: string | undefined }) | undefined;
}

/** One file in the report. */
export interface FileOutcome {
  path: string;
  action: "created" | "updated" | "unchanged";
  purpose: string;
}

/** What `kaizen connect` did (printed as text, or as JSON with `--json`). */
export interface ConnectReport {
  dir: string;
  url: string;
  keySource: string;
  project: { id: string; name: string; created: boolean };
  agents: string[];
  mcpServer: McpServerEntry;
  files: FileOutcome[];
  changed: boolean;
  /** `.kaizen/env` as git sees it; null outside a git repository. */
  envFile: { ignored: boolean; tracked: boolean } | null;
  /**
   * The repository its `origin` names, recorded as a source of the project (docs/api.md#project-sources):
   * `added`, already `listed`, or `owned` by another project (left there); null without an origin.
   */
  source: { repository: string; outcome: "added" | "listed" | "owned" } | null;
  dryRun: boolean;
}

/**
 * Connects `options.dir` to a Kaizen instance and reports what it did.
 * @example const report = await connectRepository({ dir: ".", env: process.env, createProject: true, launcher: "auto", dryRun: false, log: console.error });
 */
export async function connectRepository(options: ConnectOptions): Promise<ConnectReport> {
  const dir = resolve(options.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${options.dir} is not a directory`);
  const githubActions = options.githubActions && workflowChoice(options.githubActions);
  const env = options.url ? { ...options.env, KAIZEN_URL: options.url } : options.env;
  const connection = resolveConnection(env, dir);
  if (!connection.apiKey || !connection.apiKeySource) throw new UsageError(missingKeyMessage(connection.url));
  const kaizen = createKaizenClient({ baseUrl: connection.url, token: connection.apiKey });
  await checkKey(kaizen, connection.url, connection.apiKeySource);
  options.log(`Kaizen at ${connection.url} accepted the key from ${connection.apiKeySource}.`);

  const project = await chooseProject(kaizen, dir, options, connection.projectId);
  const setup = detectAgents(dir);
  const read = (path: string) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : undefined);
  const entry = mcpEntry(options.launcher);
  const plan = planConnect({
    setup,
    read,
    url: connection.url,
    apiKey: connection.apiKey,
    project,
    mcpEntry: entry,
    githubActions,
  });
  const changed = plan.some((change) => change.before !== change.after) || project.created;

  if (options.ask && !options.dryRun && plan.some((change) => change.before !== change.after)) {
    for (const change of plan.filter((c) => c.before !== c.after)) {
      options.log(`  ${change.before === undefined ? "create" : "update"}  ${change.path}  (${change.purpose})`);
    }
    const answer = (await options.ask("Write these files? [Y/n] ")).trim().toLowerCase();
    if (answer !== "" && !answer.startsWith("y")) throw new ConnectError("Nothing written.");
  }
  const envFile = options.dryRun ? standing(dir) : applyPlan(dir, plan);
  const repository = originRepository(dir);
  const source = repository ? await recordSource(kaizen, project, repository, options) : null;
  return {
    dir,
    url: connection.url,
    keySource: connection.apiKeySource,
    project,
    agents: describeAgents(setup),
    mcpServer: entry,
    files: plan.map((change) => ({
      path: change.path,
      action: change.before === change.after ? "unchanged" : change.before === undefined ? "created" : "updated",
      purpose: change.purpose,
    })),
    changed,
    envFile,
    source,
    dryRun: options.dryRun,
  };
}

/**
 * Where a workflow installs the kaizen CLI from when `--kaizen-package` is not given: this checkout's
 * `origin` as `github:owner/name` when it is on GitHub, else undefined (the option is then required).
 * @example kaizenPackageOf("/src/kaizen") // "github:acme/kaizen"
 */
export function kaizenPackageOf(root = KAIZEN_ROOT): string | undefined {
  const url = originUrl(root);
  const repository = url === undefined ? undefined : repositoryOfUrl(url);
  return repository && /(^|[@/.])github\.com[:/]/i.test(url ?? "") ? `github:${repository}` : undefined;
}

/** The workflow choice, complete and checked: a usage error says what is wrong. */
function workflowChoice(asked: NonNullable<ConnectOptions["githubActions"]>): WorkflowChoice {
  const kaizenPackage = asked.kaizenPackage ?? kaizenPackageOf();
  if (kaizenPackage === undefined) {
    throw new UsageError(
      "--github-actions needs --kaizen-package: where the workflow installs the kaizen CLI from (an npm install spec such as github:you/kaizen)",
    );
  }
  const choice = { ...asked, kaizenPackage };
  const problem = choiceProblem(choice);
  if (problem) throw new UsageError(problem);
  return choice;
}

/**
 * Lists `repository` among the project's code-host sources, so its webhooks' signals belong to the
 * project; one another project owns stays there (a line says so).
 */
async function recordSource(
  kaizen: KaizenClient,
  project: { id: string; name: string },
  repository: string,
  options: ConnectOptions,
): Promise<NonNullable<ConnectReport["source"]>> {
  if (options.dryRun && !project.id.startsWith("prj_")) return { repository, outcome: "added" };
  const { data, response } = await kaizen.GET("/api/projects/{id}", { params: { path: { id: project.id } } });
  const current = data?.data;
  if (!current) throw new ConnectError(`No project ${project.id}`);
  const listed = current.sources.codehost.some((name) => name.toLowerCase() === repository.toLowerCase());
  if (listed) return { repository, outcome: "listed" };
  if (options.dryRun) return { repository, outcome: "added" };
  const etag = response.headers.get("etag");
  try {
    await kaizen.PATCH("/api/projects/{id}", {
      params: { path: { id: project.id }, header: etag ? { "If-Match": etag } : undefined },
      body: { sources: { ...current.sources, codehost: [...current.sources.codehost, repository] } },
    });
  } catch (error) {
    if (!(error instanceof KaizenApiError) || error.status !== 409) throw error;
    options.log(`${repository} stays where it is: ${error.error}.`);
    return { repository, outcome: "owned" };
  }
  options.log(`Signals from ${repository} now belong to "${project.name}".`);
  return { repository, outcome: "added" };
}

/** Any authenticated read proves the key; a 401 is said plainly, with where the key came from. */
async function checkKey(kaizen: KaizenClient, url: string, source: string): Promise<void> {
  try {
    await kaizen.GET("/api/projects", { params: { query: { limit: 1 } } });
  } catch (error) {
    if (error instanceof KaizenApiError && error.status === 401) {
      throw new ConnectError(`${url} refused the API key from ${source} (401): check KAIZEN_API_KEY and KAIZEN_URL.`);
    }
    throw error;
  }
}

/** `.kaizen/env` as git sees it, or null outside a repository. */
function standing(dir: string): ConnectReport["envFile"] {
  const git = gitStanding(dir, KAIZEN_ENV_FILE);
  return git.repository ? { ignored: git.ignored, tracked: git.tracked } : null;
}

/** Writes the changed files in order; the key file only once git ignores it and does not track it. */
function applyPlan(dir: string, plan: FileChange[]): ConnectReport["envFile"] {
  let envFile: ConnectReport["envFile"] = null;
  for (const change of plan) {
    const path = join(dir, change.path);
    if (change.secret) {
      envFile = standing(dir);
      if (envFile && (!envFile.ignored || envFile.tracked)) {
        throw new ConnectError(
          envFile.tracked
            ? `${change.path} is tracked by git: remove it from the index (git rm --cached ${change.path}) and rotate the key, then run again.`
            : `${change.path} is not ignored by git (a rule in .gitignore un-ignores it?): not writing the key there.`,
        );
      }
    }
    if (change.before === change.after) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, change.after, change.secret ? { mode: 0o600 } : {});
    if (change.secret) chmodSync(path, 0o600);
  }
  return envFile;
}

/**
 * The project to connect to: `--project` (an id, or a name, created with `--create-project` when no
 * project has it), else `--create-project` (the directory's name, reused when a project has it),
 * else the one `.kaizen/env` names, else a question on a TTY.
 */
async function chooseProject(
  kaizen: KaizenClient,
  dir: string,
  options: ConnectOptions,
  saved: string | undefined,
): Promise<{ id: string; name: string; created: boolean }> {
  const create = async (name: string) => {
    if (options.dryRun) return { id: "(new project)", name, created: true };
    const { data } = await kaizen.POST("/api/projects", {
      body: { name, description: `Work for the repository ${basename(dir)} (kaizen connect)` },
    });
    if (!data) throw new ConnectError("The service did not return the new project");
    options.log(`Created the project "${name}" (${data.data.id}).`);
    return { id: data.data.id, name: data.data.name, created: true };
  };
  const byName = async (name: string) => {
    const matches = (await listAllProjects(kaizen)).filter((p) => p.name.toLowerCase() === name.toLowerCase());
    if (matches.length > 1) {
      throw new UsageError(
        `${matches.length} projects are named "${name}": pass --project with one of ${matches.map((p) => p.id).join(", ")}`,
      );
    }
    return matches[0];
  };
  const found = (project: Schema<"Project">) => ({ id: project.id, name: project.name, created: false });

  if (options.project) {
    if (options.project.startsWith("prj_")) {
      const { data } = await kaizen.GET("/api/projects/{id}", { params: { path: { id: options.project } } });
      if (!data) throw new ConnectError(`No project ${options.project}`);
      return found(data.data);
    }
    const existing = await byName(options.project);
    if (existing) return found(existing);
    if (options.createProject) return create(options.project);
    throw new UsageError(`No project is named "${options.project}": add --create-project to create it.`);
  }
  if (options.createProject) {
    const name = basename(dir);
    const existing = await byName(name);
    return existing ? found(existing) : create(name);
  }
  if (saved) {
    try {
      const { data } = await kaizen.GET("/api/projects/{id}", { params: { path: { id: saved } } });
      if (data) return found(data.data);
    } catch (error) {
      if (!(error instanceof KaizenApiError && (error.status === 404 || error.status === 400))) throw error;
      options.log(`The saved project ${saved} no longer exists.`);
    }
  }
  if (!options.ask) {
    throw new UsageError(`Which project? Pass --project <id|name>, or --create-project to create "${basename(dir)}".`);
  }
  return askProject(await listAllProjects(kaizen), basename(dir), options.ask, options.log, create);
}

/** The TTY question: a numbered list of the projects, or a name for a new one. */
async function askProject(
  projects: Schema<"Project">[],
  fallbackName: string,
  ask: Ask,
  log: (line: string) => void,
  create: (name: string) => Promise<{ id: string; name: string; created: boolean }>,
): Promise<{ id: string; name: string; created: boolean }> {
  projects.forEach((project, i) => {
    log(`  ${String(i + 1).padStart(3)}  ${project.name}  (${project.id})`);
  });
  for (;;) {
    const answer = (
      await ask(
        projects.length > 0
          ? `Project: a number from the list, or a name for a new one [${fallbackName}] `
          : `Name of the new project [${fallbackName}] `,
      )
    ).trim();
    if (answer === "") {
      const same = projects.find((p) => p.name.toLowerCase() === fallbackName.toLowerCase());
      return same ? { id: same.id, name: same.name, created: false } : create(fallbackName);
    }
    const index = /^[0-9]+$/.test(answer) ? Number(answer) - 1 : -1;
    const chosen = projects[index];
    if (chosen) return { id: chosen.id, name: chosen.name, created: false };
    if (index >= 0) {
      log(`There is no project ${answer} in the list.`);
      continue;
    }
    const same = projects.find((p) => p.name.toLowerCase() === answer.toLowerCase());
    return same ? { id: same.id, name: same.name, created: false } : create(answer);
  }
}
