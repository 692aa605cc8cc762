/** @module issues/routes — the `issues` family's handlers: validate, call the service, shape the response. */
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { createIssueBody, listIssuesQuery } from "./schemas.js";
import { IssueService } from "./service.js";
import { IssueStore } from "./store.js";

export const issueFamily: FamilyModule<"issues"> = ({ db }) => {
  const issues = new IssueService(new IssueStore(db));
  return {
    "GET /api/issues": async (c) => {
      const query = parseWith(listIssuesQuery, c.req.query(), "query");
      const { issues: page, total } = await issues.listIssues(query);
      return listResponse(
        c,
        page.map(({ issue }) => issue),
        total,
        query,
      );
    },
    "POST /api/issues": async (c) => {
      const input = parseWith(createIssueBody, await readJsonBody(c), "body");
      const { issue, version } = await issues.createIssue(input);
      c.header("Location", `/api/issues/${issue.id}`);
      return itemResponse(c, issue, { status: 201, etag: etagOf(version) });
    },
    "GET /api/issues/:id": async (c) => {
      const { issue, version } = await issues.getIssue(c.req.param("id") ?? "");
      return itemResponse(c, issue, { etag: etagOf(version) });
    },
  };
};
