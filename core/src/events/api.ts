/**
 * @module events/api — the `destinations` family's routes (docs/api.md#outbound-events): where Kaizen sends its
 * events and how each delivery went, each declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import {
  createDestinationBody,
  EVENT_TYPES,
  listDestinationsQuery,
  listEventDeliveriesQuery,
  patchDestinationBody,
} from "./schemas.js";

const DESTINATION_PARAM = TEXT ? "Event destination id (`dst_…`)" : "";

export const destinationApi = {
  "GET /api/event-destinations": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    query: listDestinationsQuery,
    success: { list: "EventDestination" },
    doc: TEXT && {
      summary: "List event destinations",
      description: "Oldest first; never their secrets.",
      success: "A page",
    },
  },
  "POST /api/event-destinations": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    body: createDestinationBody,
    success: { status: 201, item: "EventDestinationWithSecret" },
    errors: [409],
    doc: TEXT && {
      summary: "Add an event destination",
      description:
        `Kaizen POSTs each event of the types in \`events\` (${EVENT_TYPES.map((type) => `\`${type}\``).join(", ")}) to ` +
        "`url` (https; plain http only to localhost, 127.0.0.1 or [::1]), signed with the secret in this answer, which is " +
        "shown this once, and again only to a replay of this request with its `Idempotency-Key`. At most 20 destinations " +
        "(409 beyond).",
      success: "The new destination and its signing secret",
    },
  },
  "GET /api/event-destinations/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    success: { item: "EventDestination" },
    errors: [404],
    doc: TEXT && {
      summary: "Get an event destination",
      params: { id: DESTINATION_PARAM },
      success: "The destination",
    },
  },
  "PATCH /api/event-destinations/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    body: patchDestinationBody,
    ifMatch: true,
    success: { item: "EventDestination" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Change an event destination",
      description:
        "Any of `url`, `events`, `description`, `active`. `active: true` on a destination Kaizen switched off after 100 " +
        "failed attempts in a row turns it back on with its count of failures at 0.",
      params: { id: DESTINATION_PARAM },
      success: "The changed destination",
    },
  },
  "DELETE /api/event-destinations/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    ifMatch: true,
    success: { status: 204 },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Delete an event destination",
      description: "Its pending deliveries are not sent any more.",
      params: { id: DESTINATION_PARAM },
      success: "Deleted",
    },
  },
  "POST /api/event-destinations/:id/rotate-secret": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    ifMatch: true,
    success: { item: "EventDestinationWithSecret" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Rotate an event destination's signing secret",
      description:
        "A new secret, shown this once. For 24 h the old one signs too: `Kaizen-Signature-256` then carries both " +
        "signatures, the new one first, comma-separated, so a receiver holding either accepts the events.",
      params: { id: DESTINATION_PARAM },
      success: "The destination and its new secret",
    },
  },
  "GET /api/event-destinations/:id/deliveries": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    query: listEventDeliveriesQuery,
    success: { list: "EventDelivery" },
    errors: [404],
    doc: TEXT && {
      summary: "List an event destination's deliveries",
      description:
        "Newest first, each with its attempts (when, the outcome, the HTTP status answered, how long it took, why it failed).",
      params: { id: DESTINATION_PARAM },
      success: "A page",
    },
  },
  "POST /api/event-destinations/:id/deliveries/:deliveryId/retry": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    success: { item: "EventDelivery" },
    errors: [404, 409],
    doc: TEXT && {
      summary: "Send a delivery again",
      description:
        "One attempt now, whatever the delivery's status; the answer carries it. A success ends the delivery as " +
        "`succeeded`; a failure leaves its schedule as it was. 409 while another attempt of it is under way.",
      params: { id: DESTINATION_PARAM, deliveryId: "Delivery id (`dlv_…`)" },
      success: "The delivery with this attempt",
    },
  },
} satisfies Declarations;
