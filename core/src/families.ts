/**
 * @module families — every family's module whose handlers core holds, for the local server and the
 * tests that mount them all, and every family's declarations, for what is derived from them. The `mcp`
 * family is declared here (./mcp/api.ts) and served by the MCP server's module
 * (client/mcp/remote.ts; client/mcp/all-families.ts adds it to these), since core does not import the
 * client its tools are built on.
 */
import { accessFamily } from "./access/routes.js";
import { catalogFamily } from "./catalog/routes.js";
import { dashboardFamily } from "./dashboard/routes.js";
import { dispatchFamily } from "./dispatch/routes.js";
import { destinationFamily } from "./events/routes.js";
import type { FamilyModules } from "./http/app.js";
import { issueFamily } from "./issues/routes.js";
import { mcpApi } from "./mcp/api.js";
import type { Declarations } from "./openapi/declare.js";
import { promptFamily } from "./prompts/routes.js";
import type { Family } from "./routes.js";
import { runnerFamily } from "./runners/routes.js";
import { serviceFamily } from "./service/routes.js";
import { signalFamily } from "./signals/routes.js";
import { templateFamily } from "./templates/routes.js";
import { webhookFamily } from "./webhooks/routes.js";

/** Every family but `mcp`, in the order the route table and the OpenAPI document list them. */
export const API_FAMILIES = {
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
} satisfies Required<Omit<FamilyModules, "mcp">>;

/**
 * Every family's route declarations, from which `npm run openapi` derives the route table, the
 * OpenAPI document and the typed client (docs/contributing.md#adding-a-route).
 */
export const ALL_DECLARATIONS = {
  ...Object.fromEntries(
    (Object.keys(API_FAMILIES) as (keyof typeof API_FAMILIES)[]).map((family): [Family, Declarations] => [
      family,
      API_FAMILIES[family].routes,
    ]),
  ),
  mcp: mcpApi,
} as unknown as Readonly<Record<Family, Declarations>>;
