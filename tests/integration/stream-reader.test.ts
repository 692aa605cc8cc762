/**
 * The table's change stream against DynamoDB Local: ensureTable switches it on, and the local
 * stream reader (db/stream-reader.ts) hands every change over once, in order, resumes after its
 * checkpoint, and goes quiet when idle.
 */

import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { CreateTableCommand, DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { describe, expect, it, vi } from "vitest";
import { ensureTable } from "../../core/src/db/bootstrap.js";
import { type ChangeRecord, changeRecordOf } from "../../core/src/db/changes.js";
import { createDb } from "../../core/src/db/create-db.js";
import type { Db } from "../../core/src/db/db.js";
import { checkpointKey, startStreamReader } from "../../core/src/db/stream-reader.js";
import { createTableInput } from "../../core/src/db/table.js";
import { dynamodbEndpoint, freshTable } from "../helpers/db.js";
import { streamRecords } from "../helpers/stream.js";

/** A shard with nothing new is asked again this often in these tests. */
const POLL_MS = 20;

/** What a reader hands over, batch by batch. */
function collector() {
  const batches: ChangeRecord[][] = [];
  return {
    batches,
    onChanges: async (changes: ChangeRecord[]) => {
      batches.push(changes);
    },
    changes: () => batches.flat(),
  };
}

const key = (pk: string) => ({ pk, sk: "s" });
const pkOf = (change: ChangeRecord) => change.keys.pk;
const isCheckpoint = (pk: unknown) => pk === checkpointKey("any").pk;

async function checkpointWrites(db: Db): Promise<number> {
  return (await streamRecords(db, dynamodbEndpoint())).filter((record) => isCheckpoint(record.dynamodb?.Keys?.pk?.S))
    .length;
}

describe("the table's stream", () => {
  it("is on, with each change's image before and after, for a table ensureTable creates", async () => {
    const { db } = await freshTable({ stream: true });
    const { Table } = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" });
    expect(Table?.LatestStreamArn).toBeTruthy();
  });

  it("is switched on by ensureTable for a table made without one, which keeps its items", async () => {
    const db = createDb({
      tableName: `kaizen_test_${randomBytes(6).toString("hex")}`,
      region: "us-east-1",
      endpoint: dynamodbEndpoint(),
    });
    const { StreamSpecification: _, ...withoutStream } = createTableInput(db.tableName);
    await db.client.send(new CreateTableCommand(withoutStream));
    await db.put({ Item: { ...key("kept"), title: "from before" } });
    await expect(startStreamReader({ db, onChanges: async () => {} })).rejects.toThrow(/has no stream/);

    expect(await ensureTable(db)).toBe("updated");
    const { Table } = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" });
    expect(await ensureTable(db)).toBe("unchanged");
    expect(await db.get(key("kept"), { consistent: true })).toEqual({ ...key("kept"), title: "from before" });

    // Changes from then on are in the stream, with both images.
    await db.put({ Item: { ...key("kept"), title: "after" } });
    const changes = (await streamRecords(db, dynamodbEndpoint())).map(changeRecordOf);
    expect(changes.map(({ kind, oldImage, newImage }) => ({ kind, oldImage, newImage }))).toEqual([
      {
        kind: "MODIFY",
        oldImage: { ...key("kept"), title: "from before" },
        newImage: { ...key("kept"), title: "after" },
      },
    ]);
  });
});

describe("the stream reader", () => {
  it("hands over puts, updates and deletes once each, in order per item, with their images", async () => {
    const { db } = await freshTable({ stream: true });
    const seen = collector();
    const reader = await startStreamReader({ db, onChanges: seen.onChanges, pollMs: POLL_MS });
    try {
      const startedAt = Date.now();
      await db.put({ Item: { ...key("a"), n: 1 } });
      await db.put({ Item: { ...key("b"), title: "B" } });
      await db.update({ Key: key("a"), UpdateExpression: "SET n = :n", ExpressionAttributeValues: { ":n": 2 } });
      await db.transactWrite([{ Delete: { Key: key("b") } }, { Put: { Item: { ...key("c"), n: 3 } } }]);
      await reader.drained();

      const changes = seen.changes();
      const of = (pk: string) =>
        changes
          .filter((change) => pkOf(change) === pk)
          .map(({ kind, oldImage, newImage }) => ({ kind, oldImage, newImage }));
      expect(of("a")).toEqual([
        { kind: "INSERT", oldImage: undefined, newImage: { ...key("a"), n: 1 } },
        { kind: "MODIFY", oldImage: { ...key("a"), n: 1 }, newImage: { ...key("a"), n: 2 } },
      ]);
      expect(of("b")).toEqual([
        { kind: "INSERT", oldImage: undefined, newImage: { ...key("b"), title: "B" } },
        { kind: "REMOVE", oldImage: { ...key("b"), title: "B" }, newImage: undefined },
      ]);
      expect(of("c")).toEqual([{ kind: "INSERT", oldImage: undefined, newImage: { ...key("c"), n: 3 } }]);
      expect(changes).toHaveLength(5);
      expect(new Set(changes.map((change) => change.id)).size).toBe(5);
      const sequence = changes.map((change) => BigInt(change.sequenceNumber));
      expect(sequence).toEqual([...sequence].sort((x, y) => (x < y ? -1 : 1)));
      expect(new Set(sequence).size).toBe(5);
      for (const change of changes) {
        expect(change.keys).toEqual(key(String(pkOf(change))));
        // DynamoDB Local rounds the time down to the minute.
        expect(change.at).toBeGreaterThanOrEqual(startedAt - 60_000);
        expect(change.at).toBeLessThanOrEqual(Date.now());
      }

      // The same changes, converted from the raw records: the reader hands them over as they are.
      const raw = (await streamRecords(db, dynamodbEndpoint()))
        .map(changeRecordOf)
        .filter((change) => !isCheckpoint(pkOf(change)));
      expect(changes).toEqual(raw);

      // Later changes come once, and nothing handed over comes again.
      await db.delete(key("a"));
      await reader.drained();
      expect(
        seen
          .changes()
          .slice(5)
          .map((change) => [change.kind, pkOf(change)]),
      ).toEqual([["REMOVE", "a"]]);
    } finally {
      await reader.stop();
    }
  });

  it("hands over every kind of value as a read of the item gives it", async () => {
    const { db } = await freshTable({ stream: true });
    const seen = collector();
    const reader = await startStreamReader({ db, onChanges: seen.onChanges, pollMs: POLL_MS });
    try {
      const item = {
        ...key("values"),
        count: 42,
        ratio: 1.5,
        open: true,
        none: null,
        labels: new Set(["bug", "checkout"]),
        payload: new Uint8Array([0x1f, 0x8b, 0x08, 0x00]),
        recent: { sig_1: { at: "2026-01-01T00:00:00.000Z", parts: [1, "two", new Uint8Array([9])] } },
      };
      await db.put({ Item: item });
      await reader.drained();
      const [change] = seen.changes();
      expect(change?.newImage).toEqual(await db.get(key("values"), { consistent: true }));
      expect(change?.newImage).toEqual(item);
      expect(change?.newImage?.payload).toBeInstanceOf(Uint8Array);
    } finally {
      await reader.stop();
    }
  });

  it("resumes after its checkpoint: nothing handed over comes again, nothing written while stopped is lost", async () => {
    const { db } = await freshTable({ stream: true });
    const first = collector();
    const reader = await startStreamReader({ db, onChanges: first.onChanges, pollMs: POLL_MS });
    for (const pk of ["a1", "a2", "a3"]) await db.put({ Item: key(pk) });
    await reader.drained();
    await reader.stop();
    expect(first.changes().map(pkOf)).toEqual(["a1", "a2", "a3"]);

    const [checkpoint, ...others] = await db.queryPartition(checkpointKey("any").pk);
    expect(others).toEqual([]);
    const lastHanded = first.changes().at(-1)?.sequenceNumber ?? "";
    expect(BigInt(String(checkpoint?.sequenceNumber))).toBeGreaterThanOrEqual(BigInt(lastHanded));

    for (const pk of ["b1", "b2"]) await db.put({ Item: key(pk) });
    const second = collector();
    const again = await startStreamReader({ db, onChanges: second.onChanges, pollMs: POLL_MS });
    try {
      await db.put({ Item: key("b3") });
      await again.drained();
      expect(second.changes().map(pkOf)).toEqual(["b1", "b2", "b3"]);
    } finally {
      await again.stop();
    }
  });

  it("reads a shard from its oldest record when the stream no longer holds its checkpoint, and says so", async () => {
    const { db } = await freshTable({ stream: true });
    for (const pk of ["x1", "x2"]) await db.put({ Item: key(pk) });
    const first = collector();
    const reader = await startStreamReader({ db, onChanges: first.onChanges, pollMs: POLL_MS });
    await reader.drained();
    await reader.stop();
    const [checkpoint] = await db.queryPartition(checkpointKey("any").pk);
    // A sequence number this shard never had, as a checkpoint older than the stream's 24 hours would be.
    await db.put({ Item: { ...checkpoint, sequenceNumber: "0".repeat(21) } });

    const log = vi.fn();
    const second = collector();
    const again = await startStreamReader({ db, onChanges: second.onChanges, pollMs: POLL_MS, log });
    try {
      await again.drained();
      expect(second.changes().map(pkOf)).toEqual(["x1", "x2"]);
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/no longer holds the records after 0{21}.*oldest record/));
    } finally {
      await again.stop();
    }
  });

  it("never hands over its checkpoint records and goes quiet when idle", async () => {
    const { db } = await freshTable({ stream: true });
    const seen = collector();
    const reader = await startStreamReader({ db, onChanges: seen.onChanges, pollMs: POLL_MS });
    try {
      for (let round = 0; round < 3; round++) {
        await db.put({ Item: key(`r${round}a`) });
        await db.put({ Item: key(`r${round}b`) });
        // A reader that kept writing checkpoints for its own checkpoint records would never drain.
        const timeout = sleep(10_000).then(() => Promise.reject(new Error("The reader never went quiet")));
        await Promise.race([reader.drained(), timeout]);
      }
      expect(seen.changes().map(pkOf)).toEqual(["r0a", "r0b", "r1a", "r1b", "r2a", "r2b"]);

      const written = await checkpointWrites(db);
      expect(written).toBeGreaterThan(0);
      // At most one checkpoint per batch handed over: none for a batch of checkpoint records.
      expect(written).toBeLessThanOrEqual(seen.batches.length);
      const calls = db.usage().calls;
      await sleep(2_000);
      expect(await checkpointWrites(db)).toBe(written);
      expect(db.usage().calls).toBe(calls);
      expect(seen.changes().some((change) => isCheckpoint(pkOf(change)))).toBe(false);
      expect(seen.changes()).toHaveLength(6);
    } finally {
      await reader.stop();
    }
  });

  it("hands a batch over again after onChanges throws, and logs the failure", async () => {
    const { db } = await freshTable({ stream: true });
    for (const pk of ["f1", "f2", "f3"]) await db.put({ Item: key(pk) });
    const calls: ChangeRecord[][] = [];
    const log = vi.fn();
    const failure = new Error("downstream is down");
    const reader = await startStreamReader({
      db,
      pollMs: POLL_MS,
      log,
      onChanges: async (changes) => {
        calls.push(changes);
        if (calls.length === 1) throw failure;
      },
    });
    try {
      await reader.drained();
      expect(calls).toHaveLength(2);
      expect(calls[0]?.map(pkOf)).toEqual(["f1", "f2", "f3"]);
      expect(calls[1]).toEqual(calls[0]);
      expect(log).toHaveBeenCalledTimes(1);
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/^Handing over changes .* failed/), failure);

      await db.put({ Item: key("f4") });
      await reader.drained();
      expect(calls.slice(2).map((batch) => batch.map(pkOf))).toEqual([["f4"]]);
    } finally {
      await reader.stop();
    }
  });

  it("stops at once, even while polling slowly or backing off, and leaves nothing running", async () => {
    const { db } = await freshTable({ stream: true });
    const idle = await startStreamReader({ db, onChanges: async () => {}, pollMs: 60_000 });
    await db.put({ Item: key("p1") });
    await idle.drained();
    let started = performance.now();
    await idle.stop();
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect(idle.drained()).rejects.toThrow(/stopped/);

    let attempts = 0;
    const failing = await startStreamReader({
      db,
      pollMs: POLL_MS,
      log: () => {},
      onChanges: async () => {
        attempts++;
        throw new Error("always down");
      },
    });
    await db.put({ Item: key("p2") });
    await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    started = performance.now();
    await failing.stop();
    expect(performance.now() - started).toBeLessThan(1_000);
    const attemptsAtStop = attempts;
    // Nothing runs on once stopped, even with the client gone.
    db.client.destroy();
    await sleep(1_500);
    expect(attempts).toBe(attemptsAtStop);
  });
});
