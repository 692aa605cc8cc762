/**
 * @module client/cli/commands/runners — `kaizen runners create|list|show|update|delete`: hosted runners, GitHub
 * Actions workflows Kaizen hands dispatches to (docs/api.md#hosted-runners). Every call needs the admin
 * scope: the commands send the service key. The GitHub token is read from an environment variable
 * named by `--github-token-env` or from stdin with `--github-token-stdin`, never from a flag's value,
 * so it stays out of shell history and process listings.
 */
import type { Argv } from "yargs";
import { ISSUE_TYPES } from "../../../core/src/issues/issue-values.js";
import type { Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, resolveProjectId, withPaging } from "../options.js";
import { emit, formatFields, formatTable, pageFooter, paint, shortTime } from "../output.js";
import { type CliIo, EXIT, UsageError } from "../runtime.js";

type Runner = Schema<"Runner">;

const RUNNER_ID = { type: "string", demandOption: true, describe: "Runner id (run_…)" } as const;

/** Where the token comes from, as `create` and `update` take it. */
interface TokenFlags {
  githubTokenEnv?: string | undefined;
  githubTokenStdin?: boolean | undefined;
}

/**
 * The GitHub token the flags point at: the variable `--github-token-env` names, or stdin's first
 * line with `--github-token-stdin`; undefined when neither is given. A usage error when both are,
 * or when the source is empty.
 * @example await githubTokenOf({ githubTokenEnv: "KAIZEN_GITHUB_TOKEN" }, io) // the variable's value
 */
export async function githubTokenOf(flags: TokenFlags, io: Pick<CliIo, "env" | "stdin">): Promise<string | undefined> {
  if (flags.githubTokenEnv !== undefined && flags.githubTokenStdin) {
    throw new UsageError("Give the GitHub token one way: --github-token-env NAME or --github-token-stdin");
  }
  if (flags.githubTokenEnv !== undefined) {
    const value = io.env[flags.githubTokenEnv]?.trim();
    if (!value) throw new UsageError(`--github-token-env: ${flags.githubTokenEnv} is not set or empty`);
    return value;
  }
  if (!flags.githubTokenStdin) return undefined;
  let text = "";
  for await (const chunk of io.stdin) text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
  const value = text.split(/\r?\n/)[0]?.trim();
  if (!value) throw new UsageError("--github-token-stdin: stdin held no token");
  return value;
}

/** A runner's filters in a few words: `every issue`, or its project and types. */
export function filtersText(filters: Runner["filters"]): string {
  const parts = [
    ...(filters.projectId ? [`project ${filters.projectId}`] : []),
    ...(filters.types ? [`types ${filters.types.join(", ")}`] : []),
  ];
  return parts.length === 0 ? "every issue" : parts.join("; ");
}

/** A runner's state in a word: `on`, `off`, `switched off` (by Kaizen) or `backing off`. */
function stateOf(runner: Runner, now: Date): { text: string; style: "green" | "red" | "yellow" } {
  if (runner.disabledReason !== null && !runner.active) return { text: "switched off", style: "red" };
  if (!runner.active) return { text: "off", style: "yellow" };
  if (runner.retryAfter !== null && Date.parse(runner.retryAfter) > now.getTime()) {
    return { text: "backing off", style: "yellow" };
  }
  return { text: "on", style: "green" };
}

/** Runners as `runners list` prints them. */
export function formatRunnerList(runners: Runner[], colour: boolean, now: Date = new Date()): string {
  return formatTable(
    [
      { header: "ID", value: (r: Runner) => r.id },
      { header: "NAME", value: (r) => r.name, max: 30 },
      { header: "REPOSITORY", value: (r) => r.repository, max: 40 },
      { header: "STATE", value: (r) => stateOf(r, now).text, style: (r) => stateOf(r, now).style },
      { header: "RUNNING", value: (r) => `${r.activeDispatches}/${r.concurrency}` },
      { header: "FAILURES", value: (r) => String(r.failures) },
      { header: "LAST ERROR", value: (r) => r.lastError ?? "-", max: 40 },
    ],
    runners,
    colour,
  );
}

