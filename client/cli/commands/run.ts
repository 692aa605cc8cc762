/**
 * @module client/cli/commands/run — `kaizen run -- <command>`: an agent command worked against the
 * queue, each claimed dispatch handed to it and reported for it (client/runner/,
 * docs/agents.md#running-an-agent-kaizen-run).
 */
import type { Argv } from "yargs";
import { ISSUE_TYPES, type IssueType } from "../../../core/src/issues/issue-values.js";
import { createKaizenClient } from "../../client.js";
import { runClaimLoop } from "../../runner/claim-loop.js";
import { workDispatch } from "../../runner/dispatch-run.js";
import { GivenDispatchError, givenAssignment } from "../../runner/given-dispatch.js";
import { runSettings } from "../../runner/run-settings.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, resolveProjectId } from "../options.js";
import { type CommandContext, defaultAgentName, EXIT, UsageError } from "../runtime.js";

/** Shown by `kaizen run --help`. */
export const RUN_EPILOGUE = `The command gets the prompt on stdin and, in its environment, KAIZEN_URL, KAIZEN_DISPATCH_ID,
KAIZEN_DISPATCH_TOKEN, KAIZEN_ISSUE (KZN-n), KAIZEN_PROMPT_FILE (the prompt) and KAIZEN_RESULT_FILE
(where it may write {"summary", "commits", "pullRequests"} as JSON); never KAIZEN_API_KEY. Its output
becomes the dispatch's activities, at most one call a second (Claude Code stream-json and Codex
exec --json lines typed, with their usage and cost). Exit 0 completes done, anything else failed.
A stop or a spent budget ends its process group (TERM, then KILL after 10 s). Ctrl-C or TERM ends
every command and releases its dispatch (exit 130 or 143).
Exit status: 0 when --once ran out of work, or --dispatch completed done; 1 an API error, or
--dispatch ended otherwise; 2 a usage error.
Timings in milliseconds: KAIZEN_RUN_CHECK_MS (5000: each dispatch is called at least this often),
KAIZEN_RUN_BATCH_MS (1000), KAIZEN_RUN_KILL_GRACE_MS (10000), KAIZEN_RUN_POLL_MS (2000, doubling up
to KAIZEN_RUN_MAX_POLL_MS, 60000, while nothing is eligible).`;

/** The exit status of a runner stopped by `signal`: 128 + its number, as shells report it. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** `--types a,b` (or repeated) as issue types; a usage error names one that is not. */
function typesOf(values: readonly string[] | undefined): IssueType[] | undefined {
  if (!values) return undefined;
  const types = values
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
  for (const type of types) {
    if (!(ISSUE_TYPES as readonly string[]).includes(type)) {
      throw new UsageError(`--types: ${type} is not an issue type (${ISSUE_TYPES.join(", ")})`);
    }
  }
  return types.length > 0 ? (types as IssueType[]) : undefined;
}

/** Registers `run`. */
export function registerRun(yargs: Argv, define: Define): Argv {
  return yargs.command(
    ...define(
      ...COMMANDS.run,
      (y) =>
        y
          .option("agent", { type: "string", describe: "Who claims (default: KAIZEN_AGENT, else user@host)" })
          .option("concurrency", {
            type: "number",
            default: 1,
            describe: "Dispatches worked at once (1..20)",
            coerce: integerIn("concurrency", 1, 20),
          })
          .option("once", { type: "boolean", describe: "Stop (exit 0) once nothing is eligible, instead of polling" })
          .option("project", {
            type: "string",
            describe: "Only this project's issues (prj_… or name; default: KAIZEN_PROJECT)",
          })
          .option("types", { type: "string", array: true, describe: "Only these issue types: a,b (or repeat)" })
          .option("lease", {
            type: "number",
            describe: "Lease in seconds (60..7200, default 1800); the runner keeps it renewed",
            coerce: integerIn("lease", 60, 7200),
          })
          .option("dispatch", {
            type: "string",
            describe: "Work this dispatch (dsp_…) with KAIZEN_DISPATCH_TOKEN instead of claiming",
          })
          .usage(`kaizen run [options] -- <command> [args…]\n\n${COMMANDS.run[1]}`)
          .epilogue(RUN_EPILOGUE),
      async (args, context) => {
        const command = args._.slice(1).map(String);
        if (command.length === 0) {
          throw new UsageError(
            "Which command? Give it after --: kaizen run --once -- claude -p --output-format stream-json --verbose",
          );
        }
        if (args.dispatch) {
          const claimFlags = {
            agent: args.agent,
            once: args.once,
            project: args.project,
            types: args.types,
            lease: args.lease,
          };
          const given = Object.entries(claimFlags)
            .filter(([, value]) => value !== undefined)
            .map(([flag]) => `--${flag}`);
          if (args.concurrency !== 1) given.push("--concurrency");
          if (given.length > 0) {
            throw new UsageError(
              `--dispatch works the one dispatch it names, claiming nothing: ${given.join(", ")} do not apply`,
            );
          }
        }
        const { settings, invalid } = runSettings(context.io.env);
        if (invalid) throw new UsageError(invalid);
        const controller = new AbortController();
        let signalled: keyof typeof SIGNAL_EXIT | undefined;
        const onSignal = (signal: keyof typeof SIGNAL_EXIT) => () => {
          signalled ??= signal;
          context.output.err(`kaizen run: ${signal}: ending the commands and releasing their dispatches`);
          controller.abort();
        };
        const handlers = { SIGINT: onSignal("SIGINT"), SIGTERM: onSignal("SIGTERM") };
        process.on("SIGINT", handlers.SIGINT);
        process.on("SIGTERM", handlers.SIGTERM);
        try {
          const status = args.dispatch
            ? await runGiven(args.dispatch, command, settings, context, controller.signal)
            : await runClaims(
                {
                  agent: (args.agent ?? defaultAgentName(context.io.env)).slice(0, 100),
                  project: args.project,
                  types: typesOf(args.types),
                  lease: args.lease,
                  concurrency: args.concurrency,
                  once: args.once === true,
                },
                command,
                settings,
                context,
                controller.signal,
              );
          return signalled ? SIGNAL_EXIT[signalled] : status;
        } finally {
          process.off("SIGINT", handlers.SIGINT);
          process.off("SIGTERM", handlers.SIGTERM);
        }
      },
    ),
  );
}

