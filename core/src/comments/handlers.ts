/**
 * @module comments/handlers — `GET|POST /api/issues/:id/comments` (API.md 3.2.2): validate, call
 * the service, shape the response. The issues family mounts them and supplies the issue lookup.
 */
import type { Handler } from "hono";
import type { AppDeps, AppEnv } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { createCommentBody, listCommentsQuery } from "./schemas.js";
import { type CommentIssueLookup, CommentService } from "./service.js";
import { CommentStore } from "./store.js";

export type { CommentIssueLookup } from "./service.js";

/**
 * The comment routes' handlers, built once from the deps.
 *
 * `POST` answers 201 with the comment and its `ETag`, and no `Location`: there is no route that
 * reads one comment, and a `Location` must name the created resource, not a list.
 * @example
 * const issues = new IssueService(new IssueStore(db));
 * const comments = commentHandlers(deps, (ref) => issues.getIssue(ref).then(({ issue }) => issue));
 */
export function commentHandlers(
  deps: AppDeps,
  findIssue: CommentIssueLookup,
): {
  "GET /api/issues/:id/comments": Handler<AppEnv>;
  "POST /api/issues/:id/comments": Handler<AppEnv>;
} {
  const comments = new CommentService(new CommentStore(deps.db), findIssue);
  return {
    "GET /api/issues/:id/comments": async (c) => {
      const query = parseWith(listCommentsQuery, c.req.query(), "query");
      const { comments: page, total } = await comments.listComments(c.req.param("id") ?? "", query);
      return listResponse(c, page, total, query);
    },
    "POST /api/issues/:id/comments": async (c) => {
      const input = parseWith(createCommentBody, await readJsonBody(c), "body");
      const { comment, version } = await comments.addComment(c.req.param("id") ?? "", input);
      return itemResponse(c, comment, { status: 201, etag: etagOf(version) });
    },
  };
}
