/**
 * @module functions/sweeps — Lambda for the scheduled sweep: `verify` ends the quiet watches of merged
 * fixes (docs/api.md#verification); infra/sweeps.ts runs it every minute. Hosted runners' sweep runs
 * with their hand-offs (functions/handoffs.ts).
 */
import { sweepHandlers } from "../core/src/sweeps-lambda.js";

export const { verify } = sweepHandlers();
