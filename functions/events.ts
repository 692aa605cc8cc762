/**
 * @module functions/events — Lambda for outbound events (docs/api.md#outbound-events): `handler` takes the table's
 * change stream (infra/events.ts subscribes it), `retry` the retry queue's wake-ups and the sweep schedule.
 */
import { eventHandlers } from "../core/src/events-lambda.js";

export const { stream: handler, retry } = eventHandlers();
