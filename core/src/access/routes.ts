/** @module access/routes — the `access` family's handlers (docs/security.md; routes in ./api.ts): API keys and the audit log. */
import type { Context } from "hono";
import { UnauthorizedError } from "../errors.js";
import { familyModule } from "../http/app.js";
import { BEARER_FAILURE_MESSAGE } from "../http/auth.js";
import { pageOffset } from "../http/pagination.js";
import { contentEtagOf, itemResponse, listResponse, storedResponse } from "../http/respond.js";
import { auditStore, clockOf, keyService } from "../services.js";
import { accessApi } from "./api.js";

export const accessFamily = familyModule(accessApi, (deps) => {
  const keys = keyService(deps);
  const audit = auditStore(deps);
  const now = clockOf(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "POST /api/keys": async (c, { body }) => {
      const { apiKey, version } = await keys.create(body);
      c.header("Cache-Control", "no-store");
      return storedResponse(c, apiKey, version, { status: 201, location: `/api/keys/${apiKey.id}` });
    },
    "GET /api/keys": async (c, { query }) => {
      const all = await keys.list();
      const offset = pageOffset(query);
      return listResponse(c, all.slice(offset, offset + query.limit), all.length, query);
    },
    "GET /api/keys/:id": async (c) => {
      const { apiKey, version } = await keys.get(id(c));
      return storedResponse(c, apiKey, version);
    },
    "DELETE /api/keys/:id": async (c, { expectedVersion }) => {
      const { apiKey, version } = await keys.revoke(id(c), expectedVersion);
      return storedResponse(c, apiKey, version);
    },
    "GET /api/me": async (c) => {
      const caller = c.get("caller");
      if (!caller) throw new UnauthorizedError(BEARER_FAILURE_MESSAGE);
      const { kind, id: callerId, name, scopes, projectIds } = caller;
      const me = { kind, id: callerId, name, scopes, projectIds };
      return itemResponse(c, me, { etag: contentEtagOf(me) });
    },
    "GET /api/audit": async (c, { query }) => {
      const { page: _page, limit, ...filters } = query;
      const { records, total } = await audit.list(filters, { offset: pageOffset(query), limit }, now());
      return listResponse(c, records, total, query);
    },
  };
});
