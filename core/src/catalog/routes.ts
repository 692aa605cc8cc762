/** @module catalog/routes — the `catalog` family's handlers (projects, goals, labels): validate, call the service, shape the response. */
import type { Context } from "hono";
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { expectedVersion } from "../http/conditional.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { catalogService } from "../services.js";
import type { Stored } from "./record-store.js";
import {
  createGoalBody,
  createLabelBody,
  createProjectBody,
  listGoalsQuery,
  listLabelsQuery,
  listProjectsQuery,
  patchGoalBody,
  patchProjectBody,
} from "./schemas.js";

/** 201 with `Location` and `ETag` for a record just made. */
function created(c: Context, collection: string, { record, version }: Stored<{ id: string }>): Response {
  c.header("Location", `/api/${collection}/${record.id}`);
  return itemResponse(c, record, { status: 201, etag: etagOf(version) });
}

function stored(c: Context, { record, version }: Stored<unknown>): Response {
  return itemResponse(c, record, { etag: etagOf(version) });
}

export const catalogFamily: FamilyModule<"catalog"> = (deps) => {
  const catalog = catalogService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/projects": async (c) => {
      const query = parseWith(listProjectsQuery(), c.req.query(), "query");
      const { records, total } = await catalog.listProjects(query);
      return listResponse(
        c,
        records.map(({ record }) => record),
        total,
        query,
      );
    },
    "POST /api/projects": async (c) =>
      created(
        c,
        "projects",
        await catalog.createProject(parseWith(createProjectBody(), await readJsonBody(c), "body")),
      ),
    "GET /api/projects/:id": async (c) => {
      const { project, version } = await catalog.projectDetail(id(c));
      return itemResponse(c, project, { etag: etagOf(version) });
    },
    "PATCH /api/projects/:id": async (c) => {
      const expected = expectedVersion(c);
      const changes = parseWith(patchProjectBody(), await readJsonBody(c), "body");
      return stored(c, await catalog.updateProject(id(c), changes, expected));
    },
    "DELETE /api/projects/:id": async (c) => {
      await catalog.deleteProject(id(c), expectedVersion(c));
      return c.body(null, 204);
    },
    "GET /api/goals": async (c) => {
      const query = parseWith(listGoalsQuery(), c.req.query(), "query");
      const { records, total } = await catalog.listGoals(query);
      return listResponse(
        c,
        records.map(({ record }) => record),
        total,
        query,
      );
    },
    "POST /api/goals": async (c) =>
      created(c, "goals", await catalog.createGoal(parseWith(createGoalBody(), await readJsonBody(c), "body"))),
    "GET /api/goals/:id": async (c) => stored(c, await catalog.getGoal(id(c))),
    "PATCH /api/goals/:id": async (c) => {
      const expected = expectedVersion(c);
      const changes = parseWith(patchGoalBody(), await readJsonBody(c), "body");
      return stored(c, await catalog.updateGoal(id(c), changes, expected));
    },
    "DELETE /api/goals/:id": async (c) => {
      await catalog.deleteGoal(id(c), expectedVersion(c));
      return c.body(null, 204);
    },
    "GET /api/labels": async (c) => {
      const query = parseWith(listLabelsQuery(), c.req.query(), "query");
      const { records, total } = await catalog.listLabels(query);
      return listResponse(
        c,
        records.map(({ record }) => record),
        total,
        query,
      );
    },
    "POST /api/labels": async (c) =>
      created(c, "labels", await catalog.createLabel(parseWith(createLabelBody(), await readJsonBody(c), "body"))),
    "DELETE /api/labels/:id": async (c) => {
      await catalog.deleteLabel(id(c), expectedVersion(c));
      return c.body(null, 204);
    },
  };
};
