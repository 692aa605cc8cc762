/**
 * @module client/cli/commands/partials — `kaizen partials list|show|create|update|delete`: the named
 * content that template versions include with `{{> name}}` (docs/api.md#partials).
 */
import { readFileSync } from "node:fs";
import type { Argv } from "yargs";
import type { Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { withPaging } from "../options.js";
import { emit, formatFields, formatTable, pageFooter, section, shortTime } from "../output.js";
import { EXIT, UsageError } from "../runtime.js";

type PartialItem = Schema<"Partial">;

/**
 * Content given as text, `@path` (a file) or `-` (stdin).
 * @example readContent("@reporting.hbs") // the file's text
 */
export function readContent(value: string, stdinText: () => string = () => readFileSync(0, "utf8")): string {
  if (value === "-") return stdinText();
  if (!value.startsWith("@")) return value;
  try {
    return readFileSync(value.slice(1), "utf8");
  } catch (error) {
    throw new UsageError(`--content: cannot read ${value.slice(1)} (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** Partials as `list` prints them: name, description and when each last changed. */
export function formatPartialList(partials: PartialItem[], colour: boolean): string {
  return formatTable(
    [
      { header: "NAME", value: (p: PartialItem) => p.name, style: () => "bold" },
      { header: "DESCRIPTION", value: (p) => p.description ?? "-", max: 60 },
      { header: "UPDATED", value: (p) => shortTime(p.updatedAt) },
    ],
    partials,
    colour,
  );
}

/** A partial as `show` prints it: its fields, then its content. */
export function formatPartial(partial: PartialItem, colour: boolean): string {
  return [
    partial.name,
    formatFields(
      [
        ["description", partial.description],
        ["created", shortTime(partial.createdAt)],
        ["updated", shortTime(partial.updatedAt)],
        ["include with", `{{> ${partial.name}}}`],
      ],
      colour,
    ),
    section("Content", partial.content, colour),
  ].join("\n");
}

const NAME = { type: "string", demandOption: true, describe: "Partial name (1..64 of a-z, 0-9, _ and -)" } as const;
const CONTENT = "Handlebars content: the text, @file, or - for stdin";

/** Registers `kaizen partials …`. */
export function registerPartials(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.partials, (y) =>
    y
      .command(
        ...define(
          "list",
          "List partials by name",
          (y) => withPaging(y),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/partials", {
              params: { query: { page: args.page, limit: args.limit } },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (partials) =>
              [
                ...(partials.length > 0 ? [formatPartialList(partials, output.colour)] : []),
                pageFooter(partials.length, page.total, args.page ?? 1, args.limit ?? 20, "partials"),
              ].join("\n"),
            );
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "show <name>",
          "Show a partial and its content",
          (y) => y.positional("name", NAME),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/partials/{name}", {
              params: { path: { name: args.name } },
            });
            emit(output, data?.data, (partial) => (partial ? formatPartial(partial, output.colour) : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "create <name>",
          "Create a partial that versions include with {{> name}}",
          (y) =>
            y
              .positional("name", NAME)
              .option("content", { type: "string", demandOption: true, describe: CONTENT })
              .option("description", { type: "string", describe: "What it is for" }),
          async (args, { client, output }) => {
            const { data } = await client("key").POST("/api/partials", {
              body: {
                name: args.name,
                content: readContent(args.content),
                ...(args.description === undefined ? {} : { description: args.description }),
              },
            });
            emit(output, data?.data, (partial) => (partial ? `Created partial ${partial.name}.` : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "update <name>",
          "Change a partial's content or description: prompts rendered from now on include it, stored ones keep their text",
          (y) =>
            y
              .positional("name", NAME)
              .option("content", { type: "string", describe: CONTENT })
              .option("description", { type: "string", describe: "What it is for" }),
          async (args, { client, output }) => {
            if (args.content === undefined && args.description === undefined) {
              throw new UsageError("partials update needs --content, --description or both");
            }
            const { data } = await client("key").PATCH("/api/partials/{name}", {
              params: { path: { name: args.name } },
              body: {
                ...(args.content === undefined ? {} : { content: readContent(args.content) }),
                ...(args.description === undefined ? {} : { description: args.description }),
              },
            });
            emit(output, data?.data, (partial) => (partial ? `Updated partial ${partial.name}.` : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "delete <name>",
          "Delete a partial no active or draft version (and no partial) includes",
          (y) => y.positional("name", NAME),
          async (args, { client, output }) => {
            await client("key").DELETE("/api/partials/{name}", { params: { path: { name: args.name } } });
            emit(output, { deleted: args.name }, () => `Deleted partial ${args.name}.`);
            return EXIT.ok;
          },
        ),
      )
      .demandCommand(1, "Which partials command? (list, show, create, update, delete)"),
  );
}
