/** @module families — every family's module, for the local server that mounts them all. */
import { catalogFamily } from "./catalog/routes.js";
import { dashboardFamily } from "./dashboard/routes.js";
import { dispatchFamily } from "./dispatch/routes.js";
import { destinationFamily } from "./events/routes.js";
import type { FamilyModules } from "./http/app.js";
import { issueFamily } from "./issues/routes.js";
import { promptFamily } from "./prompts/routes.js";
import { serviceFamily } from "./service/routes.js";
import { signalFamily } from "./signals/routes.js";
import { templateFamily } from "./templates/routes.js";
import { webhookFamily } from "./webhooks/routes.js";

export const ALL_FAMILIES = {
  service: serviceFamily,
  issues: issueFamily,
  catalog: catalogFamily,
  webhooks: webhookFamily,
  signals: signalFamily,
  templates: templateFamily,
  prompts: promptFamily,
  dispatch: dispatchFamily,
  dashboard: dashboardFamily,
  destinations: destinationFamily,
} satisfies Required<FamilyModules>;
