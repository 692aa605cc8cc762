/** @module functions/dashboard — Lambda for the dashboard's figures. */
import { dashboardFamily } from "../core/src/dashboard/routes.js";
import { lambdaHandler } from "../core/src/lambda.js";

export const handler = lambdaHandler({ dashboard: dashboardFamily });
