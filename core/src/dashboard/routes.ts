/** @module dashboard/routes — the `dashboard` family (docs/api.md#service-health-dashboard-and-docs): what the engine is doing, from maintained counts. */
import type { FamilyModule } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import { itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { dashboardService } from "../services.js";
import { dashboardPageQuery, usageQuery } from "./schemas.js";

export const dashboardFamily: FamilyModule<"dashboard"> = (deps) => {
  const dashboard = dashboardService(deps);
  return {
    "GET /api/dashboard/stats": async (c) => itemResponse(c, await dashboard.stats()),
    "GET /api/dashboard/activity": async (c) => {
      const query = parseWith(dashboardPageQuery(), c.req.query(), "query");
      const { chains, total } = await dashboard.activity({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, chains, total, query);
    },
    "GET /api/dashboard/prompts": async (c) => {
      const query = parseWith(dashboardPageQuery(), c.req.query(), "query");
      const { items, total } = await dashboard.prompts({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, items, total, query);
    },
    "GET /api/dashboard/usage": async (c) => {
      const query = parseWith(usageQuery(), c.req.query(), "query");
      return itemResponse(c, await dashboard.usage(query.days));
    },
  };
};
