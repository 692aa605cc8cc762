/**
 * @module db/db — the one DynamoDB client: every call goes through it so calls and consumed
 * capacity are counted, and SDK failures become the service's errors (./db-errors.ts). Built by
 * ./create-db.ts.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { ConsumedCapacity, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type {
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { UnavailableError } from "../errors.js";
import { ConditionFailedError, TransactionConflictError, translate } from "./db-errors.js";
import { addUsage, callUsage, type DbUsage } from "./db-usage.js";
import type { Item, Key } from "./item.js";
import { SHARD_WAIT_MS, ShardChoice } from "./spread.js";
import { changedKey, type SdkTransactItem, type TransactItem, withTableName } from "./transact-item.js";

export { ConditionFailedError, TransactionConflictError } from "./db-errors.js";
export type { DbUsage } from "./db-usage.js";
export type { Item, Key } from "./item.js";
export type { TransactItem } from "./transact-item.js";

/** Sends of one transaction whose conflicts all fall on spread counts, before the caller hears of it. */
const SPREAD_ATTEMPTS = 8;

/**
 * The {@link Db.metered} call the current async context runs in, if any, with the client it meters.
 * One for the process, not one per client: Node's async hooks copy every enabled store into each
 * new promise, so many clients in one process (the test and bench fleet of one-request
 * instances) would each add to the cost of every promise.
 */
const meteredWork = new AsyncLocalStorage<{ db: Db; usage: DbUsage }>();

/**
 * A write that rides with the first change a piece of work makes ({@link Db.accompany}): the audit
 * record of a request, in the same transaction as what it records (docs/security.md#audit-log).
 */
interface Companion {
  readonly db: Db;
  /** The item, made when a change first carries it, from the change's items (what it records may be known only then). */
  readonly item: (change: readonly TransactItem[]) => Item;
  /** Whether a write to `key` is a change the companion records (not bookkeeping on the way). */
  readonly isChange: (key: Key) => boolean;
  written: boolean;
  /** A change was written that could not carry it (an update that answers values cannot be a transaction's). */
  missed: boolean;
}
const companions = new AsyncLocalStorage<Companion>();

/** The most items one transaction takes. */
const TRANSACTION_LIMIT = 100;

/**
 * Table-bound data access with usage metering. Only stores under `core/src/<domain>/` use it.
 * @example const db = createDb({ tableName: "kaizen", region: "us-east-1" });
 */
export class Db {
  readonly tableName: string;
  readonly client: DynamoDBClient;
  private readonly doc: DynamoDBDocumentClient;
  private readonly totals: DbUsage = { calls: 0, readCapacity: 0, writeCapacity: 0 };

  constructor(client: DynamoDBClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
    this.doc = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }

  /** Usage since this client was made, by everything that used it (the process total). */
  usage(): DbUsage {
    return { ...this.totals };
  }

  /**
   * Runs `work` and returns, beside its result, the calls and capacity made through this client by
   * `work` and whatever it awaits — not by other work running at the same time on the process, as
   * diffing two {@link usage} readings would include. One request's cost, for its log line.
   * @example const { result, usage } = await db.metered(() => next());
   */
  async metered<T>(work: () => Promise<T>): Promise<{ result: T; usage: DbUsage }> {
    const usage: DbUsage = { calls: 0, readCapacity: 0, writeCapacity: 0 };
    const result = await meteredWork.run({ db: this, usage }, work);
    return { result, usage: { ...usage } };
  }

  /**
   * Runs `work` so that the first change it writes carries `item` in its transaction: a transaction
   * gets one more Put, a lone put, update or delete becomes a transaction of two. `written`: it was;
   * `missed`: a change was written that could not carry it (the caller writes it on its own).
   * @example const { written } = await db.accompany(auditItem, isChange, () => next());
   */
  async accompany<T>(
    item: (change: readonly TransactItem[]) => Item,
    isChange: (key: Key) => boolean,
    work: () => Promise<T>,
  ): Promise<{ result: T; written: boolean; missed: boolean }> {
    const companion: Companion = { db: this, item, isChange, written: false, missed: false };
    const result = await companions.run(companion, work);
    return { result, written: companion.written, missed: companion.missed };
  }

