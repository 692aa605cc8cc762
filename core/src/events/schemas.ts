/**
 * @module events/schemas — outbound events (docs/api.md#outbound-events): the event types, what an event
 * destination is and what clients may send to make or change one, and the event deliveries it lists.
 */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { count, nullableText, nullableTimestamp, resourceId, timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";
import { destinationUrlProblem } from "./destination-url.js";
import { EVENT_TYPES, type EventType } from "./event-types.js";

export { destinationUrlProblem } from "./destination-url.js";
export { EVENT_TYPES, type EventType } from "./event-types.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** How many destinations one deployment may have. */
export const MAX_DESTINATIONS = 20;
export const MAX_URL_LENGTH = 2_000;
export const MAX_DESCRIPTION_LENGTH = 500;

/** Shape of a destination id (`dst_` + ULID). */
export const DESTINATION_ID = /^dst_[0-9A-HJKMNP-TV-Z]{26}$/;
/** Shape of a delivery id (`dlv_` + 26 characters: the event's time, then a digest of event and destination). */
export const EVENT_DELIVERY_ID = /^dlv_[0-9A-HJKMNP-TV-Z]{26}$/;

const destinationUrl = () =>
  z.string().check(
    z.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
    z.superRefine((value, ctx) => {
      const problem = destinationUrlProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem, input: value });
    }),
  );

const eventList = () =>
  z.array(z.enum(EVENT_TYPES)).check(
    z.minLength(1, `must name at least one event of ${EVENT_TYPES.join(", ")}`),
    z.maxLength(EVENT_TYPES.length, `must name each event at most once`),
    z.refine((events) => new Set(events).size === events.length, "must name each event at most once"),
  );

const description = () =>
  z.nullable(
    z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`)),
  );

/** `POST /api/event-destinations` body. */
export const createDestinationBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    url: destinationUrl(),
    events: eventList(),
    description: z.optional(description()),
    active: z.optional(z.boolean()),
  }),
);
export type CreateDestinationBody = Output<typeof createDestinationBody>;

/** `PATCH /api/event-destinations/:id` body: any of the fields; `active: true` turns a deactivated one back on. */
export const patchDestinationBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    url: z.optional(destinationUrl()),
    events: z.optional(eventList()),
    description: z.optional(description()),
    active: z.optional(z.boolean()),
  }),
);
export type PatchDestinationBody = Output<typeof patchDestinationBody>;

/** `GET /api/event-destinations` query. */
export const listDestinationsQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));
export type ListDestinationsQuery = Output<typeof listDestinationsQuery>;

export const EVENT_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type EventDeliveryStatus = (typeof EVENT_DELIVERY_STATUSES)[number];

/** `GET /api/event-destinations/:id/deliveries` query. */
export const listEventDeliveriesQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));
export type ListEventDeliveriesQuery = Output<typeof listEventDeliveriesQuery>;

// Responses (docs/api.md#outbound-events): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** An event destination as the API shows it: never its secret, after the answer that created it. */
export const destinationSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("dst"),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    description: nullableText(),
    /** Whether events are sent to it. */
    active: z.boolean(),
    /** Why it was switched off by Kaizen (100 failed attempts in a row), or null. */
    deactivatedReason: nullableText(),
    deactivatedAt: nullableTimestamp(),
    /** Failed attempts since its last success. */
    consecutiveFailures: count(),
    /** Until when the secret before the last rotation still signs too, or null. */
    previousSecretExpiresAt: nullableTimestamp(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Destination = Output<typeof destinationSchema>;

/** The answer to a create or a secret rotation: the destination and its signing secret, shown this once. */
export const destinationWithSecretSchema = /* @__PURE__ */ onFirstUse(() =>
  z.extend(destinationSchema(), {
    /** `whsec_` and 64 hex digits; the HMAC key is this whole text (docs/api.md#outbound-events). */
    secret: z.string().check(z.regex(/^whsec_[0-9a-f]{64}$/)),
  }),
);
export type DestinationWithSecret = Output<typeof destinationWithSecretSchema>;

/** One attempt to deliver an event. */
export const eventDeliveryAttemptSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    at: timestamp(),
    /** `succeeded` (a 2xx within 10 s) or `failed`. */
    outcome: z.enum(["succeeded", "failed"]),
    /** The HTTP status the destination answered, or null when it did not answer in time or at all. */
    responseStatus: z.nullable(z.int()),
    durationMs: count(),
    /** Why it failed, when it did: `timeout`, `HTTP 500`, a connection error. */
    error: nullableText(),
    /** `automatic` (the first send and the backoff's retries) or `manual` (a retry asked for). */
    trigger: z.enum(["automatic", "manual"]),
  }),
);
export type EventDeliveryAttempt = Output<typeof eventDeliveryAttemptSchema>;

/** One event on its way to one destination, with its attempts. */
export const eventDeliverySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("dlv"),
    destinationId: resourceId("dst"),
    eventId: resourceId("evt"),
    eventType: z.enum(EVENT_TYPES),
    /** `pending` while attempts go on, `succeeded` once one did, `failed` after 24 h of failures. */
    status: z.enum(EVENT_DELIVERY_STATUSES),
    /** When the next automatic attempt is due (pending only). */
    nextAttemptAt: nullableTimestamp(),
    attempts: z.array(eventDeliveryAttemptSchema()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type EventDelivery = Output<typeof eventDeliverySchema>;

/** What a destination receives: the body of each POST. */
export interface OutboundEvent {
  /** Stable across retries and redeliveries: receivers dedupe on it. */
  id: string;
  type: EventType;
  createdAt: string;
  data: Record<string, unknown>;
}
