/**
 * @module comments/handlers — `GET|POST /api/issues/:id/comments` (docs/api.md#issue-endpoints): validate, call
 * the service, shape the response. The issues family mounts them and supplies the issue lookup.
 */
import type { Handler } from "hono";
import type { AppEnv } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { etagOf, itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import type { CommentService } from "./comment-service.js";
import { createCommentBody, listCommentsQuery } from "./schemas.js";

/**
 * The comment routes' handlers, built once from the deps.
 *
 * `POST` answers 201 with the comment and its `ETag`, and no `Location`: there is no route that
 * reads one comment, and a `Location` must name the created resource, not a list.
 * @example const handlers = commentHandlers(commentService(deps));
 */
export function commentHandlers(comments: CommentService): {
  "GET /api/issues/:id/comments": Handler<AppEnv>;
  "POST /api/issues/:id/comments": Handler<AppEnv>;
} {
  return {
    "GET /api/issues/:id/comments": async (c) => {
      const query = parseWith(listCommentsQuery(), c.req.query(), "query");
      const { comments: page, total } = await comments.listComments(c.req.param("id") ?? "", query);
      return listResponse(c, page, total, query);
    },
    "POST /api/issues/:id/comments": async (c) => {
      const input = parseWith(createCommentBody(), await readJsonBody(c), "body");
      const { comment, version } = await comments.addComment(c.req.param("id") ?? "", input);
      return itemResponse(c, comment, { status: 201, etag: etagOf(version) });
    },
  };
}
