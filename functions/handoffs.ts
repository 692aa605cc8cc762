/**
 * @module functions/handoffs — Lambda for hosted runners' hand-offs (docs/api.md#hosted-runners): `handler`
 * takes the table's change stream (infra/handoffs.ts subscribes it, filtered to issues, dispatches and
 * runners), `sweep` the schedule's tick every minute.
 */
import { handoffHandlers } from "../core/src/handoffs-lambda.js";

export const { stream: handler, sweep } = handoffHandlers();
