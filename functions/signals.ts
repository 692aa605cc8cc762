/** @module functions/signals — Lambda for manual signals and the signal reads. */
import { lambdaHandler } from "../core/src/lambda.js";
import { signalFamily } from "../core/src/signals/routes.js";

export const handler = lambdaHandler({ signals: signalFamily });
