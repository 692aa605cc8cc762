import type { Argv } from "yargs";
import { destinationUrlProblem } from "../../../core/src/events/destination-url.js";
import { EVENT_TYPES } from "../../../core/src/events/event-types.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, withPaging } from "../options.js";
import { emit, pageFooter, shortTime } from "../output.js";
import { EXIT, UsageError } from "../runtime.js";
import {
  chosenEvents,
  eventFlags,
  eventsText,
  formatDestination,
  formatDestinationList,
  formatEventDeliveryList,
  formatRetry,
  secretLines,
} from "./events-format.js";
import { runTail, urlHost } from "./events-tail.js";

// Registration.

const DESTINATION_ID = { type: "string", demandOption: true, describe: "Event destination id (dst_…)" } as const;
/** `<id>` of the destinations commands. */
const destinationPositional = <T>(y: Argv<T>) => y.positional("id", DESTINATION_ID);
/** `<destination>` of `deliveries` and `retry`. */
const destinationOf = <T>(y: Argv<T>) => y.positional("destination", DESTINATION_ID);

const ifMatchFlag = <T>(y: Argv<T>, what: string) =>
  y.option("if-match", {
    type: "string",
    describe: `Only if the destination's ETag is still this (else 412): ${what}`,
  });

/** Shown by `kaizen events tail --help`. */
const TAIL_EPILOGUE = `Registers a destination for http://<host>:<port>/ and removes it on Ctrl-C (SIGINT) or SIGTERM.
Each request's Kaizen-Signature-256 is checked with the secret the registration answered: an event
with a valid one is printed (time in UTC, type, what happened, event id) and answered 204; any other
request is answered 401 with a warning on stderr. --json prints each event's body as one line of
JSON (where it listens then goes to stderr). The API takes plain http only to localhost, 127.0.0.1
and ::1, so --host is one of those.`;

