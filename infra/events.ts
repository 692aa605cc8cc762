/**
 * @module infra/events — outbound events (docs/api.md#outbound-events): a function subscribed to the table's change
 * stream (only the changes of the items events come from reach it), a dead-letter queue for the
 * batches it fails on after its retries, and the retry queue whose delayed messages wake the sweep
 * of due deliveries, with a schedule as a backstop. Handlers: functions/events.ts.
 */
import { LINKED } from "../core/src/config.js";
import { EVENT_SOURCE_ENTITIES } from "../core/src/events/derive.js";
import { BACKGROUND_TIMEOUT_SECONDS, backgroundFunction } from "./api.js";
import { table } from "./table.js";

/** Stream batches the function failed on after its retries, kept 14 days for a look. */
export const streamDeadLetters = new sst.aws.Queue("EventStreamDeadLetters", {
  transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
});

/** Wake-ups of the sweep when a retry is due (core/src/aws/wakeups.ts); linked as `Resource.EventRetries.url`. */
export const retryQueue = new sst.aws.Queue(LINKED.eventRetries, {
  // Lambda needs a queue's visibility timeout to be at least its subscriber's timeout (a batch's first
  // attempts, each cut at 10 s, with room to record them).
  visibilityTimeout: `${6 * BACKGROUND_TIMEOUT_SECONDS} seconds`,
});

const eventsFunction = (handler: string, alsoLinked: unknown[] = []) =>
  backgroundFunction(handler, [table, retryQueue, ...alsoLinked]);

export const streamSubscription = table.subscribe(
  "Events",
  // Linked to the dead-letter queue too: the stream's failures are sent there with the function's role.
  eventsFunction("functions/events.handler", [streamDeadLetters]),
  {
    filters: [{ dynamodb: { NewImage: { entity: { S: [...EVENT_SOURCE_ENTITIES] } } } }],
    transform: {
      eventSourceMapping: {
        startingPosition: "LATEST",
        batchSize: 100,
        maximumBatchingWindowInSeconds: 1,
        // A failing batch is split to find the record at fault, retried, then set aside.
        bisectBatchOnFunctionError: true,
        maximumRetryAttempts: 5,
        maximumRecordAgeInSeconds: 86_400,
        destinationConfig: { onFailure: { destinationArn: streamDeadLetters.arn } },
      },
    },
  },
);

export const retrySubscription = retryQueue.subscribe(eventsFunction("functions/events.retry"), {
  batch: { size: 10, window: "1 second" },
});

/** Sweeps what is due every 5 minutes whatever happened to a wake-up. */
export const sweepSchedule = new sst.aws.Cron("EventSweep", {
  schedule: "rate(5 minutes)",
  function: eventsFunction("functions/events.retry"),
});
