/** @module templates/routes — the `templates` family (docs/api.md#templates-and-versions): validate, call the service, shape the response. */
import type { Context, Handler } from "hono";
import type { AppEnv, FamilyHandlers, FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { expectedVersion } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { experimentService, promptRenderer, reviewLists, templateService } from "../services.js";
import {
  createTemplateBody,
  createVersionBody,
  listTemplatesQuery,
  pageQuery,
  patchTemplateBody,
  previewQuery,
  startExperimentBody,
  type TemplatePreview,
} from "./schemas.js";

export const templateFamily: FamilyModule<"templates"> = (deps) => {
  const templates = templateService(deps);
  const rendering = promptRenderer(deps);
  const reviewPages = reviewLists(deps);
  const experiments = experimentService(deps);
  const experimentId = (c: Context) => c.req.param("experimentId") ?? "";
  const id = (c: Context) => c.req.param("id") ?? "";
  const detail = async (c: Context, ref: string, status: 200 | 201 = 200) => {
    const { detail, version } = await templates.templateDetail(ref);
    if (status === 201) c.header("Location", `/api/templates/${detail.id}`);
    return itemResponse(c, detail, { status, etag: etagOf(version) });
  };
  const handlers: FamilyHandlers<"templates"> = {
    "GET /api/templates": async (c) => {
      const query = parseWith(listTemplatesQuery(), c.req.query(), "query");
      const { templates: page, total } = await templates.listTemplates(query);
      return listResponse(
        c,
        page.map(({ template }) => template),
        total,
        query,
      );
    },
    "POST /api/templates": async (c) => {
      const created = await templates.createTemplate(parseWith(createTemplateBody(), await readJsonBody(c), "body"));
      return detail(c, created.template.id, 201);
    },
    "GET /api/templates/:id": (c) => detail(c, id(c)),
    "PATCH /api/templates/:id": async (c) => {
      const expected = expectedVersion(c);
      const changes = parseWith(patchTemplateBody(), await readJsonBody(c), "body");
      const updated = await templates.updateTemplate(id(c), changes, expected);
      return detail(c, updated.template.id);
    },
    "DELETE /api/templates/:id": async (c) => {
      await templates.deleteTemplate(id(c), expectedVersion(c));
      return c.body(null, 204);
    },
    "GET /api/templates/:id/versions": async (c) => {
      const query = parseWith(pageQuery(), c.req.query(), "query");
      const { versions, total } = await templates.listVersions(id(c), query);
      return listResponse(c, versions, total, query);
    },
    "POST /api/templates/:id/versions": async (c) => {
      const version = await templates.createVersion(
        id(c),
        parseWith(createVersionBody(), await readJsonBody(c), "body"),
      );
      return itemResponse(c, version, { status: 201 });
    },
    "POST /api/templates/:id/versions/:versionId/promote": async (c) => {
      const { template } = await templates.promote(id(c), c.req.param("versionId") ?? "");
      return detail(c, template.template.id);
    },
    "GET /api/templates/:id/reviews": async (c) => {
      const query = parseWith(pageQuery(), c.req.query(), "query");
      const { reviews, total } = await reviewPages.listTemplateReviews(id(c), query);
      return listResponse(c, reviews, total, query);
    },
    "GET /api/templates/:id/experiments": async (c) => {
      const query = parseWith(pageQuery(), c.req.query(), "query");
      const { experiments: page, total } = await experiments.list(id(c), {
        offset: pageOffset(query),
        limit: query.limit,
      });
      return listResponse(c, page, total, query);
    },
    "POST /api/templates/:id/experiments": async (c) => {
      const started = await experiments.start(id(c), parseWith(startExperimentBody(), await readJsonBody(c), "body"));
      c.header("Location", `/api/templates/${started.templateId}/experiments/${started.id}`);
      return itemResponse(c, started, { status: 201 });
    },
    "GET /api/templates/:id/experiments/:experimentId": async (c) =>
      itemResponse(c, await experiments.get(id(c), experimentId(c))),
    "DELETE /api/templates/:id/experiments/:experimentId": async (c) =>
      itemResponse(c, await experiments.stop(id(c), experimentId(c))),
    "GET /api/templates/preview/:issueId": async (c) => {
      const { versionId } = parseWith(previewQuery(), c.req.query(), "query");
      const issueRef = c.req.param("issueId") ?? "";
      // A version asked for by id is rendered as it is, outside any experiment.
      const { issueId, rendered, experiment } = versionId
        ? { ...(await rendering.renderVersionFor(issueRef, versionId)), experiment: null }
        : await rendering.renderFor(issueRef);
      return itemResponse(c, {
        issueId,
        template: rendered?.template ?? null,
        version: rendered?.version ?? null,
        experiment,
        text: rendered?.text ?? null,
      } satisfies TemplatePreview);
    },
  };
  // Every route may read templates: the defaults exist before the first answer of a process.
  return Object.fromEntries(
    Object.entries(handlers).map(([route, handler]) => [
      route,
      // One parameter: Hono tells handlers from middleware by their arity.
      (async (c) => {
        await rendering.defaultsReady();
        return (handler as Handler<AppEnv>)(c, async () => {});
      }) as Handler<AppEnv>,
    ]),
  ) as FamilyHandlers<"templates">;
};
