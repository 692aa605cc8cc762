/**
 * @module client/cli/commands/events — `kaizen events …`: outbound events (docs/api.md#outbound-events). Destinations
 * (`destinations add|list|show|update|remove|rotate-secret`), their deliveries and a retry, and
 * `tail`: a receiver on this machine, registered for as long as it runs, that verifies each event's
 * signature and prints it as it arrives.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import type { Argv } from "yargs";
import { destinationUrlProblem, EVENT_TYPES, type EventType } from "../../../core/src/events/schemas.js";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "../../../core/src/events/signing.js";
import { KaizenApiError, type KaizenClient, type Schema } from "../../client.js";
import type { Define } from "../command.js";
import { integerIn, withPaging } from "../options.js";
import {
  emit,
  formatFields,
  formatTable,
  type Output,
  pageFooter,
  paint,
  type Style,
  shortTime,
  statusStyle,
  truncate,
} from "../output.js";
import { EXIT, UsageError } from "../runtime.js";

type Destination = Schema<"EventDestination">;
type DestinationWithSecret = Schema<"EventDestinationWithSecret">;
type Delivery = Schema<"EventDelivery">;
type Attempt = Delivery["attempts"][number];

/**
 * `--events` as people type it: names separated by commas (the flag may also be repeated), each
 * one of {@link EVENT_TYPES}; a name that is not is a usage error listing the valid ones.
 * @example parseEventList("issue.created, dispatch.failed") // ["issue.created", "dispatch.failed"]
 */
