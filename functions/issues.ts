/** @module functions/issues — Lambda for the `issues` family. */
import { issueFamily } from "../core/src/issues/routes.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ issues: issueFamily });
