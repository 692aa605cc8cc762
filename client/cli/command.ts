/**
 * @module client/cli/command — the shape of a command handler, and `define`, which gives a handler
 * its context and turns its outcome into the exit status, keeping the flags' types from the builder.
 */
import type { ArgumentsCamelCase, Argv } from "yargs";
import type { CommandContext } from "./runtime.js";

/** The global flags every handler sees. */
export interface GlobalFlags {
  json?: boolean | undefined;
}

/** A command's work: resolves with its exit status (0 when it returns nothing). */
export type Handler<A> = (args: A, context: CommandContext) => Promise<number | undefined>;

/**
 * The arguments of yargs' `.command(...)` for a command whose handler gets a context: spread it,
 * `.command(...define("show <issue>", "Show an issue", (y) => y.positional(…), async (args, context) => …))`,
 * so the handler's `args` are typed from the builder. main supplies it; a handler never exits the process.
 */
export type Define = <U>(
  command: string,
  description: string,
  builder: (y: Argv) => Argv<U>,
  handler: Handler<ArgumentsCamelCase<U> & GlobalFlags>,
) => [string, string, (y: Argv) => Argv<U>, (args: ArgumentsCamelCase<U>) => Promise<void>];

/** `--json`, global: every command prints exactly the API's `data` with it. */
export const JSON_FLAG = {
  type: "boolean",
  describe: "Print exactly the API's data as JSON (for scripts)",
  global: true,
} as const;
