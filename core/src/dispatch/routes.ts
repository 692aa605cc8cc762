/** @module dispatch/routes — the `dispatch` family (docs/api.md#dispatch): claims, the queue, leases and outcomes. */
import type { Context } from "hono";
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { CLAIM_STOPPED_HEADER } from "../routes.js";
import { dispatchService, promptRenderer } from "../services.js";
import type { ClaimResult, ClaimStopped } from "./dispatch-service.js";
import { claimBody, completeBody, listDispatchesQuery, nextQuery, queueQuery } from "./schemas.js";

export const dispatchFamily: FamilyModule<"dispatch"> = (deps) => {
  const dispatch = dispatchService(deps);
  const templates = promptRenderer(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  const claimed = (c: Context, result: ClaimResult | ClaimStopped | null, status: 200 | 201) => {
    if (!result) return c.body(null, 204);
    if ("stopped" in result) {
      c.header(CLAIM_STOPPED_HEADER, result.stopped);
      return c.body(null, 204);
    }
    c.header("Location", `/api/dispatch/${result.dispatch.id}`);
    return itemResponse(c, result, { status });
  };
  return {
    "POST /api/dispatch/claim": async (c) => {
      const input = parseWith(claimBody(), await readJsonBody(c), "body");
      await templates.defaultsReady();
      return claimed(c, await dispatch.claim(input), 201);
    },
    "GET /api/dispatch/next": async (c) => {
      const input = parseWith(nextQuery(), c.req.query(), "query");
      await templates.defaultsReady();
      return claimed(c, await dispatch.claim(input), 200);
    },
    "GET /api/dispatch/queue": async (c) => {
      const query = parseWith(queueQuery(), c.req.query(), "query");
      const { items, total } = await dispatch.queue(query);
      return listResponse(c, items, total, query);
    },
    "GET /api/dispatch": async (c) => {
      const query = parseWith(listDispatchesQuery(), c.req.query(), "query");
      const { dispatches, total } = await dispatch.listDispatches(query);
      return listResponse(c, dispatches, total, query);
    },
    "GET /api/dispatch/:id": async (c) => itemResponse(c, (await dispatch.getDispatch(id(c))).dispatch),
    "POST /api/dispatch/:id/heartbeat": async (c) => itemResponse(c, await dispatch.heartbeat(id(c))),
    "POST /api/dispatch/:id/complete": async (c) => {
      const input = parseWith(completeBody(), await readJsonBody(c), "body");
      return itemResponse(c, await dispatch.complete(id(c), input));
    },
    "POST /api/dispatch/:id/release": async (c) => itemResponse(c, await dispatch.release(id(c))),
  };
};
