/** @module functions/dispatch — Lambda for claims, the queue, leases and dispatch outcomes. */
import { dispatchFamily } from "../core/src/dispatch/routes.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ dispatch: dispatchFamily });
