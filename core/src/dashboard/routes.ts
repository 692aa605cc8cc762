/** @module dashboard/routes — the `dashboard` family's handlers (docs/api.md#service-health-dashboard-and-docs; routes in ./api.ts): what the engine is doing, from maintained counts. */
import { familyModule } from "../http/app.js";
import { pageOffset } from "../http/pagination.js";
import { contentEtagOf, itemResponse, listResponse } from "../http/respond.js";
import { agentsReport, clockOf, dashboardService, usageStats } from "../services.js";
import { dashboardApi } from "./api.js";

export const dashboardFamily = familyModule(dashboardApi, (deps) => {
  const dashboard = dashboardService(deps);
  const usage = usageStats(deps);
  const clock = clockOf(deps);
  const agents = agentsReport(deps);
  return {
    // The dashboard's figures are computed for each request: their ETag is a weak one of their content.
    "GET /api/dashboard/stats": async (c) => {
      const stats = await dashboard.stats();
      return itemResponse(c, stats, { etag: contentEtagOf(stats) });
    },
    "GET /api/dashboard/activity": async (c, { query }) => {
      const { chains, total } = await dashboard.activity({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, chains, total, query);
    },
    "GET /api/dashboard/prompts": async (c, { query }) => {
      const { items, total } = await dashboard.prompts({ offset: pageOffset(query), limit: query.limit });
      return listResponse(c, items, total, query);
    },
    "GET /api/dashboard/agents": async (c, { query }) => {
      const { items, total } = await agents.page(query.days, { offset: pageOffset(query), limit: query.limit });
      return listResponse(c, items, total, query);
    },
    "GET /api/dashboard/usage": async (c, { query }) => {
      const report = await usage.lastDays(query.days, clock());
      return itemResponse(c, report, { etag: contentEtagOf(report) });
    },
  };
});
