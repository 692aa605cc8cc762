/**
 * @module aws/wakeups — a wake-up call at a given time, through an SQS queue's delayed messages:
 * deployed, a failed delivery of an event asks to be woken when its retry is due, and the queue's
 * subscriber (functions/events.ts `retry`) sweeps the due deliveries then. SQS delays a message by
 * at most 15 minutes; a later time is carried in the message and asked for again on arrival.
 */
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";

/** The longest delay SQS gives one message. */
export const MAX_DELAY_SECONDS = 900;

/** What a wake-up message carries: when it was asked for (ISO). */
export interface WakeUp {
  at: string;
}

/** Wakes the queue's subscriber at `at` (or up to 15 minutes before, for later times: it asks again). */
export type Wake = (at: Date) => Promise<void>;

/**
 * A {@link Wake} through the queue at `queueUrl`.
 * @example const wake = sqsWake(config.eventRetryQueueUrl, config.region); await wake(new Date(Date.now() + 20_000));
 */
export function sqsWake(queueUrl: string, region: string, now: () => Date = () => new Date()): Wake {
  const client = new SQSClient({ region });
  return async (at) => {
    const seconds = Math.ceil((at.getTime() - now().getTime()) / 1000);
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify({ at: at.toISOString() } satisfies WakeUp),
        DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, seconds)),
      }),
    );
  };
}
