/** @module functions/webhooks — Lambda for the three webhook receivers. */
import { receiverLambdaHandler } from "../core/src/lambda.js";
import { webhookFamily } from "../core/src/webhooks/routes.js";

export const handler = receiverLambdaHandler({ webhooks: webhookFamily });
