/**
 * @module lambda — turns one family into an AWS Lambda handler: configuration from the environment
 * and SST links is read once at init (a malformed key stops the function from starting), the
 * DynamoDB client is made once, and requests go through `hono/aws-lambda`.
 */
import { handle } from "hono/aws-lambda";
import { deployedDeps } from "./deployed.js";
import type { FamilyModules } from "./http/app.js";
import { createApp, createReceiverApp } from "./services.js";

/**
 * @example export const handler = lambdaHandler({ issues: issueFamily });
 */
export function lambdaHandler(families: FamilyModules) {
  return handle(createApp(families, deployedDeps()));
}

/**
 * The webhook receivers' handler: their app has no API route, so their function carries none of
 * the API's caller checks (core/src/http/caller-checks.ts).
 * @example export const handler = receiverLambdaHandler({ webhooks: webhookFamily });
 */
export function receiverLambdaHandler(families: Pick<FamilyModules, "webhooks">) {
  return handle(createReceiverApp(families, deployedDeps()));
}
