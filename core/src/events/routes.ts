/** @module events/routes — the `destinations` family's handlers (docs/api.md#outbound-events): validate, call the service, shape the response. */
import type { Context } from "hono";
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { expectedVersion } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { destinationService } from "../services.js";
import {
  createDestinationBody,
  listDestinationsQuery,
  listEventDeliveriesQuery,
  patchDestinationBody,
} from "./schemas.js";

export const destinationFamily: FamilyModule<"destinations"> = (deps) => {
  const destinations = destinationService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/event-destinations": async (c) => {
      const query = parseWith(listDestinationsQuery(), c.req.query(), "query");
      const { destinations: page, total } = await destinations.list({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, page, total, query);
    },
    "POST /api/event-destinations": async (c) => {
      const input = parseWith(createDestinationBody(), await readJsonBody(c), "body");
      const { destination, version } = await destinations.create(input);
      c.header("Location", `/api/event-destinations/${destination.id}`);
      c.header("Cache-Control", "no-store");
      return itemResponse(c, destination, { status: 201, etag: etagOf(version) });
    },
    "GET /api/event-destinations/:id": async (c) => {
      const { destination, version } = await destinations.get(id(c));
      return itemResponse(c, destination, { etag: etagOf(version) });
    },
    "PATCH /api/event-destinations/:id": async (c) => {
      const expected = expectedVersion(c);
      const changes = parseWith(patchDestinationBody(), await readJsonBody(c), "body");
      const { destination, version } = await destinations.update(id(c), changes, expected);
      return itemResponse(c, destination, { etag: etagOf(version) });
    },
    "DELETE /api/event-destinations/:id": async (c) => {
      await destinations.delete(id(c), expectedVersion(c));
      return c.body(null, 204);
    },
    "POST /api/event-destinations/:id/rotate-secret": async (c) => {
      const { destination, version } = await destinations.rotateSecret(id(c), expectedVersion(c));
      c.header("Cache-Control", "no-store");
      return itemResponse(c, destination, { etag: etagOf(version) });
    },
    "GET /api/event-destinations/:id/deliveries": async (c) => {
      const query = parseWith(listEventDeliveriesQuery(), c.req.query(), "query");
      const { deliveries, total } = await destinations.eventDeliveriesOf(id(c), {
        offset: pageOffset(query),
        limit: query.limit,
      });
      return listResponse(c, deliveries, total, query);
    },
    "POST /api/event-destinations/:id/deliveries/:deliveryId/retry": async (c) =>
      itemResponse(c, await destinations.retryEventDelivery(id(c), c.req.param("deliveryId") ?? "")),
  };
};
