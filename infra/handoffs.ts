/**
 * @module infra/handoffs — hosted runners' hand-offs (docs/api.md#hosted-runners): a function subscribed to
 * the table's change stream, filtered to the changes of issues, dispatches and runners, and the same
 * function every minute on a schedule, which repairs what the stream missed and fills runners up.
 * A reader of the stream apart from the outbound events' (infra/events.ts): the two are the
 * stream's two readers. Handlers: functions/handoffs.ts.
 */
import { HANDOFF_SOURCE_ENTITIES } from "../core/src/runners/handoff-rules.js";
import { api, backgroundFunction } from "./api.js";
import { table } from "./table.js";

/** The API linked for its URL (`kaizenUrl` in each hand-off, unless PUBLIC_BASE_URL names another). */
const handoffFunction = (handler: string) => backgroundFunction(handler, [table, api], { withEnvironment: true });

/** A change's new image for what was made or changed, its old one for a runner deleted. */
const entities = { entity: { S: [...HANDOFF_SOURCE_ENTITIES] } };

export const handoffSubscription = table.subscribe("Handoffs", handoffFunction("functions/handoffs.handler"), {
  filters: [{ dynamodb: { NewImage: entities } }, { dynamodb: { OldImage: entities } }],
  transform: {
    eventSourceMapping: {
      startingPosition: "LATEST",
      batchSize: 100,
      maximumBatchingWindowInSeconds: 1,
      // A hand-off never fails its batch (the sweep makes up for what it missed): a batch that still
      // fails (a timeout) is tried once more, then left to the sweep.
      maximumRetryAttempts: 1,
      maximumRecordAgeInSeconds: 3_600,
    },
  },
});

export const runnerSchedule = new sst.aws.Cron("RunnerSweep", {
  schedule: "rate(1 minute)",
  function: handoffFunction("functions/handoffs.sweep"),
});
