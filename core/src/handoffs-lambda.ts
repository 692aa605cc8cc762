/**
 * @module handoffs-lambda — the hosted runners' hand-offs' Lambda handlers (functions/handoffs.ts,
 * docs/api.md#hosted-runners): `stream` takes one batch of the table's change stream (a dispatch that
 * ended frees its runner's place, an issue that became claimable is handed on, a runner's change is
 * seen at once); `sweep`, the schedule's tick, repairs what the stream missed and fills every runner
 * up. A function of their own, apart from the outbound events: they claim dispatches, so they carry
 * the claim line and its prompt rendering, which the events function has no use for. Configuration
 * and the DynamoDB client are made once per instance, as lambda.ts does for the HTTP families.
 */
import type { DynamoDBStreamEvent, ScheduledEvent } from "aws-lambda";
import { changesOf } from "./db/changes.js";
import { deployedDeps } from "./deployed.js";
import { runnerHandoffs } from "./services.js";

export interface HandoffHandlers {
  /** One batch of the change stream. Never fails the batch: what a hand-off misses, the sweep makes up. */
  stream(event: DynamoDBStreamEvent): Promise<void>;
  /** The schedule's tick: every hosted runner's hand-offs repaired and filled up to its concurrency. */
  sweep(event: ScheduledEvent): Promise<void>;
}

/** @example export const { stream: handler, sweep } = handoffHandlers(); */
export function handoffHandlers(): HandoffHandlers {
  const handoffs = runnerHandoffs(deployedDeps());
  return {
    async stream(event) {
      await handoffs.handleChanges(changesOf(event));
    },
    async sweep() {
      await handoffs.sweep();
    },
  };
}
