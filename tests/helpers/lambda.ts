/**
 * Built Lambda bundles, loaded and invoked as the Lambda runtime would, and the table's change stream
 * as Lambda hands it to the stream's subscribers.
 */
import { pathToFileURL } from "node:url";
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  Context,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  ScheduledEvent,
} from "aws-lambda";
import { inject } from "vitest";
import type { Db } from "../../core/src/db/db.js";
import { freshTable, TEST_API_KEY } from "./db.js";

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
type Result = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded: boolean };

const lambdaContext = { functionName: "test", awsRequestId: "aws-req-1" } as Context;
let loads = 0;

/**
 * Imports a function's bundle (`name`: its file in functions/) afresh with the given environment, as a
 * cold start would; its exports, as `T` says they are.
 */
export async function loadBundle<T>(name: string, env: Record<string, string | undefined>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  try {
    return (await import(`${pathToFileURL(inject("bundles")[name] ?? "").href}?load=${++loads}`)) as T;
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** Imports a family's bundle afresh with the given environment, as a cold start would: its HTTP handler. */
export async function loadHandler(family: string, env: Record<string, string | undefined>): Promise<Handler> {
  return (await loadBundle<{ handler: Handler }>(family, env)).handler;
}

/** A schedule's tick, as EventBridge Scheduler hands it to a function. */
export function scheduledTick(rule: string): ScheduledEvent {
  return {
    version: "0",
    id: `tick-${rule}`,
    "detail-type": "Scheduled Event",
    source: "aws.events",
    account: "123456789012",
    time: new Date().toISOString(),
    region: "us-east-1",
    resources: [`arn:aws:events:us-east-1:123456789012:rule/${rule}`],
    detail: {},
  };
}

/** Every record of the table's stream so far, as the DynamoDB Streams API gives them. */
export async function streamRecords(db: Db, endpoint: string): Promise<_Record[]> {
  const table = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
  const streams = new DynamoDBStreamsClient({
    region: "us-east-1",
    endpoint,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const { StreamDescription } = await streams.send(
    new DescribeStreamCommand({ StreamArn: table.Table?.LatestStreamArn }),
  );
  const records: _Record[] = [];
  for (const shard of StreamDescription?.Shards ?? []) {
    let { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: table.Table?.LatestStreamArn,
        ShardId: shard.ShardId,
        ShardIteratorType: "TRIM_HORIZON",
      }),
    );
    for (let empty = 0; ShardIterator && empty < 2; ) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
      records.push(...(page.Records ?? []));
      empty = (page.Records?.length ?? 0) === 0 ? empty + 1 : 0;
      ShardIterator = page.NextShardIterator;
    }
  }
  streams.destroy();
  return records;
}

/** The stream records as Lambda's event carries them: the same images, the time in epoch seconds. */
export function lambdaStreamEvent(records: _Record[]): DynamoDBStreamEvent {
  return {
    Records: records.map(
      (record) =>
        ({
          ...record,
          eventSource: "aws:dynamodb",
          awsRegion: "us-east-1",
          dynamodb: {
            ...record.dynamodb,
            ApproximateCreationDateTime: Math.floor(
              (record.dynamodb?.ApproximateCreationDateTime?.getTime() ?? 0) / 1000,
            ),
          },
        }) as DynamoDBRecord,
    ),
  };
}

/** Invokes a handler; the answer with its body as text and parsed (empty bodies parse to {}). */
export async function invoke(handler: Handler, event: APIGatewayProxyEventV2) {
  const result = (await handler(event, lambdaContext)) as Result;
  const text = result.isBase64Encoded ? Buffer.from(result.body, "base64").toString("utf8") : result.body;
  return { ...result, text, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** A fresh table and the environment a deployed function would run with on it (plus `extra`). */
export async function deployedEnv(extra: Record<string, string> = {}, options: { stream?: boolean } = {}) {
  const { tableName, endpoint } = await freshTable(options);
  const env = {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    SERVICE_API_KEY: TEST_API_KEY,
    AWS_REGION: "us-east-1",
    ...extra,
  };
  return { env, tableName, endpoint };
}
