/** @module access/routes — the `access` family's handlers (docs/security.md; routes in ./api.ts): API keys and the audit log. */
import type { Context } from "hono";
import { UnauthorizedError } from "../errors.js";
import { familyModule } from "../http/app.js";
import { BEARER_FAILURE_MESSAGE } from "../http/auth.js";
import { pageOffset } from "../http/pagination.js";
import { contentEtagOf, etagOf, itemResponse, listResponse } from "../http/respond.js";
import { auditStore, clockOf, keyService } from "../services.js";
import { accessApi } from "./api.js";
import type { StoredKey } from "./api-key-store.js";

/** A key as the API shows it, with its version as the `ETag`. */
function keyResponse(c: Context, { apiKey, version }: StoredKey): Response {
  return itemResponse(c, apiKey, { etag: etagOf(version) });
}

export const accessFamily = familyModule(accessApi, (deps) => {
  const keys = keyService(deps);
  const audit = auditStore(deps);
  const now = clockOf(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "POST /api/keys": async (c, { body }) => {
      const { apiKey, version } = await keys.create(body);
      c.header("Location", `/api/keys/${apiKey.id}`);
      c.header("Cache-Control", "no-store");
      return itemResponse(c, apiKey, { status: 201, etag: etagOf(version) });
    },
    "GET /api/keys": async (c, { query }) => {
      const all = await keys.list();
      const offset = pageOffset(query);
      return listResponse(c, all.slice(offset, offset + query.limit), all.length, query);
    },
    "GET /api/keys/:id": async (c) => keyResponse(c, await keys.get(id(c))),
    "DELETE /api/keys/:id": async (c, { expectedVersion }) => keyResponse(c, await keys.revoke(id(c), expectedVersion)),
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
