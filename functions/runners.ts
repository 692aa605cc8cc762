/** @module functions/runners — Lambda for hosted runners (docs/api.md#hosted-runners). */
import { lambdaHandler } from "../core/src/lambda.js";
import { runnerFamily } from "../core/src/runners/routes.js";

export const handler = lambdaHandler({ runners: runnerFamily });
