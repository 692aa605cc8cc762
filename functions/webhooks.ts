/** @module functions/webhooks — Lambda for the three webhook receivers. */
import { lambdaHandler } from "../core/src/lambda.js";
import { webhookFamily } from "../core/src/webhooks/routes.js";

export const handler = lambdaHandler({ webhooks: webhookFamily });
