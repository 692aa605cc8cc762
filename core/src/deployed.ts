/**
 * @module deployed — what every Lambda function builds once per instance: the configuration from the
 * environment and SST links (a malformed key stops the function from starting), the DynamoDB client,
 * and, only where the stage allows its own requests into private networks, the open guard.
 */
import { Resource } from "sst/resource";
import { type Config, loadConfig } from "./config.js";
import { createDb } from "./db/create-db.js";
import type { Db } from "./db/db.js";
import { OPEN_GUARD, type OutboundGuard } from "./outbound-guard.js";

/**
 * A deployed stage's requests of its own reach only public addresses (docs/security.md#outbound-requests):
 * no guard is named, so each sender keeps its own public-only default, and only the functions that
 * send carry it; `OUTBOUND_ALLOW_PRIVATE=on` names the open guard.
 * @example const { config, db, outboundGuard } = deployedDeps();
 */
export function deployedDeps(): { config: Config; db: Db; outboundGuard?: OutboundGuard } {
  const config = loadConfig({ env: process.env, linked: Resource as unknown as Record<string, unknown> });
  const db = createDb({
    tableName: config.tableName,
    region: config.region,
    endpoint: config.dynamodbEndpoint,
    emulateConflicts: config.emulateConflicts,
  });
  return { config, db, ...(config.outboundAllowPrivate ? { outboundGuard: OPEN_GUARD } : {}) };
}
