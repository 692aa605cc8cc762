/** @module families — every family's module, for the local server that mounts them all. */
import type { FamilyModules } from "./http/app.js";
import { issueFamily } from "./issues/routes.js";
import { serviceFamily } from "./service/routes.js";

export const ALL_FAMILIES = {
  service: serviceFamily,
  issues: issueFamily,
} satisfies Required<FamilyModules>;
