/**
 * @module functions/sweeps — Lambda for scheduled sweeps: `verify` ends the quiet watches of merged
 * fixes (docs/api.md#verification), `runners` keeps hosted runners' hand-offs going (docs/api.md#hosted-runners);
 * infra/sweeps.ts runs both every minute.
 */
import { sweepHandlers } from "../core/src/sweeps-lambda.js";

export const { verify, runners } = sweepHandlers();