/** A runner as `runners show` prints it (never a token: the API has none to give). */
export function formatRunner(runner: Runner, colour: boolean, now: Date = new Date()): string {
  const state = stateOf(runner, now);
  return [
    paint(colour, "bold", `${runner.name}  (${runner.id})`),
    formatFields(
      [
        ["state", state.text, state.style],
        ["repository", `${runner.repository} (${runner.kind}, event ${runner.eventType})`],
        ["agent", runner.agent],
        ["takes", filtersText(runner.filters)],
        ["running", `${runner.activeDispatches} of ${runner.concurrency}`],
        ["github token", runner.githubTokenConfigured ? "configured" : "missing"],
        ["failures", `${runner.failures} in a row`],
        ["last error", runner.lastError === null ? "-" : `${runner.lastError} (${shortTime(runner.lastErrorAt)} UTC)`],
        ["retry after", runner.retryAfter === null ? "-" : `${shortTime(runner.retryAfter)} UTC`],
        ["switched off", runner.disabledReason ?? "-", runner.disabledReason ? "red" : undefined],
        ["created", shortTime(runner.createdAt)],
      ],
      colour,
    ),
  ].join("\n");
}

/** The flags `create` and `update` share. */
function withRunnerFlags<T>(y: Argv<T>) {
  return y
    .option("repository", {
      type: "string",
      describe: "The GitHub repository whose workflow takes the dispatches (owner/name)",
    })
    .option("event-type", {
      type: "string",
      describe: "The repository dispatch's event_type (default kaizen-dispatch)",
    })
    .option("concurrency", {
      type: "number",
      describe: "Dispatches kept going at once (1..20, default 1)",
      coerce: integerIn("concurrency", 1, 20),
    })
    .option("project", { type: "string", describe: "Take only this project's issues, id (prj_…) or name" })
    .option("types", { type: "string", array: true, choices: ISSUE_TYPES, describe: "Take only these issue types" })
    .option("agent", {
      type: "string",
      describe: "The agent name its dispatches are claimed for (default: the runner's name)",
    })
    .option("github-token-env", {
      type: "string",
      describe: "Read the GitHub token from this environment variable (e.g. KAIZEN_GITHUB_TOKEN)",
    })
    .option("github-token-stdin", { type: "boolean", describe: "Read the GitHub token from stdin's first line" });
}

/** Shown by `kaizen runners create --help`. */
const CREATE_EPILOGUE = `The GitHub token never goes on the command line (shell history, process lists): name the
variable that holds it with --github-token-env, or pipe it in with --github-token-stdin, e.g.
  kaizen runners create ci --repository acme/app --github-token-env KAIZEN_GITHUB_TOKEN
  gh auth token | kaizen runners create ci --repository acme/app --github-token-stdin
A fine-grained token for the one repository with "Contents: read and write" is enough. Kaizen never
shows it again. Needs the admin scope (the service key has it).`;

