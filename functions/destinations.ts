/** @module functions/destinations — Lambda for event destinations and their deliveries (docs/api.md#outbound-events). */
import { destinationFamily } from "../core/src/events/routes.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ destinations: destinationFamily });
