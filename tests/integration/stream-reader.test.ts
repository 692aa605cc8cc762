/** The table's change stream against DynamoDB Local: ensureTable switches it on, with both images. */

import { randomBytes } from "node:crypto";
import { CreateTableCommand, DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import { describe, expect, inject, it } from "vitest";
import { ensureTable } from "../../core/src/db/bootstrap.js";
import { changeRecordOf } from "../../core/src/db/changes.js";
import { createDb, type Db } from "../../core/src/db/client.js";
import { createTableInput } from "../../core/src/db/table.js";
import { freshTable } from "../helpers/db.js";

const key = (pk: string) => ({ pk, sk: "s" });

/** Every record the table's stream holds, read straight from the Streams API. */
async function rawRecords(db: Db): Promise<_Record[]> {
  const streams = new DynamoDBStreamsClient({
    endpoint: inject("dynamodbEndpoint"),
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    const table = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
    const StreamArn = table.Table?.LatestStreamArn;
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
    const records: _Record[] = [];
    for (const { ShardId } of StreamDescription?.Shards ?? []) {
      const opened = await streams.send(
        new GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: "TRIM_HORIZON" }),
      );
      for (let iterator = opened.ShardIterator; iterator; ) {
        const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        if (!out.Records?.length) break;
        records.push(...out.Records);
        iterator = out.NextShardIterator;
      }
    }
    return records;
  } finally {
    streams.destroy();
  }
}

describe("the table's stream", () => {
  it("is on, with each change's image before and after, for a table ensureTable creates", async () => {
    const { db } = await freshTable();
    const { Table } = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" });
    expect(Table?.LatestStreamArn).toBeTruthy();
  });

  it("is switched on by ensureTable for a table made without one, which keeps its items", async () => {
    const db = createDb({
      tableName: `kaizen_test_${randomBytes(6).toString("hex")}`,
      region: "us-east-1",
      endpoint: inject("dynamodbEndpoint"),
    });
    const { StreamSpecification: _, ...withoutStream } = createTableInput(db.tableName);
    await db.client.send(new CreateTableCommand(withoutStream));
    await db.put({ Item: { ...key("kept"), title: "from before" } });

    expect(await ensureTable(db)).toBe("updated");
    const { Table } = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" });
    expect(await ensureTable(db)).toBe("unchanged");
    expect(await db.get(key("kept"), { consistent: true })).toEqual({ ...key("kept"), title: "from before" });

    // Changes from then on are in the stream, with both images.
    await db.put({ Item: { ...key("kept"), title: "after" } });
    const changes = (await rawRecords(db)).map(changeRecordOf);
    expect(changes.map(({ kind, oldImage, newImage }) => ({ kind, oldImage, newImage }))).toEqual([
      {
        kind: "MODIFY",
        oldImage: { ...key("kept"), title: "from before" },
        newImage: { ...key("kept"), title: "after" },
      },
    ]);
  });
});
