/**
 * @module functions/sweeps — Lambda for scheduled sweeps: `verify` ends the quiet watches of merged
 * fixes (docs/api.md#verification); infra/sweeps.ts runs it every minute.
 */
import { sweepHandlers } from "../core/src/sweeps-lambda.js";

export const { verify } = sweepHandlers();
