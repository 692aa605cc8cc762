/**
 * @module client/cli/main — the `kaizen` command line: yargs parses (strict, every flag in `--help`,
 * shell completion), each command group lives in ./commands/ and is loaded only when its command
 * runs (./command-index.ts), and this module turns outcomes into exit statuses: 0 ok, 1 API error,
 * 2 usage error, 3 nothing to claim (`next`).
 */
import { readFileSync } from "node:fs";
import yargs from "yargs";
import { KaizenApiError } from "../client.js";
import { ConnectFileError } from "../connect/files.js";
import { type Define, type GlobalFlags, JSON_FLAG } from "./command.js";
import { COMMAND_MODULES, COMMANDS, modulesFor } from "./command-index.js";
import { formatApiError } from "./output.js";
import { type CliIo, createContext, EXIT, UsageError } from "./runtime.js";

/** A command line yargs refused (unknown flag, missing argument): the hint to `--help` follows it. */
class CommandLineError extends UsageError {}

/** Commands whose next argument is a subcommand, so `--help` hints name each word down to the command. */
const GROUPS = new Set([
  "issues",
  "signals",
  "templates",
  "experiments",
  "projects",
  "providers",
  "events",
  "events destinations",
  "runners",
  "keys",
]);

const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Shown under `kaizen --help`. */
const EPILOGUE = `Configuration (environment, then .kaizen/env written by kaizen connect):
  KAIZEN_URL             the service (default http://localhost:4242)
  KAIZEN_API_KEY         the service key (default for the local server: its .data/api-key)
  KAIZEN_DISPATCH_TOKEN  a claim's token: heartbeat, activity, comment, review, complete, release and
                         watch send it; answer, approve, reject and stop (a person's) send the key
  KAIZEN_PROJECT         the project next and queue default to
  KAIZEN_AGENT           the name next claims under (default user@host)
  NO_COLOR               no colour, even on a terminal
  CODEHOST_WEBHOOK_SECRET, ERRORTRACKER_CLIENT_SECRET, ANALYTICS_WEBHOOK_SECRET
                         the receivers' secrets (environment only): providers test signs with them
Exit status: 0 ok, 1 API error (message on stderr), 2 usage error, 3 next found nothing to claim,
4 asked to try later (429: next while you hold as many of a project's dispatches as its limit allows).
Shell completion: kaizen completion >> ~/.bashrc (or ~/.zshrc).`;

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** An error's exit status and its message for stderr. */
function failure(error: unknown, keySource: () => string | undefined): { status: number; message: string } {
  if (error instanceof UsageError) return { status: EXIT.usage, message: `kaizen: ${error.message}` };
  if (error instanceof KaizenApiError) {
    const status = error.status === 429 ? EXIT.tryLater : EXIT.apiError;
    return { status, message: formatApiError(error, keySource()) };
  }
  if (error instanceof ConnectFileError) return { status: EXIT.apiError, message: `kaizen: ${error.message}` };
  if (error instanceof Error && error.name === "YError")
    return { status: EXIT.usage, message: `kaizen: ${error.message}` };
  const message = error instanceof Error ? error.message : String(error);
  return { status: EXIT.apiError, message: `kaizen: ${message}` };
}

/**
 * Runs the CLI on `args` (without `node` and the script) and resolves with the exit status; it
 * never exits the process itself.
 * @example process.exitCode = await main(["issues", "list", "--json"]);
 */
export async function main(args: string[], io: CliIo = processIo()): Promise<number> {
  let status: number = EXIT.ok;
  let credentialSource: () => string | undefined = () => undefined;
  const define: Define = (command, description, builder, handler) => [
    command,
    description,
    builder,
    async (argv) => {
      const flags = argv as typeof argv & GlobalFlags;
      const context = createContext(io, { json: flags.json });
      credentialSource = () => context.credentialSource("agent");
      status = (await handler(flags, context)) ?? EXIT.ok;
    },
  ];

  const parser = yargs()
    .scriptName("kaizen")
    .usage(
      "kaizen <command> [options]\n\nKaizen from the command line: issues, signals, an agent's dispatch loop and people steering it, templates and their experiments, provider checks, outbound events.",
    )
    .option("json", JSON_FLAG)
    .strict()
    .demandCommand(1, "Which command? (kaizen --help lists them)")
    .recommendCommands()
    .completion("completion", "Print the shell completion script (bash, zsh)")
    .epilogue(EPILOGUE)
    .version(VERSION)
    .help()
    .alias("help", "h")
    .wrap(Math.min(110, (io.stdout as { columns?: number }).columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      // A `.check()` that answers a string passes that string as the error: a command-line mistake too.
      if (error instanceof Error) throw error;
      throw new CommandLineError(message ?? "invalid command line");
    });
  // Only the modules this command line needs are loaded; the others' commands are listed (for
  // `--help`) by their usage and line alone, and never run.
  const needed = modulesFor(args);
  const loaded = new Map(await Promise.all(needed.map(async (module) => [module, await module.load()] as const)));
  for (const module of COMMAND_MODULES) {
    const register = loaded.get(module);
    if (register) {
      register(parser, define);
      continue;
    }
    for (const name of module.commands) {
      const [usage, description] = COMMANDS[name];
      parser.command(usage, description, {}, notLoaded(name));
    }
  }

  try {
    let printed = "";
    await parser.parseAsync(args, {}, (_error, _argv, output) => {
      printed = output;
    });
    if (printed) io.stdout.write(printed.endsWith("\n") ? printed : `${printed}\n`);
    return status;
  } catch (error) {
    const { status: code, message } = failure(error, credentialSource);
    io.stderr.write(`${message}\n`);
    if (error instanceof CommandLineError || (error instanceof Error && error.name === "YError")) {
      io.stderr.write(`Run kaizen ${commandPath(args)}--help for the flags.\n`);
    }
    return code;
  }
}

/** The handler of a command listed without its module: never reached, as main loads the module of the command it runs. */
function notLoaded(name: string): () => never {
  return () => {
    throw new Error(`the module of kaizen ${name} was not loaded`);
  };
}

/**
 * The command named at the start of `args` (`issues list `, `events destinations add `, `next `), to
 * point at the right `--help`: words are taken while the ones before name a group.
 */
function commandPath(args: string[]): string {
  const words: string[] = [];
  for (const arg of args) {
    if (arg.startsWith("-")) break;
    words.push(arg);
    if (!GROUPS.has(words.join(" "))) break;
  }
  return words.map((word) => `${word} `).join("");
}
