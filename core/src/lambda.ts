/**
 * @module lambda — turns one family into an AWS Lambda handler: configuration from the environment
 * and SST links is read once at init (a malformed key stops the function from starting), the
 * DynamoDB client is made once, and requests go through `hono/aws-lambda`.
 */
import { handle } from "hono/aws-lambda";
import { deployedDeps } from "./deployed.js";
import type { FamilyModules } from "./http/app.js";
import { createApp } from "./services.js";

/**
 * @example export const handler = lambdaHandler({ issues: issueFamily });
 */
export function lambdaHandler(families: FamilyModules) {
  return handle(createApp(families, deployedDeps()));
}
