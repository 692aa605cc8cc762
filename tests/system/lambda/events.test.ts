/**
 * The built events bundle (functions/events.ts), invoked as Lambda would: a batch of the table's
 * change stream in the shape Lambda hands it over (read from DynamoDB Local's stream), handed over
 * twice; and the retry queue's wake-up, an SQS event.
 */

import type { Context, DynamoDBStreamEvent, SQSEvent } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { changeRecordOf } from "../../../core/src/db/changes.js";
import { createDb } from "../../../core/src/db/create-db.js";
import { DestinationStore } from "../../../core/src/events/destination-store.js";
import { EventDeliveries } from "../../../core/src/events/event-deliveries.js";
import { EventDeliveryStore } from "../../../core/src/events/event-delivery-store.js";
import { OPEN_GUARD } from "../../../core/src/outbound-guard.js";
import { destinationService, issueService } from "../../../core/src/services.js";
import { deployedEnv, loadBundle } from "../../helpers/lambda.js";
import { type Receiver, type Script, startReceiver } from "../../helpers/receiver.js";
import { lambdaStreamEvent, streamRecords } from "../../helpers/stream.js";

interface EventsBundle {
  handler(event: DynamoDBStreamEvent, context: Context): Promise<void>;
  retry(event: SQSEvent, context: Context): Promise<void>;
}

const context = { functionName: "events", awsRequestId: "aws-req-1" } as Context;
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

/** Imports the events bundle afresh with `env`, as a cold start would. */
const loadEvents = (env: Record<string, string>) => loadBundle<EventsBundle>("events", env);

/**
 * A table with a stream, and a destination at a receiver on this machine: a deployed stage refuses
 * loopback unless `OUTBOUND_ALLOW_PRIVATE` says its destinations live inside the network, as these do.
 */
async function setUp(script?: Script, allowPrivate = true) {
  const { env, endpoint } = await deployedEnv(allowPrivate ? { OUTBOUND_ALLOW_PRIVATE: "on" } : {}, { stream: true });
  const db = createDb({ tableName: env.TABLE_NAME, region: "us-east-1", endpoint });
  const receiver = await startReceiver(script);
  receivers.push(receiver);
  const { destination } = await destinationService({ db, outboundGuard: OPEN_GUARD }).create({
    url: receiver.url,
    events: ["issue.created"],
  });
  return { env, endpoint, db, receiver, destination };
}

describe("the events function", () => {
  it("sends a batch of the stream's changes, once however many times Lambda hands it over", async () => {
    const { env, endpoint, db, receiver } = await setUp();
    const created = await issueService({ db }).createIssue({ title: "Seen by the stream", type: "task" });
    const event = lambdaStreamEvent(await streamRecords(db, endpoint));
    expect(event.Records.some((record) => record.eventName === "INSERT")).toBe(true);
    const bundle = await loadEvents(env);
    await bundle.handler(event, context);
    await bundle.handler(event, context);
    // Another instance, as a retried batch may land on.
    await (await loadEvents(env)).handler(event, context);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.event).toMatchObject({
      type: "issue.created",
      data: { issue: { id: created.issue.id } },
    });
  });

  it("sends nothing to an address inside the network by default: the attempt fails as a blocked address", async () => {
    const { env, endpoint, db, receiver, destination } = await setUp(undefined, false);
    await issueService({ db }).createIssue({ title: "Kept inside", type: "task" });
    await (await loadEvents(env)).handler(lambdaStreamEvent(await streamRecords(db, endpoint)), context);
    expect(receiver.received).toHaveLength(0);
    const { deliveries } = await new EventDeliveryStore(db).page(destination.id, 0, 10);
    expect(deliveries.map((delivery) => delivery.attempts.map((attempt) => attempt.error))).toEqual([
      ["blocked address"],
    ]);
  });

  it("reads Lambda's records as the local reader reads the stream's", async () => {
    const { endpoint, db } = await setUp();
    await issueService({ db }).createIssue({ title: "Twice read", type: "task" });
    const records = await streamRecords(db, endpoint);
    const fromLambda = lambdaStreamEvent(records).Records.map((record) => changeRecordOf(record));
    const fromStream = records.map((record) => changeRecordOf(record));
    expect(fromLambda.map(({ at, ...rest }) => rest)).toEqual(fromStream.map(({ at, ...rest }) => rest));
    for (const [i, change] of fromLambda.entries()) {
      expect(Math.abs(change.at - (fromStream[i]?.at ?? 0))).toBeLessThan(1_000);
    }
  });

  it("sweeps the deliveries that are due when the retry queue wakes it", async () => {
    const { env, endpoint, db, receiver } = await setUp((n) => (n === 0 ? 500 : 204));
    await issueService({ db }).createIssue({ title: "Retried", type: "task" });
    // The first attempt, made a minute ago: its retry is due now.
    const earlier = new EventDeliveries(new DestinationStore(db), new EventDeliveryStore(db), {
      now: () => new Date(Date.now() - 60_000),
      guard: OPEN_GUARD,
    });
    await earlier.handleChanges((await streamRecords(db, endpoint)).map((record) => changeRecordOf(record)));
    expect(receiver.received).toHaveLength(1);
    const wake: SQSEvent = {
      Records: [
        {
          messageId: "m-1",
          receiptHandle: "r-1",
          body: JSON.stringify({ at: new Date().toISOString() }),
          attributes: {} as SQSEvent["Records"][number]["attributes"],
          messageAttributes: {},
          md5OfBody: "",
          eventSource: "aws:sqs",
          eventSourceARN: "arn:aws:sqs:us-east-1:1:EventRetries",
          awsRegion: "us-east-1",
        },
      ],
    };
    await (await loadEvents(env)).retry(wake, context);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.event.id).toBe(receiver.received[0]?.event.id);
  });
});