export function parseEventList(value: unknown): EventType[] {
  const names = [value]
    .flat()
    .flatMap((part) => String(part).split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0) throw new UsageError(`--events needs at least one of: ${EVENT_TYPES.join(", ")}`);
  const unknown = names.find((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new UsageError(`--events: ${unknown} is not an event type; the types are ${EVENT_TYPES.join(", ")}`);
  }
  return [...new Set(names as EventType[])];
}

/** `--events` and `--all-events`, as `add`, `update` and `tail` take them. */
function eventFlags<T>(y: Argv<T>, allDescription: string) {
  return y
    .option("events", {
      type: "string",
      describe: `Event types, comma-separated: ${EVENT_TYPES.join(", ")}`,
      coerce: parseEventList,
    })
    .option("all-events", { type: "boolean", describe: allDescription })
    .conflicts("events", "all-events");
}

/** The events `--events`/`--all-events` name; undefined when neither was given. */
function chosenEvents(args: { events?: EventType[] | undefined; allEvents?: boolean | undefined }) {
  if (args.allEvents) return [...EVENT_TYPES];
  return args.events;
}

/** A destination's events in a few words: `every event` when it takes them all. */
function eventsText(events: readonly string[]): string {
  return EVENT_TYPES.every((type) => events.includes(type)) ? `every event (${events.length})` : events.join(", ");
}

/** Whether a destination is on, and why not when Kaizen switched it off. */
function activeText(destination: Destination): string {
  if (destination.active) return "yes";
  return destination.deactivatedReason ? "no (switched off by Kaizen)" : "no";
}

/** Destinations as `destinations list` prints them. */
function formatDestinationList(destinations: Destination[], colour: boolean): string {
  return formatTable(
    [
      { header: "ID", value: (d: Destination) => d.id },
      { header: "URL", value: (d) => d.url, max: 60 },
      { header: "EVENTS", value: (d) => eventsText(d.events), max: 60 },
      { header: "ACTIVE", value: (d) => (d.active ? "yes" : "no"), style: (d) => (d.active ? "green" : "red") },
      {
        header: "FAILURES",
        value: (d) => String(d.consecutiveFailures),
        align: "right",
        style: (d) => (d.consecutiveFailures > 0 ? "red" : undefined),
      },
      { header: "DESCRIPTION", value: (d) => d.description ?? "-", max: 50 },
    ],
    destinations,
    colour,
  );
}

/** A destination as `destinations show` (and `update`) prints it. */
export function formatDestination(destination: Destination, colour: boolean): string {
  return [
    paint(colour, "bold", `Event destination ${destination.id}`),
    formatFields(
      [
        ["url", destination.url],
        ["events", eventsText(destination.events)],
        ["description", destination.description],
        ["active", activeText(destination), destination.active ? "green" : "red"],
        ["deactivated", destination.deactivatedAt ? shortTime(destination.deactivatedAt) : undefined],
        ["deactivatedReason", destination.deactivatedReason ?? undefined, "red"],
        ["failures", `${destination.consecutiveFailures} in a row since the last success`],
        [
          "previous secret",
          destination.previousSecretExpiresAt
            ? `still signs until ${shortTime(destination.previousSecretExpiresAt)}`
            : undefined,
        ],
        ["created", shortTime(destination.createdAt)],
        ["updated", shortTime(destination.updatedAt)],
      ],
      colour,
    ),
  ].join("\n");
}

/** The secret of a create or a rotation, with the warning that it is not shown again. */
function secretLines(secret: string, colour: boolean): string[] {
  return [
    `secret  ${paint(colour, "yellow", secret)}`,
    paint(colour, "bold", "The secret is shown once: store it now (receivers verify Kaizen-Signature-256 with it)."),
  ];
}

/** An attempt's result in a few words: `HTTP 204`, or why it failed. */
function attemptText(attempt: Attempt | undefined): string {
  if (!attempt) return "-";
  if (attempt.error) return attempt.error;
  return attempt.responseStatus === null ? attempt.outcome : `HTTP ${attempt.responseStatus}`;
}

/** Deliveries as `deliveries` prints them, newest first. */
function formatDeliveryList(deliveries: Delivery[], colour: boolean): string {
  const statusColour = (status: string): Style | undefined =>
    status === "succeeded" ? "green" : status === "pending" ? "yellow" : statusStyle(status);
  return formatTable(
    [
      { header: "DELIVERY", value: (d: Delivery) => d.id },
      { header: "EVENT", value: (d) => d.eventType },
      { header: "STATUS", value: (d) => d.status, style: (d) => statusColour(d.status) },
      { header: "ATTEMPTS", value: (d) => String(d.attempts.length), align: "right" },
      { header: "LAST ATTEMPT", value: (d) => attemptText(d.attempts.at(-1)), max: 50 },
      { header: "NEXT ATTEMPT", value: (d) => shortTime(d.nextAttemptAt) },
    ],
    deliveries,
    colour,
  );
}

/** What a retry did: the attempt just made, and where that leaves the delivery. */
export function formatRetry(delivery: Delivery): string {
  const attempt = delivery.attempts.at(-1);
  if (!attempt) return `Delivery ${delivery.id} (${delivery.eventType}) has no attempt yet; it is ${delivery.status}.`;
  const result = `${attempt.outcome} in ${attempt.durationMs} ms: ${attemptText(attempt)}`;
  const after =
    delivery.status === "pending" && delivery.nextAttemptAt
      ? `the delivery stays pending; next automatic attempt ${shortTime(delivery.nextAttemptAt)}`
      : `the delivery is ${delivery.status}`;
  return `Retried ${delivery.id} (${delivery.eventType}, ${delivery.eventId}): ${result}; ${after}.`;
}

// `kaizen events tail`: a receiver on this machine for as long as it runs.

/** What `tail` receives: the body of each POST (core/src/events/schemas.ts `OutboundEvent`). */
interface ReceivedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The largest body `tail` reads (events are a few kilobytes). */
const MAX_BODY_BYTES = 1_000_000;
/** The longest event type, so the lines of `tail` line up. */
const TYPE_WIDTH = Math.max(...EVENT_TYPES.map((type) => type.length));

/** `value[key]` when `value` is an object, else undefined. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** A field as text (`?` when missing), for summaries of data whose shape is not checked. */
function text(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "?";
}

/**
 * The gist of an event's `data` in one line: the issue and its move, the dispatch and its agent, the
 * experiment's outcome; for a type this CLI does not know, the data as JSON.
 * @example eventSummary({ type: "issue.status_changed", data: { issue: { identifier: "KZN-12" }, from: "todo", to: "in_progress" } }) // "KZN-12 todo → in_progress"
 */
export function eventSummary(event: Pick<ReceivedEvent, "type" | "data">): string {
  const { data } = event;
  const issue = field(data, "issue");
  const dispatch = field(data, "dispatch");
  const experiment = field(data, "experiment");
  const dispatchText = `dispatch ${text(field(dispatch, "id"))} by ${text(field(dispatch, "agent"))}`;
  switch (event.type) {
    case "issue.created":
      return `${text(field(issue, "identifier"))} created: ${text(field(issue, "title"))}`;
    case "issue.status_changed":
      return `${text(field(issue, "identifier"))} ${text(field(data, "from"))} → ${text(field(data, "to"))}`;
    case "dispatch.claimed":
      return `${dispatchText} claimed ${text(field(dispatch, "issueId"))}`;
    case "dispatch.completed":
    case "dispatch.expired":
      return `${dispatchText} ${event.type.slice("dispatch.".length)}`;
    case "dispatch.failed": {
      const summary = field(field(dispatch, "outcome"), "summary");
      return `${dispatchText} failed${typeof summary === "string" && summary ? `: ${summary}` : ""}`;
    }
    case "prompt.needs_attention": {
      const score = field(data, "reviewScore");
      return [
        `template ${text(field(data, "templateId"))} v${text(field(data, "version"))} needs attention:`,
        `score ${typeof score === "number" ? score.toFixed(2) : "-"} over ${text(field(data, "reviewCount"))} reviews,`,
        `improvement task ${text(field(data, "improvementIssueId"))}`,
      ].join(" ");
    }
    case "experiment.decided":
      return `experiment ${text(field(experiment, "id"))} ${text(field(experiment, "status"))}`;
    default:
      return JSON.stringify(data);
  }
}

/** An event type's colour: how its dispatch or experiment ended. */
function eventStyle(event: ReceivedEvent): Style | undefined {
  if (event.type === "dispatch.failed" || event.type === "dispatch.expired") return "red";
  if (event.type === "dispatch.completed") return "green";
  if (event.type === "experiment.decided") return statusStyle(text(field(field(event.data, "experiment"), "status")));
  return undefined;
}

/**
 * An event as `tail` prints it: the time it happened (UTC), its type, the gist of its data, its id.
 * @example formatEventLine(event, false) // "14:05:09  issue.status_changed    KZN-12 todo → in_progress  evt_…"
 */
export function formatEventLine(event: ReceivedEvent, colour: boolean): string {
  const time = /T(\d\d:\d\d:\d\d)/.exec(event.createdAt)?.[1] ?? new Date().toISOString().slice(11, 19);
  return [
    paint(colour, "dim", time),
    paint(colour, eventStyle(event), event.type.padEnd(TYPE_WIDTH)),
    truncate(eventSummary(event), 100),
    paint(colour, "dim", event.id),
  ].join("  ");
}

/** `body` as an event (and as the JSON it parsed to), or undefined when it is not one as Kaizen sends them. */
function parseEvent(body: string): { event: ReceivedEvent; parsed: unknown } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const [id, type, createdAt, data] = ["id", "type", "createdAt", "data"].map((key) => field(parsed, key));
  if (typeof id !== "string" || typeof type !== "string") return undefined;
  return {
    parsed,
    event: {
      id,
      type,
      createdAt: typeof createdAt === "string" ? createdAt : "",
      data: typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {},
    },
  };
}

