/** @module templates/routes — the `templates` family's handlers (docs/api.md#templates-and-versions, docs/api.md#partials; routes in ./api.ts): call the service, shape the response. */
import type { Context } from "hono";
import { type AppDeps, type FamilyHandlers, familyModule, type RouteHandler } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import type { ReachLookups } from "../http/reach.js";
import { contentEtagOf, FIRST_ETAG, itemResponse, listResponse, storedResponse } from "../http/respond.js";
import {
  defaultTemplates,
  experimentService,
  issueProject,
  partialService,
  promptRenderer,
  reviewLists,
  templateService,
} from "../services.js";
import { templateApi } from "./api.js";
import type { TemplatePreview } from "./schemas.js";

/** Where what the template routes reach belongs, for a key narrowed to projects (http/reach): the issue a preview renders. */
const templateReaches = (deps: AppDeps): ReachLookups => ({ issue: issueProject(deps) });

export const templateFamily = familyModule(templateApi, templateReaches, (deps) => {
  const templates = templateService(deps);
  const rendering = promptRenderer(deps);
  const defaults = defaultTemplates(deps);
  const reviewPages = reviewLists(deps);
  const experiments = experimentService(deps);
  const partials = partialService(deps);
  const name = (c: Context) => c.req.param("name") ?? "";
  const experimentId = (c: Context) => c.req.param("experimentId") ?? "";
  const id = (c: Context) => c.req.param("id") ?? "";
  const detail = async (c: Context, ref: string, status: 200 | 201 = 200) => {
    const { detail, version } = await templates.templateDetail(ref);
    const location = status === 201 ? `/api/templates/${detail.id}` : undefined;
    return storedResponse(c, detail, version, { status, location });
  };
  const handlers: FamilyHandlers<typeof templateApi> = {
    "GET /api/templates": async (c, { query }) => {
      const { templates: page, total } = await templates.listTemplates(query);
      return listResponse(
        c,
        page.map(({ template }) => template),
        total,
        query,
      );
    },
    "POST /api/templates": async (c, { body }) => {
      const created = await templates.createTemplate(body);
      return detail(c, created.template.id, 201);
    },
    "GET /api/templates/:id": (c) => detail(c, id(c)),
    "PATCH /api/templates/:id": async (c, { body, expectedVersion }) => {
      const updated = await templates.updateTemplate(id(c), body, expectedVersion);
      return detail(c, updated.template.id);
    },
    "DELETE /api/templates/:id": async (c, { expectedVersion }) => {
      await templates.deleteTemplate(id(c), expectedVersion);
      return c.body(null, 204);
    },
    "GET /api/templates/:id/versions": async (c, { query }) => {
      const { versions, total } = await templates.listVersions(id(c), query);
      return listResponse(c, versions, total, query);
    },
    "POST /api/templates/:id/versions": async (c, { body }) => {
      // A version's content never changes; no route reads one version, so its 201 names no Location.
      const version = await templates.createVersion(id(c), body);
      return itemResponse(c, version, { status: 201, etag: FIRST_ETAG });
    },
    "POST /api/templates/:id/versions/:versionId/promote": async (c) => {
      const { template } = await templates.promote(id(c), c.req.param("versionId") ?? "");
      return detail(c, template.template.id);
    },
    "GET /api/templates/:id/reviews": async (c, { query }) => {
      const template = await templates.getTemplate(id(c));
      const { reviews, total } = await reviewPages.ofTemplate(template.template.id, query);
      return listResponse(c, reviews, total, query);
    },
    "GET /api/templates/:id/experiments": async (c, { query }) => {
      const { experiments: page, total } = await experiments.list(id(c), {
        offset: pageOffset(query),
        limit: query.limit,
      });
      return listResponse(c, page, total, query);
    },
    "POST /api/templates/:id/experiments": async (c, { body }) => {
      const { experiment, version } = await experiments.start(id(c), body);
      return storedResponse(c, experiment, version, {
        status: 201,
        location: `/api/templates/${experiment.templateId}/experiments/${experiment.id}`,
      });
    },
    "GET /api/templates/:id/experiments/:experimentId": async (c) => {
      const { experiment, version } = await experiments.get(id(c), experimentId(c));
      return storedResponse(c, experiment, version);
    },
    "DELETE /api/templates/:id/experiments/:experimentId": async (c, { expectedVersion }) => {
      const { experiment, version } = await experiments.stop(id(c), experimentId(c), expectedVersion);
      return storedResponse(c, experiment, version);
    },
    "GET /api/partials": async (c, { query }) => {
      const { partials: page, total } = await partials.list(query);
      return listResponse(c, page, total, query);
    },
    "POST /api/partials": async (c, { body }) => {
      const created = await partials.create(body);
      return storedResponse(c, created.partial, created.version, {
        status: 201,
        location: `/api/partials/${created.partial.name}`,
      });
    },
    "GET /api/partials/:name": async (c) => {
      const found = await partials.get(name(c));
      return storedResponse(c, found.partial, found.version);
    },
    "PATCH /api/partials/:name": async (c, { body, expectedVersion }) => {
      const updated = await partials.update(name(c), body, expectedVersion);
      return storedResponse(c, updated.partial, updated.version);
    },
    "DELETE /api/partials/:name": async (c, { expectedVersion }) => {
      await partials.delete(name(c), expectedVersion);
      return c.body(null, 204);
    },
    "GET /api/templates/preview/:issueId": async (c, { query: { versionId } }) => {
      const issueRef = c.req.param("issueId") ?? "";
      // A version asked for by id is rendered as it is, outside any experiment.
      const { issueId, rendered, experiment } = versionId
        ? { ...(await rendering.renderVersionFor(issueRef, versionId)), experiment: null }
        : await rendering.renderFor(issueRef);
      const preview: TemplatePreview = {
        issueId,
        template: rendered?.template ?? null,
        version: rendered?.version ?? null,
        experiment,
        text: rendered?.text ?? null,
      };
      // Rendered for the request: a weak ETag of what it renders.
      return itemResponse(c, preview, { etag: contentEtagOf(preview) });
    },
  };
  // Every route may read templates: the defaults exist before the first answer of a process.
  return Object.fromEntries(
    Object.entries(handlers).map(([route, handler]: [string, RouteHandler]) => [
      route,
      (async (c, input) => {
        await defaults.ready();
        return handler(c, input);
      }) satisfies RouteHandler,
    ]),
  ) as FamilyHandlers<typeof templateApi>;
});
