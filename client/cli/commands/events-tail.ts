/**
 * @module client/cli/commands/events-tail — `kaizen events tail`: a receiver on this machine,
 * registered as an event destination for as long as it runs, that verifies each event's signature
 * and prints it as it arrives.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { EVENT_TYPES, type EventType } from "../../../core/src/events/event-types.js";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from "../../../core/src/events/signing.js";
import { KaizenApiError, type KaizenClient, type Schema } from "../../client.js";
import { type Output, paint, type Style, statusStyle, truncate } from "../output.js";
import { UsageError } from "../runtime.js";
import { type DestinationWithSecret, eventsText } from "./events-format.js";
import { verificationLine } from "./issues.js";

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

/** An event's `verification` when it has the shape of one (a status at least), else null. */
function verificationOf(data: Record<string, unknown>): Schema<"Issue">["verification"] {
  const verification = field(data, "verification");
  return typeof field(verification, "status") === "string" ? (verification as Schema<"Issue">["verification"]) : null;
}

/**
 * The gist of an event's `data` in one line: the issue and its move, the dispatch and its agent (what
 * it waits for, who stopped it and why), the experiment's outcome, how a merged fix's watch ended; for a type this CLI does not know, the data as JSON.
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
    case "dispatch.waiting":
      return `${dispatchText} waits for ${text(field(data, "waitingFor") ?? field(dispatch, "waitingFor"))}`;
    case "dispatch.stopped": {
      const by = field(data, "by");
      return `${dispatchText} stopped${typeof by === "string" ? ` by ${by}` : ""}: ${text(field(data, "reason"))}`;
    }
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
    case "issue.verified":
    case "issue.regressed":
      return `${text(field(issue, "identifier"))} ${verificationLine(verificationOf(data)) ?? event.type.slice("issue.".length)}`;
    default:
      return JSON.stringify(data);
  }
}

/**
 * The colours of event types that say how something ended (a dispatch, a merged fix's watch), or
 * that a dispatch waits for a person.
 */
const EVENT_STYLES: Partial<Record<string, Style>> = {
  "dispatch.waiting": "yellow",
  "dispatch.completed": "green",
  "dispatch.failed": "red",
  "dispatch.expired": "red",
  "dispatch.stopped": "red",
  "issue.verified": "green",
  "issue.regressed": "red",
};

/** An event type's colour: how its dispatch, experiment or merged fix's watch ended; a dispatch waiting for a person. */
function eventStyle(event: ReceivedEvent): Style | undefined {
  if (event.type === "experiment.decided") return statusStyle(text(field(field(event.data, "experiment"), "status")));
  return EVENT_STYLES[event.type];
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
export function urlHost(host: string): string {
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
