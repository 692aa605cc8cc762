/** @module core — public surface of the shared core package. */
export { API_KEY_PATTERN, type Config, InvalidConfigError, loadConfig } from "./config.js";
export { ensureTable, waitForDatabase } from "./db/bootstrap.js";
export { createDb } from "./db/create-db.js";
export { Db, type DbUsage } from "./db/db.js";
export { createTableInput, TABLE_DEFINITION } from "./db/table.js";
export { API_FAMILIES } from "./families.js";
export type { AppDeps, FamilyModules } from "./http/app.js";
export { generateApiKey } from "./http/auth.js";
export { allRoutes, DEFAULT_ROUTE_FAMILY, FAMILIES, type Family, ROUTE_TABLE } from "./routes.js";
export { createApp } from "./services.js";