export interface TailOptions {
  /** The events to register for. */
  events: readonly EventType[];
  /** Where to listen and what the registered URL names (the API takes plain http only to this machine). */
  host: string;
  /** The port to listen on; 0 for a free one. */
  port: number;
  /** Called once the destination is registered: its URL, and the API's answer with the secret. */
  onReady?: (ready: { url: string; destination: DestinationWithSecret }) => void;
}

/** `host` as the authority of a URL: an IPv6 address in brackets. */
function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Starts `server` on `host:port` and answers the port it got. */
function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new UsageError(`Port ${port} is already in use on ${host}: pass another --port, or none for a free one`)
          : error.code === "EADDRNOTAVAIL"
            ? new UsageError(`--host ${host} is not an address of this machine`)
            : error,
      );
    });
    server.listen(port, host.replace(/^\[(.*)\]$/, "$1"), () => resolve((server.address() as AddressInfo).port));
  });
}

/** Resolves once `signal` is aborted (at once when it already is). */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Reads a request's body, up to {@link MAX_BODY_BYTES}; undefined past that. */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString("utf8") : undefined));
    request.on("error", reject);
  });
}

/**
 * `kaizen events tail`: listens on `options.host:options.port`, registers a destination for that URL
 * and `options.events`, and prints each event that arrives with a valid signature (one line each, or
 * its body as one line of JSON with `--json`); a request without one is answered 401 and warned
 * about on stderr. Once `signal` is aborted it removes the destination, stops listening and
 * resolves. Where it listens goes to stdout, or to stderr with `--json`, which keeps stdout to events.
 * @example await runTail(kaizen, { events: [...EVENT_TYPES], host: "127.0.0.1", port: 0 }, output, controller.signal);
 */
