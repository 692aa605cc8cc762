/** @module runners/routes — the `runners` family's handlers (docs/api.md#hosted-runners; routes in ./api.ts): call the service, shape the response. */
import type { Context } from "hono";
import { familyModule } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import { listResponse, storedResponse } from "../http/respond.js";
import { runnerService } from "../services.js";
import { runnerApi } from "./api.js";

export const runnerFamily = familyModule(runnerApi, (deps) => {
  const runners = runnerService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/runners": async (c, { query }) => {
      const { runners: page, total } = await runners.list({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, page, total, query);
    },
    "POST /api/runners": async (c, { body }) => {
      const { runner, version } = await runners.create(body);
      return storedResponse(c, runner, version, { status: 201, location: `/api/runners/${runner.id}` });
    },
    "GET /api/runners/:id": async (c) => {
      const { runner, version } = await runners.get(id(c));
      return storedResponse(c, runner, version);
    },
    "PATCH /api/runners/:id": async (c, { body, expectedVersion }) => {
      const { runner, version } = await runners.update(id(c), body, expectedVersion);
      return storedResponse(c, runner, version);
    },
    "DELETE /api/runners/:id": async (c, { expectedVersion }) => {
      await runners.delete(id(c), expectedVersion);
      return c.body(null, 204);
    },
  };
});
