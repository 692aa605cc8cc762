/** @module issues/routes — the `issues` family's handlers (routes in ./api.ts): call the service, shape the response. */
import { commentHandlers } from "../comments/handlers.js";
import { type AppDeps, familyModule } from "../http/app.js";
import { type ReachLookups, reachOfRequest } from "../http/reach.js";
import { listResponse, storedResponse } from "../http/respond.js";
import {
  commentService,
  issueDispatch,
  issueProject,
  issueService,
  relationProject,
  relationService,
} from "../services.js";
import { issueApi } from "./api.js";
import { RELATION_VERSION } from "./relation-store.js";

/**
 * Where what the issue routes reach belongs, for a key narrowed to projects (http/reach): an issue (a
 * parent or a related one too) and a relation; and which dispatch works an issue, for a dispatch key.
 */
const issueReaches = (deps: AppDeps): ReachLookups => ({
  issue: issueProject(deps),
  relation: relationProject(deps),
  dispatchOf: { issue: issueDispatch(deps) },
});

export const issueFamily = familyModule(issueApi, issueReaches, (deps) => {
  const issues = issueService(deps);
  const relations = relationService(deps);
  return {
    "GET /api/issues": async (c, { query }) => {
      const reach = reachOfRequest(c);
      if (query.projectId) reach.requireProject(query.projectId);
      const { issues: page, total } = await issues.listIssues(query, reach.within);
      return listResponse(
        c,
        page.map(({ issue }) => issue),
        total,
        query,
      );
    },
    "POST /api/issues": async (c, { body }) => {
      const reach = reachOfRequest(c);
      reach.requireProject(body.projectId);
      if (body.parentId) await reach.require("issue", body.parentId);
      const { issue, version } = await issues.createIssue(body);
      return storedResponse(c, issue, version, { status: 201, location: `/api/issues/${issue.id}` });
    },
    "GET /api/issues/:id": async (c) => {
      const { detail, version } = await issues.getIssueDetail(c.req.param("id") ?? "");
      return storedResponse(c, detail, version);
    },
    "PATCH /api/issues/:id": async (c, { body, expectedVersion }) => {
      const reach = reachOfRequest(c);
      if (body.projectId !== undefined) reach.requireProject(body.projectId);
      if (body.parentId) await reach.require("issue", body.parentId);
      const { issue, version } = await issues.updateIssue(c.req.param("id") ?? "", body, expectedVersion);
      return storedResponse(c, issue, version);
    },
    "DELETE /api/issues/:id": async (c, { expectedVersion }) => {
      await issues.deleteIssue(c.req.param("id") ?? "", expectedVersion);
      return c.body(null, 204);
    },
    "POST /api/issues/:id/relations": async (c, { body }) => {
      await reachOfRequest(c).require("issue", body.relatedIssueId);
      const relation = await relations.relate(c.req.param("id") ?? "", body);
      return storedResponse(c, relation, RELATION_VERSION, { status: 201, location: `/api/relations/${relation.id}` });
    },
    "DELETE /api/relations/:id": async (c, { expectedVersion }) => {
      await relations.unrelate(c.req.param("id") ?? "", expectedVersion);
      return c.body(null, 204);
    },
    ...commentHandlers(commentService(deps)),
  };
});