export async function runTail(
  kaizen: KaizenClient,
  options: TailOptions,
  output: Output,
  signal: AbortSignal,
): Promise<void> {
  const say = (line: string) => (output.json ? output.err(line) : output.out(line));
  let secret: string | undefined;

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const from = `${request.method} ${request.url} from ${request.socket.remoteAddress}`;
    if (request.method !== "POST") {
      output.err(`kaizen: warning: answered 405 to ${from}: events are POSTed`);
      response.writeHead(405, { Allow: "POST" }).end();
      return;
    }
    if (body === undefined) {
      output.err(`kaizen: warning: answered 413 to ${from}: the body is over ${MAX_BODY_BYTES} bytes`);
      response.writeHead(413).end();
      return;
    }
    const timestamp = request.headers[TIMESTAMP_HEADER.toLowerCase()];
    const signature = request.headers[SIGNATURE_HEADER.toLowerCase()];
    const signed =
      secret !== undefined &&
      typeof timestamp === "string" &&
      typeof signature === "string" &&
      verifySignature(secret, timestamp, body, signature);
    if (!signed) {
      const event = request.headers["kaizen-event-id"];
      output.err(
        `kaizen: warning: answered 401 to ${from}${typeof event === "string" ? ` (event ${event})` : ""}: its ${SIGNATURE_HEADER} is missing or not by this destination's secret`,
      );
      response.writeHead(401).end();
      return;
    }
    const received = parseEvent(body);
    if (!received) {
      output.err(`kaizen: warning: answered 400 to ${from}: signed, but not an event ({id, type, createdAt, data})`);
      response.writeHead(400).end();
      return;
    }
    output.out(output.json ? JSON.stringify(received.parsed) : formatEventLine(received.event, output.colour));
    response.writeHead(204).end();
  };

  const server = createServer((request, response) => {
    answer(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(400);
      response.end();
    });
  });
  const port = await listen(server, options.host, options.port);
  try {
    const url = `http://${urlHost(options.host)}:${port}/`;
    // Says whose it is, should the process end without removing it (killed, or the API unreachable then).
    const description = `kaizen events tail on ${hostname()} (pid ${process.pid})`.slice(0, 500);
    // Not aborted with the signal: a destination made after the request left is removed below.
    const { data } = await kaizen.POST("/api/event-destinations", {
      body: { url, events: [...options.events], description },
    });
    const destination = data?.data;
    if (!destination) throw new Error("the API answered the new destination without its data");
    secret = destination.secret;
    say(
      `Listening on ${url}: registered destination ${destination.id} for ${eventsText(destination.events)}. Ctrl-C removes it.`,
    );
    options.onReady?.({ url, destination });
    await aborted(signal);
    try {
      await kaizen.DELETE("/api/event-destinations/{id}", { params: { path: { id: destination.id } } });
    } catch (error) {
      if (!(error instanceof KaizenApiError && error.status === 404)) {
        output.err(
          `kaizen: could not remove destination ${destination.id}: remove it with kaizen events destinations remove ${destination.id}`,
        );
        throw error;
      }
    }
    say(`Removed destination ${destination.id}.`);
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

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
  return yargs.command(
    "events",
    "Outbound events: destinations, their deliveries, and tail to watch events arrive",
    (y) =>
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
                  ...(deliveries.length > 0 ? [formatDeliveryList(deliveries, output.colour)] : []),
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
