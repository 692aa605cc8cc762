/** The table's change stream as the DynamoDB Streams API gives it, and as Lambda hands it to the stream's subscribers. */
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import type { Db } from "../../core/src/db/db.js";

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
