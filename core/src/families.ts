/** @module families — every family's module, for the local server that mounts them all and for what is derived from their declarations. */
import { accessFamily } from "./access/routes.js";
import { catalogFamily } from "./catalog/routes.js";
import { dashboardFamily } from "./dashboard/routes.js";
import { dispatchFamily } from "./dispatch/routes.js";
import { destinationFamily } from "./events/routes.js";
import type { FamilyModules } from "./http/app.js";
import { issueFamily } from "./issues/routes.js";
import type { Declarations } from "./openapi/declare.js";
import { promptFamily } from "./prompts/routes.js";
import type { Family } from "./routes.js";
import { runnerFamily } from "./runners/routes.js";
import { serviceFamily } from "./service/routes.js";
import { signalFamily } from "./signals/routes.js";
import { templateFamily } from "./templates/routes.js";
import { webhookFamily } from "./webhooks/routes.js";

/** In the order the route table and the OpenAPI document list them. */
export const ALL_FAMILIES = {
  service: serviceFamily,
  issues: issueFamily,
  catalog: catalogFamily,
  webhooks: webhookFamily,
  signals: signalFamily,
  templates: templateFamily,
  prompts: promptFamily,
  dispatch: dispatchFamily,
  destinations: destinationFamily,
  runners: runnerFamily,
  dashboard: dashboardFamily,
  access: accessFamily,
} satisfies Required<FamilyModules>;

/**
 * Every family's route declarations, from which `npm run openapi` derives the route table, the
 * OpenAPI document and the typed client (docs/contributing.md#adding-a-route).
 */
export const ALL_DECLARATIONS = Object.fromEntries(
  (Object.keys(ALL_FAMILIES) as Family[]).map((family): [Family, Declarations] => [
    family,
    ALL_FAMILIES[family].routes,
  ]),
) as Readonly<Record<Family, Declarations>>;
