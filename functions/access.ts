/** @module functions/access — Lambda for API keys (docs/security.md). */
import { accessFamily } from "../core/src/access/routes.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ access: accessFamily });
