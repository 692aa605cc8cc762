/** @module functions/templates — Lambda for prompt templates, their versions, reviews and previews. */
import { lambdaHandler } from "../core/src/lambda.js";
import { templateFamily } from "../core/src/templates/routes.js";

export const handler = lambdaHandler({ templates: templateFamily });
