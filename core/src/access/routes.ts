/** @module access/routes — the `access` family's handlers (docs/security.md; routes in ./api.ts): API keys. */
import type { Context } from "hono";
import { familyModule } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import { itemResponse, listResponse } from "../http/respond.js";
import { keyService } from "../services.js";
import { accessApi } from "./api.js";

export const accessFamily = familyModule(accessApi, (deps) => {
  const keys = keyService(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "POST /api/keys": async (c, { body }) => {
      const made = await keys.create(body);
      c.header("Location", `/api/keys/${made.id}`);
      c.header("Cache-Control", "no-store");
      return itemResponse(c, made, { status: 201 });
    },
    "GET /api/keys": async (c, { query }) => {
      const all = await keys.list();
      const offset = pageOffset(query);
      return listResponse(c, all.slice(offset, offset + query.limit), all.length, query);
    },
    "GET /api/keys/:id": async (c) => itemResponse(c, await keys.get(id(c))),
    "DELETE /api/keys/:id": async (c) => itemResponse(c, await keys.revoke(id(c))),
  };
});
