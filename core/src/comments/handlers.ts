/**
 * @module comments/handlers — `GET|POST /api/issues/:id/comments` (docs/api.md#issue-endpoints; declared in
 * issues/api.ts): call the service, shape the response. The issues family mounts them.
 */
import type { FamilyHandlers } from "../http/app.js";
import { listResponse, storedResponse } from "../http/respond.js";
import type { issueApi } from "../issues/api.js";
import type { CommentService } from "./comment-service.js";

/**
 * The comment routes' handlers, built once from the deps.
 *
 * `POST` answers 201 with the comment and its `ETag`, and no `Location`: there is no route that
 * reads one comment, and a `Location` must name the created resource, not a list.
 * @example const handlers = commentHandlers(commentService(deps));
 */
export function commentHandlers(
  comments: CommentService,
): Pick<FamilyHandlers<typeof issueApi>, "GET /api/issues/:id/comments" | "POST /api/issues/:id/comments"> {
  return {
    "GET /api/issues/:id/comments": async (c, { query }) => {
      const { comments: page, total } = await comments.listComments(c.req.param("id") ?? "", query);
      return listResponse(c, page, total, query);
    },
    "POST /api/issues/:id/comments": async (c, { body }) => {
      const { comment, version } = await comments.addComment(c.req.param("id") ?? "", body);
      return storedResponse(c, comment, version, { status: 201 });
    },
  };
}
