/**
 * @module deployed — what every Lambda function builds once per instance: the configuration from the
 * environment and SST links (a malformed key stops the function from starting) and the DynamoDB client.
 */
import { Resource } from "sst/resource";
import { type Config, loadConfig } from "./config.js";
import { createDb } from "./db/create-db.js";
import type { Db } from "./db/db.js";

/** @example const { config, db } = deployedDeps(); */
export function deployedDeps(): { config: Config; db: Db } {
  const config = loadConfig({ env: process.env, linked: Resource as unknown as Record<string, unknown> });
  const db = createDb({
    tableName: config.tableName,
    region: config.region,
    endpoint: config.dynamodbEndpoint,
    emulateConflicts: config.emulateConflicts,
  });
  return { config, db };
}
