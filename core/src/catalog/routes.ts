/** @module catalog/routes — the `catalog` family's handlers (projects, goals, labels; routes in ./api.ts): call the service, shape the response. */
import type { Context } from "hono";
import { familyModule } from "../http/app.js";
import { reachOfRequest } from "../http/reach.js";
import { listResponse, storedResponse } from "../http/respond.js";
import { catalogService } from "../services.js";
import { catalogApi } from "./api.js";
import type { Stored } from "./record-store.js";

/** 201 with `Location` and `ETag` for a record just made in `collection`. */
function created(c: Context, collection: string, { record, version }: Stored<{ id: string }>): Response {
  return storedResponse(c, record, version, { status: 201, location: `/api/${collection}/${record.id}` });
}

/** A stored record's answer, with its version as the `ETag`. */
function stored(c: Context, { record, version }: Stored<unknown>): Response {
  return storedResponse(c, record, version);
}

export const catalogFamily = familyModule(catalogApi, (deps) => {
  const catalog = catalogService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/projects": async (c, { query }) => {
      const { records, total } = await catalog.listProjects(query, reachOfRequest(c).within);
      return listResponse(
        c,
        records.map(({ record }) => record),
        total,
        query,
      );
    },
    "POST /api/projects": async (c, { body }) => created(c, "projects", await catalog.createProject(body)),
    "GET /api/projects/:id": async (c) => {
      const { project, version } = await catalog.projectDetail(id(c));
      return storedResponse(c, project, version);
    },
    "PATCH /api/projects/:id": async (c, { body, expectedVersion }) =>
      stored(c, await catalog.updateProject(id(c), body, expectedVersion)),
    "DELETE /api/projects/:id": async (c, { expectedVersion }) => {
      await catalog.deleteProject(id(c), expectedVersion);
      return c.body(null, 204);
    },
    "GET /api/goals": async (c, { query }) => {
      const { records, total } = await catalog.listGoals(query);
      return listResponse(
        c,
        records.map(({ record }) => record),
        total,
        query,
      );
    },
    "POST /api/goals": async (c, { body }) => created(c, "goals", await catalog.createGoal(body)),
    "GET /api/goals/:id": async (c) => stored(c, await catalog.getGoal(id(c))),
    "PATCH /api/goals/:id": async (c, { body, expectedVersion }) =>
      stored(c, await catalog.updateGoal(id(c), body, expectedVersion)),
    "DELETE /api/goals/:id": async (c, { expectedVersion }) => {
      await catalog.deleteGoal(id(c), expectedVersion);
      return c.body(null, 204);
    },
    "GET /api/labels": async (c, { query }) => {
      const { records, total } = await catalog.listLabels(query);
      return listResponse(
        c,
        records.map(({ record }) => record),
        total,
        query,
      );
    },
    "POST /api/labels": async (c, { body }) => created(c, "labels", await catalog.createLabel(body)),
    "DELETE /api/labels/:id": async (c, { expectedVersion }) => {
      await catalog.deleteLabel(id(c), expectedVersion);
      return c.body(null, 204);
    },
  };
});
