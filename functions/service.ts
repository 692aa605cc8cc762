/** @module functions/service — Lambda for `/`, `/health` and API Gateway's `$default` route. */
import { lambdaHandler } from "../core/src/lambda.js";
import { serviceFamily } from "../core/src/service/routes.js";

export const handler = lambdaHandler({ service: serviceFamily });
