/** @module dispatch/routes — the `dispatch` family's handlers (docs/api.md#dispatch; routes in ./api.ts): claims, the queue, leases and outcomes. */
import type { Context } from "hono";
import type { AppEnv } from "../http/app.js";
import { type AppDeps, familyModule } from "../http/app.js";
import { type ReachLookups, reachOfRequest } from "../http/reach.js";
import { FIRST_ETAG, itemResponse, listResponse, storedResponse } from "../http/respond.js";
import { CLAIM_STOPPED_HEADER } from "../routes.js";
import { dispatchProject, dispatchService } from "../services.js";
import { dispatchApi } from "./api.js";
import { CLAIMED_VERSION, type StoredDispatch, type VersionedDispatch } from "./dispatch-item.js";
import type { ClaimResult, ClaimStopped } from "./dispatch-service.js";

/** Where what the dispatch routes reach belongs, for a key narrowed to projects (http/reach): a dispatch. */
const dispatchReaches = (deps: AppDeps): ReachLookups => ({ dispatch: dispatchProject(deps) });

export const dispatchFamily = familyModule(dispatchApi, dispatchReaches, (deps) => {
  const dispatch = dispatchService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  // What the dispatch token's check read of this dispatch (dispatch-store `tokenDispatchOf`): the
  // agent's step starts from it instead of reading the dispatch again.
  const read = (c: Context<AppEnv>) => c.get("dispatchRead") as StoredDispatch | undefined;
  const claimed = (c: Context, result: ClaimResult | ClaimStopped | null, status: 200 | 201) => {
    if (!result) return c.body(null, 204);
    if ("stopped" in result) {
      c.header(CLAIM_STOPPED_HEADER, result.stopped);
      return c.body(null, 204);
    }
    // The claim's primary resource is the dispatch it made, at the version a claim makes it at.
    return storedResponse(c, result, CLAIMED_VERSION, { status, location: `/api/dispatch/${result.dispatch.id}` });
  };
  /** An answer about one dispatch and what went with it (its issue, a decision's activity), with the dispatch's `ETag`. */
  const withDispatch = (c: Context, { version, ...answer }: VersionedDispatch & object) =>
    storedResponse(c, answer, version);
  // A key narrowed to projects claims and previews only their issues (docs/security.md#projects).
  const claimer = (c: Context<AppEnv>, projectId: string | undefined) => {
    const reach = reachOfRequest(c);
    if (projectId) reach.requireProject(projectId);
    return {
      keyId: c.get("caller")?.kind === "key" ? c.get("caller")?.id : undefined,
      projectIds: reach.within ?? undefined,
    };
  };
  const narrowed = <Q extends { projectId?: string | undefined }>(c: Context<AppEnv>, query: Q) => {
    const { projectIds } = claimer(c, query.projectId);
    return projectIds ? { ...query, projectIds } : query;
  };
  return {
    "POST /api/dispatch/claim": async (c, { body }) =>
      claimed(c, await dispatch.claim({ ...body, ...claimer(c, body.projectId) }), 201),
    "GET /api/dispatch/next": async (c, { query }) =>
      claimed(c, await dispatch.claim({ ...query, ...claimer(c, query.projectId) }), 200),
    "GET /api/dispatch/queue": async (c, { query }) => {
      const { items, total } = await dispatch.queue(narrowed(c, query));
      return listResponse(c, items, total, query);
    },
    "GET /api/dispatch": async (c, { query }) => {
      const { dispatches, total } = await dispatch.listDispatches(query, reachOfRequest(c).within);
      return listResponse(c, dispatches, total, query);
    },
    "GET /api/dispatch/:id": async (c) => {
      const found = await dispatch.getDispatch(id(c), read(c));
      return storedResponse(c, found.dispatch, found.version);
    },
    "POST /api/dispatch/:id/heartbeat": async (c, { body }) => {
      const beat = await dispatch.heartbeat(id(c), body, read(c));
      return storedResponse(c, beat.dispatch, beat.version);
    },
    // An activity is written once and never changed.
    "POST /api/dispatch/:id/activities": async (c, { body }) =>
      itemResponse(c, await dispatch.activity(id(c), body, read(c)), { status: 201, etag: FIRST_ETAG }),
    "GET /api/dispatch/:id/activities": async (c, { query }) => {
      const { activities, total } = await dispatch.activities(id(c), query, read(c));
      return listResponse(c, activities, total, query);
    },
    "POST /api/dispatch/:id/complete": async (c, { body }) =>
      withDispatch(c, await dispatch.complete(id(c), body, read(c))),
    "POST /api/dispatch/:id/messages": async (c, { body }) =>
      itemResponse(c, await dispatch.message(id(c), body), { status: 201, etag: FIRST_ETAG }),
    "POST /api/dispatch/:id/approve": async (c, { body }) => withDispatch(c, await dispatch.approve(id(c), body)),
    "POST /api/dispatch/:id/reject": async (c, { body }) => withDispatch(c, await dispatch.reject(id(c), body)),
    "POST /api/dispatch/:id/stop": async (c, { body }) => withDispatch(c, await dispatch.stop(id(c), body)),
    "POST /api/dispatch/:id/release": async (c) => withDispatch(c, await dispatch.release(id(c), read(c))),
  };
});