/** Registers `kaizen events …`. */
export function registerEvents(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.events, (y) =>
    y
      .command("destinations", "Register, list, change and remove the URLs events are sent to", (y) =>
        y
          .command(
            ...define(
              "add <url>",
              "Register a URL for events: prints its signing secret, shown this once",
              (y) =>
                eventFlags(
                  y.positional("url", {
                    type: "string",
                    demandOption: true,
                    describe: "https URL (plain http only to localhost, 127.0.0.1 or [::1])",
                  }),
                  "Every event type",
                )
                  .option("description", { type: "string", describe: "What it is for (up to 500 characters)" })
                  .option("inactive", { type: "boolean", describe: "Register it switched off (send nothing yet)" })
                  // A string fails the command line: exit 2, with the pointer to --help.
                  .check((argv) =>
                    argv.events === undefined && !argv.allEvents
                      ? "Which events? Give --events a,b,… or --all-events"
                      : true,
                  ),
              async (args, { client, output }) => {
                const { data } = await client("key").POST("/api/event-destinations", {
                  body: {
                    url: args.url,
                    events: chosenEvents(args) ?? [],
                    ...(args.description === undefined ? {} : { description: args.description }),
                    ...(args.inactive ? { active: false } : {}),
                  },
                });
                emit(output, data?.data, (destination) =>
                  destination
                    ? [
                        `Registered event destination ${destination.id}${destination.active ? "" : " (inactive)"} for ${eventsText(destination.events)}.`,
                        ...secretLines(destination.secret, output.colour),
                      ].join("\n")
                    : "",
                );
                return EXIT.ok;
              },
            ),
          )
          .command(
            ...define(
              "list",
              "List event destinations (never their secrets)",
              (y) => withPaging(y),
              async (args, { client, output }) => {
                const { data } = await client("key").GET("/api/event-destinations", {
                  params: { query: { page: args.page, limit: args.limit } },
                });
                const page = data ?? { data: [], total: 0 };
                emit(output, page.data, (destinations) =>
                  [
                    ...(destinations.length > 0 ? [formatDestinationList(destinations, output.colour)] : []),
                    pageFooter(destinations.length, page.total, args.page, args.limit, "event destinations"),
                  ].join("\n"),
                );
                return EXIT.ok;
              },
            ),
          )
          .command(
            ...define(
              "show <id>",
              "Show an event destination: its events, whether it is active and why not, its failures",
              (y) => destinationPositional(y),
              async (args, { client, output }) => {
                const { data } = await client("key").GET("/api/event-destinations/{id}", {
                  params: { path: { id: args.id } },
                });
                emit(output, data?.data, (destination) =>
                  destination ? formatDestination(destination, output.colour) : "",
                );
                return EXIT.ok;
              },
            ),
          )
          .command(
            ...define(
              "update <id>",
              "Change an event destination's URL, events or description, or switch it on or off",
              (y) =>
                ifMatchFlag(
                  eventFlags(destinationPositional(y), "Every event type")
                    .option("url", { type: "string", describe: "New URL" })
                    .option("description", { type: "string", describe: 'New description ("" removes it)' })
                    .option("active", {
                      type: "boolean",
                      describe: "Switch it on (also one Kaizen switched off after failing)",
                    })
                    .option("inactive", { type: "boolean", describe: "Switch it off" })
                    .conflicts("active", "inactive"),
                  "the change",
                ),
              async (args, { client, output }) => {
                const active = args.active ? true : args.inactive ? false : undefined;
                const body = {
                  url: args.url,
                  events: chosenEvents(args),
                  description: args.description === undefined ? undefined : args.description || null,
                  active,
                };
                if (Object.values(body).every((value) => value === undefined)) {
                  throw new UsageError(
                    "Nothing to update: give at least one of the flags (kaizen events destinations update --help)",
                  );
                }
                const { data } = await client("key").PATCH("/api/event-destinations/{id}", {
                  params: { path: { id: args.id }, header: args.ifMatch ? { "If-Match": args.ifMatch } : undefined },
                  body,
                });
                emit(output, data?.data, (destination) =>
                  destination ? `Updated:\n${formatDestination(destination, output.colour)}` : "",
                );
                return EXIT.ok;
              },
            ),
          )
          .command(
            ...define(
              "remove <id>",
              "Remove an event destination: nothing more is sent to it",
              (y) => ifMatchFlag(destinationPositional(y), "the removal"),
              async (args, { client, output }) => {
                await client("key").DELETE("/api/event-destinations/{id}", {
                  params: { path: { id: args.id }, header: args.ifMatch ? { "If-Match": args.ifMatch } : undefined },
                });
                // The API answers 204: `--json` prints null, as for any answer without data.
                emit(output, null, () => `Removed event destination ${args.id}.`);
                return EXIT.ok;
              },
            ),
          )
          .command(
            ...define(
              "rotate-secret <id>",
              "Make a new signing secret (shown once); the old one signs beside it for 24 h",
              (y) => destinationPositional(y),
              async (args, { client, output }) => {
                const { data } = await client("key").POST("/api/event-destinations/{id}/rotate-secret", {
                  params: { path: { id: args.id } },
                });
                emit(output, data?.data, (destination) =>
                  destination
                    ? [
                        `New signing secret for ${destination.id}.`,
                        ...secretLines(destination.secret, output.colour),
                        `The old secret signs beside it for 24 h more${destination.previousSecretExpiresAt ? ` (until ${shortTime(destination.previousSecretExpiresAt)} UTC)` : ""}: update the receiver before then.`,
                      ].join("\n")
                    : "",
                );
                return EXIT.ok;
              },
            ),
          )
          .demandCommand(1, "Which destinations command? (add, list, show, update, remove, rotate-secret)"),
      )
      .command(
        ...define(
          "deliveries <destination>",
          "List a destination's deliveries, newest first, with their attempts",
          (y) => withPaging(destinationOf(y)),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/event-destinations/{id}/deliveries", {
              params: { path: { id: args.destination }, query: { page: args.page, limit: args.limit } },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (deliveries) =>
              [
                ...(deliveries.length > 0 ? [formatEventDeliveryList(deliveries, output.colour)] : []),
                pageFooter(deliveries.length, page.total, args.page, args.limit, "deliveries"),
              ].join("\n"),
            );
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "retry <destination> <delivery>",
          "Send a delivery again now, whatever its status, and print how the attempt went",
          (y) =>
            destinationOf(y).positional("delivery", {
              type: "string",
              demandOption: true,
              describe: "Delivery id (dlv_…)",
            }),
          async (args, { client, output }) => {
            const { data } = await client("key").POST("/api/event-destinations/{id}/deliveries/{deliveryId}/retry", {
              params: { path: { id: args.destination, deliveryId: args.delivery } },
            });
            emit(output, data?.data, (delivery) => (delivery ? formatRetry(delivery) : ""));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "tail",
          "Watch events arrive: a receiver on this machine, registered until Ctrl-C",
          (y) =>
            eventFlags(y, "Every event type (the default)")
              .option("port", {
                type: "number",
                describe: "Port to listen on (default: a free one)",
                coerce: integerIn("port", 1, 65_535),
              })
              .option("host", {
                type: "string",
                default: "127.0.0.1",
                describe: "Address to listen on and to register (localhost, 127.0.0.1 or ::1)",
                coerce: (host: string) => {
                  const problem = destinationUrlProblem(`http://${urlHost(host)}/`);
                  if (problem) {
                    throw new UsageError(
                      `--host ${host}: the API takes plain http only to localhost, 127.0.0.1 or ::1`,
                    );
                  }
                  return host;
                },
              })
              .epilogue(TAIL_EPILOGUE),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const controller = new AbortController();
            let stopping: number | undefined;
            const stop = (signal: NodeJS.Signals) => {
              if (stopping === undefined) {
                stopping = Date.now();
                controller.abort();
                return;
              }
              // One Ctrl-C often arrives twice (from the terminal and forwarded by npx): only a later one quits.
              if (Date.now() - stopping < 1_000) return;
              output.err(
                "kaizen: quit before the destination was removed: kaizen events destinations list shows it (its description names this process)",
              );
              process.off("SIGINT", stop);
              process.off("SIGTERM", stop);
              process.kill(process.pid, signal);
            };
            process.on("SIGINT", stop);
            process.on("SIGTERM", stop);
            try {
              await runTail(
                kaizen,
                { events: chosenEvents(args) ?? [...EVENT_TYPES], host: args.host, port: args.port ?? 0 },
                output,
                controller.signal,
              );
            } finally {
              process.off("SIGINT", stop);
              process.off("SIGTERM", stop);
            }
            return EXIT.ok;
          },
        ),
      )
      .demandCommand(1, "Which events command? (destinations, deliveries, retry, tail)"),
  );
}
