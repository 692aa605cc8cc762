/** @module functions/prompts — Lambda for rendered prompts and the reviews agents give them. */
import { lambdaHandler } from "../core/src/lambda.js";
import { promptFamily } from "../core/src/prompts/routes.js";

export const handler = lambdaHandler({ prompts: promptFamily });
