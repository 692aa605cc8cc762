/**
 * @module events-lambda — the outbound events' Lambda handlers (functions/events.ts): one batch of
 * the table's change stream at a time, and the sweeps of due retries that the retry queue's delayed
 * messages and a schedule ask for. Hosted runners' hand-offs read the same stream in a function of
 * their own (handoffs-lambda.ts). Configuration and the DynamoDB client are made once per instance,
 * as lambda.ts does for the HTTP families.
 */
import type { DynamoDBStreamEvent, ScheduledEvent, SQSEvent } from "aws-lambda";
import { sqsWake, type WakeUp } from "./aws/wakeups.js";
import { changesOf } from "./db/changes.js";
import { deployedDeps } from "./deployed.js";
import { eventDeliveries } from "./services.js";

/** A sweep stops taking more event deliveries after this long, well inside the function's timeout. */
const SWEEP_BUDGET_MS = 40_000;

export interface EventHandlers {
  /**
   * One batch of the change stream. A failure fails the batch, which Lambda hands over again (a
   * event delivery is written once whatever the number of times), and to the dead-letter queue in the end.
   */
  stream(event: DynamoDBStreamEvent): Promise<void>;
  /** A wake-up of the retry queue, or the schedule's: sweeps what is due; a wake-up for later asks again. */
  retry(event: SQSEvent | ScheduledEvent): Promise<void>;
}

/** @example export const { stream: handler, retry } = eventHandlers(); */
export function eventHandlers(): EventHandlers {
  const { config, db, outboundGuard } = deployedDeps();
  const wake = config.eventRetryQueueUrl ? sqsWake(config.eventRetryQueueUrl, config.region) : undefined;
  const deliveries = eventDeliveries({ db, outboundGuard, ...(wake ? { wake } : {}) });
  return {
    async stream(event) {
      await deliveries.handleChanges(changesOf(event));
    },
    async retry(event) {
      const started = Date.now();
      const later = ("Records" in event ? event.Records : [])
        .map((message) => Date.parse((JSON.parse(message.body) as WakeUp).at))
        .filter((at) => at > started + 1_000);
      for (const at of later) await wake?.(new Date(at));
      while ((await deliveries.sweep()) > 0 && Date.now() - started < SWEEP_BUDGET_MS);
    },
  };
}
