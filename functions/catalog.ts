/** @module functions/catalog — Lambda for projects, goals and labels. */
import { catalogFamily } from "../core/src/catalog/routes.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ catalog: catalogFamily });
