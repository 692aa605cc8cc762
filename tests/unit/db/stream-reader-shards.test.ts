/**
 * The stream reader (db/stream-reader.ts) over shards that DynamoDB Local never makes (it does not
 * roll shards over): a closed parent and its child, listed over two pages. A stand-in Streams
 * client serves them; the reader must finish the parent before it reads the child.
 */
import type { _Record, Shard } from "@aws-sdk/client-dynamodb-streams";
import { describe, expect, it, vi } from "vitest";
import type { ChangeRecord } from "../../../core/src/db/changes.js";
import type { Db, Item } from "../../../core/src/db/db.js";
import { startStreamReader } from "../../../core/src/db/stream-reader.js";

/** One shard of the stand-in stream: its listing entry, its records, and whether it is closed. */
interface FakeShard {
  shard: Shard;
  records: _Record[];
  closed: boolean;
}

const fake = vi.hoisted(() => ({
  /** The shards, in listing order; each DescribeStream page holds one. */
  shards: [] as FakeShard[],
  /** Every GetRecords, in order: the shard and whether the answer ended the shard. */
  reads: [] as { shardId: string; ended: boolean }[],
}));

vi.mock("@aws-sdk/client-dynamodb-streams", async (importOriginal) => {
  const sdk = await importOriginal<typeof import("@aws-sdk/client-dynamodb-streams")>();
  /** Serves `fake.shards`: one shard per DescribeStream page, one record per GetRecords. */
  class FakeStreamsClient {
    async send(command: { input: Record<string, string | undefined> }) {
      const { input } = command;
      if (command instanceof sdk.DescribeStreamCommand) {
        const start = input.ExclusiveStartShardId;
        const index = start ? fake.shards.findIndex((entry) => entry.shard.ShardId === start) + 1 : 0;
        const next = fake.shards[index + 1];
        return {
          StreamDescription: {
            Shards: fake.shards.slice(index, index + 1).map((entry) => entry.shard),
            LastEvaluatedShardId: next ? fake.shards[index]?.shard.ShardId : undefined,
          },
        };
      }
      if (command instanceof sdk.GetShardIteratorCommand) {
        const entry = shardOf(input.ShardId);
        const position =
          input.ShardIteratorType === "AFTER_SEQUENCE_NUMBER"
            ? entry.records.findIndex((record) => record.dynamodb?.SequenceNumber === input.SequenceNumber) + 1
            : 0;
        return { ShardIterator: `${input.ShardId}@${position}` };
      }
      if (command instanceof sdk.GetRecordsCommand) {
        const [shardId = "", at = "0"] = String(input.ShardIterator).split("@");
        const entry = shardOf(shardId);
        const position = Number(at);
        const records = entry.records.slice(position, position + 1);
        const ended = entry.closed && position + records.length >= entry.records.length;
        fake.reads.push({ shardId, ended });
        return { Records: records, NextShardIterator: ended ? undefined : `${shardId}@${position + records.length}` };
      }
      throw new Error(`Unexpected command ${command.constructor.name}`);
    }
    destroy() {}
  }
  function shardOf(shardId: string | undefined): FakeShard {
    const entry = fake.shards.find((candidate) => candidate.shard.ShardId === shardId);
    if (!entry) throw Object.assign(new Error("Shard does not exist"), { name: "ResourceNotFoundException" });
    return entry;
  }
  return { ...sdk, DynamoDBStreamsClient: FakeStreamsClient };
});

function record(sequenceNumber: number, pk: string): _Record {
  return {
    eventID: `event-${sequenceNumber}`,
    eventName: "INSERT",
    dynamodb: {
      ApproximateCreationDateTime: new Date("2026-01-01T00:00:00.000Z"),
      Keys: { pk: { S: pk }, sk: { S: "s" } },
      NewImage: { pk: { S: pk }, sk: { S: "s" } },
      SequenceNumber: String(sequenceNumber).padStart(21, "0"),
    },
  };
}

/** A Db with a streamed table and checkpoints kept in a map. */
function fakeDb(): { db: Db; checkpoints: Map<string, Item> } {
  const checkpoints = new Map<string, Item>();
  const db = {
    tableName: "kaizen",
    client: {
      config: {
        region: async () => "us-east-1",
        credentials: async () => ({ accessKeyId: "a", secretAccessKey: "b" }),
      },
      send: async () => ({ Table: { StreamSpecification: { StreamEnabled: true }, LatestStreamArn: "arn:stream" } }),
    },
    get: async (key: { sk: string }) => checkpoints.get(key.sk),
    put: async ({ Item }: { Item: Item }) => {
      checkpoints.set(String(Item.sk), Item);
    },
  };
  return { db: db as unknown as Db, checkpoints };
}

describe("the stream reader over split shards", () => {
  it("reads a closed parent to its end before its child, even when the child is listed first", async () => {
    fake.reads.length = 0;
    fake.shards = [
      {
        shard: { ShardId: "child", ParentShardId: "parent" },
        records: [record(3, "c1"), record(4, "c2")],
        closed: false,
      },
      { shard: { ShardId: "parent" }, records: [record(1, "p1"), record(2, "p2")], closed: true },
    ];
    const { db, checkpoints } = fakeDb();
    const handed: ChangeRecord[][] = [];
    const reader = await startStreamReader({
      db,
      pollMs: 10,
      onChanges: async (changes) => {
        handed.push(changes);
      },
    });
    try {
      await reader.drained();
      expect(handed.map((batch) => batch.map((change) => change.keys.pk))).toEqual([["p1"], ["p2"], ["c1"], ["c2"]]);
      const parentEnded = fake.reads.findIndex((read) => read.shardId === "parent" && read.ended);
      const childFirst = fake.reads.findIndex((read) => read.shardId === "child");
      expect(parentEnded).toBeGreaterThanOrEqual(0);
      expect(childFirst).toBeGreaterThan(parentEnded);
      expect(checkpoints.get("checkpoint#parent")?.sequenceNumber).toBe(record(2, "p2").dynamodb?.SequenceNumber);
      expect(checkpoints.get("checkpoint#child")?.sequenceNumber).toBe(record(4, "c2").dynamodb?.SequenceNumber);
    } finally {
      await reader.stop();
    }
  });

  it("reads a child at once when its parent is no longer listed, and a finished parent again only to its end", async () => {
    fake.reads.length = 0;
    fake.shards = [
      { shard: { ShardId: "parent" }, records: [record(1, "p1")], closed: true },
      { shard: { ShardId: "orphan", ParentShardId: "trimmed" }, records: [record(5, "o1")], closed: false },
    ];
    const { db, checkpoints } = fakeDb();
    checkpoints.set("checkpoint#parent", { sequenceNumber: record(1, "p1").dynamodb?.SequenceNumber });
    const handed: string[] = [];
    const reader = await startStreamReader({
      db,
      pollMs: 10,
      onChanges: async (changes) => {
        handed.push(...changes.map((change) => String(change.keys.pk)));
      },
    });
    try {
      await reader.drained();
      expect(handed).toEqual(["o1"]);
    } finally {
      await reader.stop();
    }
  });
});