/** Registers `kaizen runners …`. */
export function registerRunners(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.runners, (y) =>
    y
      .command(
        ...define(
          "create <name>",
          "Add a hosted runner: Kaizen hands it dispatches as GitHub repository dispatches",
          (y) =>
            withRunnerFlags(
              y.positional("name", {
                type: "string",
                demandOption: true,
                describe: "The runner's name, 1..100 characters",
              }),
            )
              .option("inactive", {
                type: "boolean",
                describe: "Make it switched off (no hand-offs until updated --active)",
              })
              .epilogue(CREATE_EPILOGUE),
          async (args, { client, output, io }) => {
            if (!args.repository) throw new UsageError("--repository owner/name is required");
            const githubToken = await githubTokenOf(args, io);
            if (githubToken === undefined) {
              throw new UsageError("A GitHub token is required: --github-token-env NAME or --github-token-stdin");
            }
            const kaizen = client("key");
            const projectId = args.project === undefined ? undefined : await resolveProjectId(kaizen, args.project);
            const { data } = await kaizen.POST("/api/runners", {
              body: {
                name: args.name,
                kind: "github_actions",
                repository: args.repository,
                githubToken,
                ...(args.eventType === undefined ? {} : { eventType: args.eventType }),
                ...(args.concurrency === undefined ? {} : { concurrency: args.concurrency }),
                ...(args.agent === undefined ? {} : { agent: args.agent }),
                ...(args.inactive ? { active: false } : {}),
                ...(projectId || args.types
                  ? { filters: { ...(projectId ? { projectId } : {}), ...(args.types ? { types: args.types } : {}) } }
                  : {}),
              },
            });
            emit(output, data?.data, (runner) =>
              runner
                ? `Created runner ${runner.id} (${runner.name}): ${runner.repository}, up to ${runner.concurrency} at once, takes ${filtersText(runner.filters)}.`
                : "",
            );
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "list",
          "List hosted runners, oldest first: state, dispatches running, refusals and the last error",
          (y) => withPaging(y),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/runners", {
              params: { query: { page: args.page, limit: args.limit } },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (runners) =>
              [
                ...(runners.length > 0 ? [formatRunnerList(runners, output.colour)] : []),
                pageFooter(runners.length, page.total, args.page, args.limit, "runners"),
              ].join("\n"),
            );
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "show <id>",
          "Show a hosted runner: repository, filters, dispatches running, refusals and why it is off",
          (y) => y.positional("id", RUNNER_ID),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/runners/{id}", { params: { path: { id: args.id } } });
            emit(output, data?.data, (runner) => (runner ? formatRunner(runner, output.colour) : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "update <id>",
          "Change a hosted runner; --active turns one Kaizen switched off back on, --github-token-env replaces its token",
          (y) =>
            withRunnerFlags(y.positional("id", RUNNER_ID))
              .option("name", { type: "string", describe: "A new name" })
              .option("active", { type: "boolean", describe: "Switch it on (--active) or off (--no-active)" })
              .option("all-projects", { type: "boolean", describe: "Take every project's issues again" })
              .option("all-types", { type: "boolean", describe: "Take every issue type again" }),
          async (args, { client, output, io }) => {
            const githubToken = await githubTokenOf(args, io);
            const kaizen = client("key");
            const projectId = args.project === undefined ? undefined : await resolveProjectId(kaizen, args.project);
            const current =
              projectId !== undefined || args.types || args.allProjects || args.allTypes
                ? (await kaizen.GET("/api/runners/{id}", { params: { path: { id: args.id } } })).data?.data
                : undefined;
            const filters = current && {
              projectId: args.allProjects ? null : (projectId ?? current.filters.projectId),
              types: args.allTypes ? null : (args.types ?? current.filters.types),
            };
            const body = {
              ...(args.name === undefined ? {} : { name: args.name }),
              ...(args.repository === undefined ? {} : { repository: args.repository }),
              ...(args.eventType === undefined ? {} : { eventType: args.eventType }),
              ...(args.concurrency === undefined ? {} : { concurrency: args.concurrency }),
              ...(args.agent === undefined ? {} : { agent: args.agent }),
              ...(args.active === undefined ? {} : { active: args.active }),
              ...(githubToken === undefined ? {} : { githubToken }),
              ...(filters ? { filters } : {}),
            };
            if (Object.keys(body).length === 0) throw new UsageError("Nothing to change: give at least one flag");
            const { data } = await kaizen.PATCH("/api/runners/{id}", { params: { path: { id: args.id } }, body });
            emit(output, data?.data, (runner) => (runner ? formatRunner(runner, output.colour) : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "delete <id>",
          "Delete a hosted runner and its token; dispatches it handed over go on",
          (y) => y.positional("id", RUNNER_ID),
          async (args, { client, output }) => {
            await client("key").DELETE("/api/runners/{id}", { params: { path: { id: args.id } } });
            emit(output, { id: args.id, deleted: true }, () => `Deleted runner ${args.id} and its GitHub token.`);
            return EXIT.ok;
          },
        ),
      )
      .demandCommand(1, "Which runners command? (create, list, show, update, delete)"),
  );
}
