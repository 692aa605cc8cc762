/** @module events/routes — the `destinations` family's handlers (docs/api.md#outbound-events; routes in ./api.ts): call the service, shape the response. */
import type { Context } from "hono";
import { familyModule } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import { contentEtagOf, itemResponse, listResponse, storedResponse } from "../http/respond.js";
import { destinationService } from "../services.js";
import { destinationApi } from "./api.js";

export const destinationFamily = familyModule(destinationApi, (deps) => {
  const destinations = destinationService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/event-destinations": async (c, { query }) => {
      const { destinations: page, total } = await destinations.list({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, page, total, query);
    },
    "POST /api/event-destinations": async (c, { body }) => {
      const { destination, version } = await destinations.create(body);
      c.header("Cache-Control", "no-store");
      return storedResponse(c, destination, version, {
        status: 201,
        location: `/api/event-destinations/${destination.id}`,
      });
    },
    "GET /api/event-destinations/:id": async (c) => {
      const { destination, version } = await destinations.get(id(c));
      return storedResponse(c, destination, version);
    },
    "PATCH /api/event-destinations/:id": async (c, { body, expectedVersion }) => {
      const { destination, version } = await destinations.update(id(c), body, expectedVersion);
      return storedResponse(c, destination, version);
    },
    "DELETE /api/event-destinations/:id": async (c, { expectedVersion }) => {
      await destinations.delete(id(c), expectedVersion);
      return c.body(null, 204);
    },
    "POST /api/event-destinations/:id/rotate-secret": async (c, { expectedVersion }) => {
      const { destination, version } = await destinations.rotateSecret(id(c), expectedVersion);
      c.header("Cache-Control", "no-store");
      return storedResponse(c, destination, version);
    },
    "GET /api/event-destinations/:id/deliveries": async (c, { query }) => {
      const { deliveries, total } = await destinations.eventDeliveriesOf(id(c), {
        offset: pageOffset(query),
        limit: query.limit,
      });
      return listResponse(c, deliveries, total, query);
    },
    // An event delivery keeps no version (the sender updates it as it tries): a weak ETag of its content.
    "POST /api/event-destinations/:id/deliveries/:deliveryId/retry": async (c) => {
      const delivery = await destinations.retryEventDelivery(id(c), c.req.param("deliveryId") ?? "");
      return itemResponse(c, delivery, { etag: contentEtagOf(delivery) });
    },
  };
});