type Settings = ReturnType<typeof runSettings>["settings"];

async function runClaims(
  options: {
    agent: string;
    project: string | undefined;
    types: IssueType[] | undefined;
    lease: number | undefined;
    concurrency: number;
    once: boolean;
  },
  command: string[],
  settings: Settings,
  context: CommandContext,
  shutdown: AbortSignal,
): Promise<number> {
  const { connection, output, io } = context;
  const keyClient = context.client("key");
  const project = options.project ?? connection.projectId;
  await runClaimLoop(
    {
      agent: options.agent,
      projectId: project ? await resolveProjectId(keyClient, project) : undefined,
      types: options.types,
      leaseSeconds: options.lease,
    },
    { concurrency: options.concurrency, once: options.once },
    {
      url: connection.url,
      keyClient,
      tokenClient: (token) => createKaizenClient({ baseUrl: connection.url, token }),
      command,
      env: io.env,
      settings,
      log: (line) => output.out(line),
    },
    shutdown,
  );
  return EXIT.ok;
}

async function runGiven(
  dispatchId: string,
  command: string[],
  settings: Settings,
  context: CommandContext,
  shutdown: AbortSignal,
): Promise<number> {
  const { connection, output, io } = context;
  const token = connection.dispatchToken;
  if (!token)
    throw new UsageError(`--dispatch ${dispatchId} works with the dispatch's token: set KAIZEN_DISPATCH_TOKEN`);
  const tokenClient = createKaizenClient({ baseUrl: connection.url, token });
  const keyClient = connection.apiKey
    ? createKaizenClient({ baseUrl: connection.url, token: connection.apiKey })
    : undefined;
  let assignment: Awaited<ReturnType<typeof givenAssignment>>;
  try {
    assignment = await givenAssignment({ dispatchId, token, issue: io.env.KAIZEN_ISSUE, tokenClient, keyClient });
  } catch (error) {
    if (!(error instanceof GivenDispatchError)) throw error;
    // Nothing will work it here: give it back at once rather than let its lease run out.
    await tokenClient
      .POST("/api/dispatch/{id}/release", { params: { path: { id: dispatchId } } })
      .catch(() => undefined);
    output.err(`kaizen: ${error.message} ${dispatchId} was released.`);
    return EXIT.apiError;
  }
  output.out(`Working ${assignment.identifier} (${dispatchId})`);
  const end = await workDispatch(
    assignment,
    { url: connection.url, client: tokenClient, command, env: io.env, settings, log: (line) => output.out(line) },
    shutdown,
  );
  if (end.kind === "unstartable") throw new Error(`${end.reason} (${dispatchId} was released)`);
  if (end.kind === "released") {
    output.out(`[${assignment.identifier}] released ${dispatchId}${end.error ? ` (failed: ${end.error})` : ""}`);
  }
  return end.kind === "completed" && end.result === "done" ? EXIT.ok : EXIT.apiError;
}
