/** @module issues/routes — the `issues` family's handlers: validate, call the service, shape the response. */
import { commentHandlers } from "../comments/handlers.js";
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { expectedVersion } from "../http/conditional.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { commentService, issueService, relationService } from "../services.js";
import { createRelationBody } from "./relation-schemas.js";
import { createIssueBody, listIssuesQuery, updateIssueBody } from "./schemas.js";

export const issueFamily: FamilyModule<"issues"> = (deps) => {
  const issues = issueService(deps);
  const relations = relationService(deps);
  return {
    "GET /api/issues": async (c) => {
      const query = parseWith(listIssuesQuery(), c.req.query(), "query");
      const { issues: page, total } = await issues.listIssues(query);
      return listResponse(
        c,
        page.map(({ issue }) => issue),
        total,
        query,
      );
    },
    "POST /api/issues": async (c) => {
      const input = parseWith(createIssueBody(), await readJsonBody(c), "body");
      const { issue, version } = await issues.createIssue(input);
      c.header("Location", `/api/issues/${issue.id}`);
      return itemResponse(c, issue, { status: 201, etag: etagOf(version) });
    },
    "GET /api/issues/:id": async (c) => {
      const { detail, version } = await issues.getIssueDetail(c.req.param("id") ?? "");
      return itemResponse(c, detail, { etag: etagOf(version) });
    },
    "PATCH /api/issues/:id": async (c) => {
      const expected = expectedVersion(c);
      const patch = parseWith(updateIssueBody(), await readJsonBody(c), "body");
      const { issue, version } = await issues.updateIssue(c.req.param("id") ?? "", patch, expected);
      return itemResponse(c, issue, { etag: etagOf(version) });
    },
    "DELETE /api/issues/:id": async (c) => {
      await issues.deleteIssue(c.req.param("id") ?? "", expectedVersion(c));
      return c.body(null, 204);
    },
    "POST /api/issues/:id/relations": async (c) => {
      const input = parseWith(createRelationBody(), await readJsonBody(c), "body");
      const relation = await relations.relate(c.req.param("id") ?? "", input);
      // Relations never change, so every relation is at version 1.
      return itemResponse(c, relation, { status: 201, etag: etagOf(1) });
    },
    "DELETE /api/relations/:id": async (c) => {
      await relations.unrelate(c.req.param("id") ?? "");
      return c.body(null, 204);
    },
    ...commentHandlers(commentService(deps)),
  };
};
