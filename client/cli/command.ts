/**
 * @module client/cli/command — the shape of a command handler and the binding that gives it its
 * context and turns its outcome into the exit status.
 */
import type { CommandContext } from "./runtime.js";

/** A command's work: resolves with its exit status (0 when it returns nothing). */
export type Handler<A> = (args: A, context: CommandContext) => Promise<number | undefined>;

/** Makes a yargs handler of a {@link Handler}: main supplies it, so a handler never exits the process. */
export type Bind = <A extends { json?: boolean | undefined }>(handler: Handler<A>) => (args: A) => Promise<void>;

/** `--json`, global: every command prints exactly the API's `data` with it. */
export const JSON_FLAG = {
  type: "boolean",
  describe: "Print exactly the API's data as JSON (for scripts)",
  global: true,
} as const;
