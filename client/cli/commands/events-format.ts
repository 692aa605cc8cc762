/**
 * @module client/cli/commands/events-format — how `kaizen events …` reads and shows things: the
 * `--events` list, destinations, event deliveries with their attempts, and a retry's answer.
 */
import type { Argv } from "yargs";
import { EVENT_TYPES, type EventType } from "../../../core/src/events/event-types.js";
import type { Schema } from "../../client.js";
import { formatFields, formatTable, paint, type Style, shortTime, statusStyle } from "../output.js";
import { UsageError } from "../runtime.js";

export type Destination = Schema<"EventDestination">;
export type DestinationWithSecret = Schema<"EventDestinationWithSecret">;
type EventDelivery = Schema<"EventDelivery">;
type Attempt = EventDelivery["attempts"][number];

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
export function eventFlags<T>(y: Argv<T>, allDescription: string) {
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
export function chosenEvents(args: { events?: EventType[] | undefined; allEvents?: boolean | undefined }) {
  if (args.allEvents) return [...EVENT_TYPES];
  return args.events;
}

/** A destination's events in a few words: `every event` when it takes them all. */
export function eventsText(events: readonly string[]): string {
  return EVENT_TYPES.every((type) => events.includes(type)) ? `every event (${events.length})` : events.join(", ");
}

/** Whether a destination is on, and why not when Kaizen switched it off. */
export function activeText(destination: Destination): string {
  if (destination.active) return "yes";
  return destination.deactivatedReason ? "no (switched off by Kaizen)" : "no";
}

/** Destinations as `destinations list` prints them. */
export function formatDestinationList(destinations: Destination[], colour: boolean): string {
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
export function secretLines(secret: string, colour: boolean): string[] {
  return [
    `secret  ${paint(colour, "yellow", secret)}`,
    paint(colour, "bold", "The secret is shown once: store it now (receivers verify Kaizen-Signature-256 with it)."),
  ];
}

/** An attempt's result in a few words: `HTTP 204`, or why it failed. */
export function attemptText(attempt: Attempt | undefined): string {
  if (!attempt) return "-";
  if (attempt.error) return attempt.error;
  return attempt.responseStatus === null ? attempt.outcome : `HTTP ${attempt.responseStatus}`;
}

/** Deliveries as `deliveries` prints them, newest first. */
export function formatEventDeliveryList(deliveries: EventDelivery[], colour: boolean): string {
  const statusColour = (status: string): Style | undefined =>
    status === "succeeded" ? "green" : status === "pending" ? "yellow" : statusStyle(status);
  return formatTable(
    [
      { header: "DELIVERY", value: (d: EventDelivery) => d.id },
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
export function formatRetry(delivery: EventDelivery): string {
  const attempt = delivery.attempts.at(-1);
  if (!attempt)
    return `EventDelivery ${delivery.id} (${delivery.eventType}) has no attempt yet; it is ${delivery.status}.`;
  const result = `${attempt.outcome} in ${attempt.durationMs} ms: ${attemptText(attempt)}`;
  const after =
    delivery.status === "pending" && delivery.nextAttemptAt
      ? `the delivery stays pending; next automatic attempt ${shortTime(delivery.nextAttemptAt)}`
      : `the delivery is ${delivery.status}`;
  return `Retried ${delivery.id} (${delivery.eventType}, ${delivery.eventId}): ${result}; ${after}.`;
}