  /** The companion a write to `key` should carry, if any (marks it missed when it cannot: `canCarry` false). */
  private companionFor(key: Key, canCarry = true): Companion | undefined {
    const companion = companions.getStore();
    if (!companion || companion.db !== this || companion.written || !companion.isChange(key)) return undefined;
    if (!canCarry) {
      companion.missed = true;
      return undefined;
    }
    return companion;
  }

  /** A lone write as a transaction with the companion, failing as the lone write would. */
  private async carried(item: TransactItem): Promise<void> {
    try {
      await this.transactWrite([item]);
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      const existing = Array.isArray(error.existing) ? error.existing[0] : undefined;
      throw new ConditionFailedError(["ConditionalCheckFailed"], existing, error.cause);
    }
  }

  async get(key: Key, options: { consistent?: boolean; projection?: string[] } = {}): Promise<Item | undefined> {
    const input: GetCommandInput = { TableName: this.tableName, Key: key, ConsistentRead: options.consistent ?? false };
    if (options.projection) Object.assign(input, projectionOf(options.projection));
    const out = await this.send(() => this.doc.send(new GetCommand({ ...input, ReturnConsumedCapacity: "TOTAL" })));
    this.record("read", out.ConsumedCapacity);
    return out.Item;
  }

  async put(input: Omit<PutCommandInput, "TableName">): Promise<void> {
    if (this.companionFor(input.Item as Key)) {
      return this.carried({ Put: { ...input, ReturnValuesOnConditionCheckFailure: "ALL_OLD" } as TransactItem["Put"] });
    }
    const out = await this.send(() =>
      this.doc.send(
        new PutCommand({
          ...input,
          TableName: this.tableName,
          ReturnConsumedCapacity: "TOTAL",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      ),
    );
    this.record("write", out.ConsumedCapacity);
  }

  async update(input: Omit<UpdateCommandInput, "TableName">): Promise<Item | undefined> {
    const answers = input.ReturnValues !== undefined && input.ReturnValues !== "NONE";
    if (this.companionFor(input.Key as Key, !answers)) {
      const { ReturnValues: _none, ...update } = input;
      await this.carried({
        Update: { ...update, ReturnValuesOnConditionCheckFailure: "ALL_OLD" } as TransactItem["Update"],
      });
      return undefined;
    }
    const out = await this.send(() =>
      this.doc.send(
        new UpdateCommand({
          ...input,
          TableName: this.tableName,
          ReturnConsumedCapacity: "TOTAL",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      ),
    );
    this.record("write", out.ConsumedCapacity);
    return out.Attributes;
  }

  /** Deletes one item; with `condition`, only while it holds (else a {@link ConditionFailedError}). */
  async delete(
    key: Key,
    condition?: Pick<
      DeleteCommandInput,
      "ConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues"
    >,
  ): Promise<void> {
    if (this.companionFor(key)) return this.carried({ Delete: { ...condition, Key: key } as TransactItem["Delete"] });
    const out = await this.send(() =>
      this.doc.send(
        new DeleteCommand({ ...condition, TableName: this.tableName, Key: key, ReturnConsumedCapacity: "TOTAL" }),
      ),
    );
    this.record("write", out.ConsumedCapacity);
  }

  async query(input: Omit<QueryCommandInput, "TableName">): Promise<QueryCommandOutput> {
    const out = await this.send(() =>
      this.doc.send(new QueryCommand({ ...input, TableName: this.tableName, ReturnConsumedCapacity: "TOTAL" })),
    );
    this.record("read", out.ConsumedCapacity);
    return out;
  }

  /** Every item a query matches, following DynamoDB's 1 MB pages. */
  async queryAll(input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await this.query({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) });
      items.push(...(out.Items ?? []));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** Every item of one partition, strongly consistent, following DynamoDB's 1 MB pages. */
  queryPartition(pk: string): Promise<Item[]> {
    return this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": pk },
      ConsistentRead: true,
    });
  }

  /**
   * Reads up to 100 different items by key in one call (more are split), retrying unprocessed
   * keys, and returns them in the order of `keys` (missing ones are skipped). A key given more than
   * once is asked for once, as DynamoDB refuses a BatchGetItem naming a key twice, and its item is
   * answered at each place it was given.
   */
  async batchGet(keys: Key[], options: { consistent?: boolean } = {}): Promise<Item[]> {
    const found = new Map<string, Item>();
    const distinct = [...new Map(keys.map((key) => [keyString(key), key])).values()];
    for (let start = 0; start < distinct.length; start += 100) {
      let pending: Key[] = distinct.slice(start, start + 100);
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await sleep(Math.min(1000, 20 * 2 ** attempt));
        const requested = pending;
        const out = await this.send(() =>
          this.doc.send(
            new BatchGetCommand({
              RequestItems: { [this.tableName]: { Keys: requested, ConsistentRead: options.consistent ?? false } },
              ReturnConsumedCapacity: "TOTAL",
            }),
          ),
        );
        this.record("read", out.ConsumedCapacity);
        for (const item of out.Responses?.[this.tableName] ?? []) found.set(keyString(item), item);
        pending = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Key[];
        if (attempt > 8 && pending.length > 0) throw new UnavailableError("Database is throttling reads");
      }
    }
    return keys.flatMap((key) => {
      const item = found.get(keyString(key));
      return item ? [item] : [];
    });
  }

  /**
   * All-or-nothing write of up to 100 items; failed conditions raise {@link ConditionFailedError},
   * conflicts with other in-flight transactions {@link TransactionConflictError}. A cancellation
   * whose conflicts all fall on spread counts is sent again at once on other shards.
   */
  async transactWrite(given: TransactItem[]): Promise<void> {
    const changes =
      given.length < TRANSACTION_LIMIT && given.map(changedKey).some((key) => key && this.companionFor(key));
    const carrying = changes ? companions.getStore() : undefined;
    if (!carrying) return this.sendItems(given);
    const companion: TransactItem = {
      Put: { Item: carrying.item(given), ConditionExpression: "attribute_not_exists(pk)" },
    };
    try {
      await this.sendItems([...given, companion]);
    } catch (error) {
      // The caller reads a failure's reasons by the positions of its own items: the companion's
      // (always the last, always `None`) is dropped.
      if (error instanceof ConditionFailedError) {
        const existing = Array.isArray(error.existing) ? error.existing.slice(0, -1) : error.existing;
        throw new ConditionFailedError(error.reasons.slice(0, -1), existing, error.cause);
      }
      if (error instanceof TransactionConflictError) {
        throw new TransactionConflictError(error.reasons.slice(0, -1), error.cause);
      }
      throw error;
    }
    carrying.written = true;
  }

  private async sendItems(items: TransactItem[]): Promise<void> {
    const shards = new ShardChoice(items.map((item) => item.SpreadAdd?.Key ?? item.SpreadCheck?.Key));
    for (let attempt = 1; ; attempt++) {
      for (const until = Date.now() + SHARD_WAIT_MS; Date.now() < until; ) {
        const busy = shards.shardReleased();
        if (!busy) break;
        await busy;
      }
      const { keys, release } = shards.attempt();
      const concrete = items.map((item, index) => withTableName(item, this.tableName, keys[index]));
      try {
        await this.sendTransaction(concrete);
        return;
      } catch (error) {
        if (!(error instanceof TransactionConflictError)) throw error;
        if (!shards.retryAfter(error.reasons) || attempt >= SPREAD_ATTEMPTS) throw error;
      } finally {
        release();
      }
    }
  }

  private async sendTransaction(items: SdkTransactItem[]): Promise<void> {
    const out = await this.send(() =>
      this.doc.send(new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: "TOTAL" })),
    );
    this.record("write", out.ConsumedCapacity);
  }

  private record(kind: "read" | "write", consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): void {
    this.count(callUsage(kind, consumed));
  }

  /** Adds one call's usage to the process total and to the metered work it belongs to, if any. */
  private count(call: DbUsage): void {
    const metered = meteredWork.getStore();
    addUsage(this.totals, call);
    if (metered?.db === this) addUsage(metered.usage, call);
  }

  private async send<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw translate(error, () => {
        this.count({ calls: 1, readCapacity: 0, writeCapacity: 0 });
      });
    }
  }
}

function keyString(item: Item | Key): string {
  return `${String(item.pk)}\u0000${String(item.sk)}`;
}

function projectionOf(
  attributes: string[],
): Pick<GetCommandInput, "ProjectionExpression" | "ExpressionAttributeNames"> {
  const names = Object.fromEntries(attributes.map((attribute, i) => [`#p${i}`, attribute]));
  return { ProjectionExpression: Object.keys(names).join(", "), ExpressionAttributeNames: names };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
