/** @module dashboard/routes — the `dashboard` family (API.md 3.7): what the engine is doing, from maintained counts. */
import type { FamilyModule } from "../http/app.js";
import { itemResponse } from "../http/respond.js";
import { DashboardService } from "./service.js";

export const dashboardFamily: FamilyModule<"dashboard"> = ({ db, clock }) => {
  const dashboard = new DashboardService(db, clock);
  return {
    "GET /api/dashboard/stats": async (c) => itemResponse(c, await dashboard.stats()),
  };
};
