/**
 * @module tests/helpers/faults — fault injection for a Db's DynamoDB client: an SDK middleware that
 * answers chosen calls the way DynamoDB on AWS fails them, on the wire, so the SDK's own retry logic,
 * the protocol's error parsing and the client's error translation all see a real failure.
 *
 * The middleware sits innermost in the client's stack (step `deserialize`, priority `low`): inside
 * the retry middleware (each retry passes it again), after signing, and under the deserializer,
 * which parses the injected HTTP response as it would parse DynamoDB's. Nothing is mocked: calls
 * that are not failed go to DynamoDB Local through the real request handler.
 *
 * Calls are counted per operation (one `send`: a GetItem, a TransactWriteItems, …) and per wire
 * attempt (the retries of one operation). Operations that never reach the wire (refused by the
 * client's conflict emulation) are not counted.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { expect } from "vitest";
import type { Key } from "../../core/src/db/db.js";
import { idempotencyRecordKey } from "../../core/src/http/idempotency-store.js";
import { createDb, type Db } from "../../core/src/index.js";
import { issueCounterKey } from "../../core/src/issues/keys.js";
import { reviewSequenceKey, reviewSlotPartition } from "../../core/src/prompts/keys.js";
import { deliveryKey, signalSourceKey } from "../../core/src/signals/keys.js";

/** How a failed call fails, as DynamoDB on AWS (or the network under it) fails it. */
export type FaultKind =
  /** 400 `ThrottlingException` (the SDK retries it). */
  | "throttling"
  /** 400 `ProvisionedThroughputExceededException` (the SDK retries it). */
  | "provisionedThroughput"
  /** 500 `InternalServerError` (the SDK retries it). */
  | "internalError"
  /** The connection reset before the request reached DynamoDB: `ECONNRESET` (the SDK retries it). */
  | "connectionReset"
  /**
   * DynamoDB applied the call, then the connection reset before its answer arrived: `ECONNRESET`
   * after the fact (the SDK retries it, sending the same request again).
   */
  | "responseLost"
  /**
   * 400 `TransactionCanceledException` with `TransactionConflict` on the first item and `None` on the
   * rest for a TransactWriteItems, `TransactionConflictException` for a single-item write (the SDK
   * does not retry either; the service's conflict retries do). Reads are failed by throttling instead.
   */
  | "transactionConflict";

/** One wire attempt the injector saw. */
export interface WireCall {
  /** 1-based number of the operation (one `send`) since the last {@link FaultInjector.reset}. */
  operation: number;
  /** 1-based attempt of that operation (2 and 3 are the SDK's retries). */
  attempt: number;
  /** `GetItemCommand`, `TransactWriteItemsCommand`, … */
  command: string;
  /** The fault this attempt was answered with, if any. */
  fault: FaultKind | null;
}

/** Which calls a fault hits. */
export interface FaultPlan {
  kind: FaultKind;
  /** The operations (1-based, since the last reset) to fail, asked at each wire attempt; all when unset. */
  operations?: (operation: number, command: string) => boolean;
  /** Wire attempts of each chosen operation to fail, from its first; every attempt when unset. */
  attempts?: number;
  /** Stop after this many injected failures in all (across operations); unlimited when unset. */
  times?: number;
}

const AWS_ERROR_PREFIX = "com.amazonaws.dynamodb.v20120810#";
const SINGLE_WRITES = new Set(["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand"]);

/**
 * The fault injector of one client: arm it with {@link fail}, read what it saw in {@link calls}.
 * @example
 * const faults = injectFaults(db);
 * faults.fail({ kind: "throttling", operations: (n) => n === 2 });
 * await app.request("/api/issues", jsonPost({ title: "x", type: "task" })); // 503
 * faults.clear();
 */
export class FaultInjector {
  /** Every wire attempt since the last reset, in the order they were sent. */
  readonly calls: WireCall[] = [];
  private plan: FaultPlan | undefined;
  private injected = 0;
  private readonly operationOf = new WeakMap<object, { operation: number; attempts: number }>();
  private nextOperation = 1;

  /** Fails the calls `plan` chooses from now on (replacing any plan before it). */
  fail(plan: FaultPlan): this {
    this.plan = plan;
    this.injected = 0;
    return this;
  }

  /** Lets every call through again; the counts go on. */
  clear(): this {
    this.plan = undefined;
    return this;
  }

  /** Clears the plan and starts counting operations and attempts from 1 again. */
  reset(): this {
    this.clear();
    this.calls.length = 0;
    this.nextOperation = 1;
    return this;
  }

  /** Operations that reached the wire since the last reset. */
  get operations(): number {
    return this.nextOperation - 1;
  }

  /** Failures injected under the current plan. */
  get failuresInjected(): number {
    return this.injected;
  }

  /** Called by the middleware for each wire attempt: the fault to answer it with, or null to send it. */
  attemptOf(context: object, command: string): FaultKind | null {
    let seen = this.operationOf.get(context);
    if (!seen) {
      seen = { operation: this.nextOperation++, attempts: 0 };
      this.operationOf.set(context, seen);
    }
    seen.attempts += 1;
    const plan = this.plan;
    const chosen =
      plan !== undefined &&
      (plan.operations?.(seen.operation, command) ?? true) &&
      seen.attempts <= (plan.attempts ?? Number.POSITIVE_INFINITY) &&
      this.injected < (plan.times ?? Number.POSITIVE_INFINITY);
    const fault = chosen && plan ? plan.kind : null;
    if (fault) this.injected += 1;
    this.calls.push({ operation: seen.operation, attempt: seen.attempts, command, fault });
    return fault;
  }
}

/**
 * Adds a fault injector to `db`'s client (once per client; later calls return the same injector).
 * @example const faults = injectFaults(t.db);
 */
export function injectFaults(db: Db): FaultInjector {
  const existing = injectors.get(db.client);
  if (existing) return existing;
  const injector = new FaultInjector();
  injectors.set(db.client, injector);
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? "");
      const fault = injector.attemptOf(context, command);
      if (!fault) return next(args);
      if (fault === "connectionReset") throw connectionReset();
      if (fault === "responseLost") {
        await next(args);
        throw connectionReset();
      }
      return { response: awsErrorResponse(fault, command, args.input) } as Awaited<ReturnType<typeof next>>;
    },
    // Innermost: under the deserializer (which parses the answer) and inside the retry middleware.
    { step: "deserialize", priority: "low", name: "kaizenFaultInjection" },
  );
  return injector;
}

/** The faults DynamoDB answers itself (the others are the network's). */
type AwsFault = Exclude<FaultKind, "connectionReset" | "responseLost">;

const injectors = new WeakMap<DynamoDBClient, FaultInjector>();

/** What Node's socket raises when the peer resets the connection. */
function connectionReset(): Error {
  return Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", errno: -104, syscall: "read" });
}

/** The HTTP answer DynamoDB gives for `fault` (awsJson1_0: the error type in `__type`). */
function awsErrorResponse(fault: AwsFault, command: string, input: unknown) {
  const { status, body } = errorBody(fault, command, input);
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  return {
    statusCode: status,
    reason: status === 400 ? "Bad Request" : "Internal Server Error",
    headers: {
      "content-type": "application/x-amz-json-1.0",
      "content-length": String(bytes.length),
      "x-amzn-requestid": `FAULT${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
    },
    body: bytes,
  };
}

function errorBody(
  fault: AwsFault,
  command: string,
  input: unknown,
): { status: number; body: Record<string, unknown> } {
  switch (fault) {
    case "throttling":
      return {
        status: 400,
        body: {
          __type: `${AWS_ERROR_PREFIX}ThrottlingException`,
          message: "Rate of requests exceeds the allowed throughput.",
        },
      };
    case "provisionedThroughput":
      return {
        status: 400,
        body: {
          __type: `${AWS_ERROR_PREFIX}ProvisionedThroughputExceededException`,
          message:
            "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
        },
      };
    case "internalError":
      return {
        status: 500,
        body: { __type: `${AWS_ERROR_PREFIX}InternalServerError`, message: "Internal server error" },
      };
    case "transactionConflict": {
      if (command === "TransactWriteItemsCommand") {
        const count = ((input as { TransactItems?: unknown[] }).TransactItems ?? []).length;
        const codes = Array.from({ length: count }, (_, index) => (index === 0 ? "TransactionConflict" : "None"));
        return {
          status: 400,
          body: {
            __type: `${AWS_ERROR_PREFIX}TransactionCanceledException`,
            Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(", ")}]`,
            CancellationReasons: codes.map((Code) =>
              Code === "TransactionConflict" ? { Code, Message: "Transaction is ongoing for the item" } : { Code },
            ),
          },
        };
      }
      if (SINGLE_WRITES.has(command)) {
        return {
          status: 400,
          body: {
            __type: `${AWS_ERROR_PREFIX}TransactionConflictException`,
            message: "Transaction is ongoing for the item",
          },
        };
      }
      return errorBody("throttling", command, input);
    }
  }
}

/** Every item of a table, by key, read through a client of its own (no faults, no counting). */
export type TableSnapshot = Map<string, Record<string, unknown>>;

/**
 * A strongly consistent full Scan of `tableName`, keyed by `pk`/`sk`.
 * @example const before = await snapshotTable(t);
 */
export async function snapshotTable(table: { tableName: string; endpoint: string }): Promise<TableSnapshot> {
  const db = createDb({ tableName: table.tableName, region: "us-east-1", endpoint: table.endpoint });
  const doc = DynamoDBDocumentClient.from(db.client);
  const items: TableSnapshot = new Map();
  try {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await doc.send(
        new ScanCommand({ TableName: table.tableName, ExclusiveStartKey: start, ConsistentRead: true }),
      );
      for (const item of out.Items ?? []) items.set(keyOf(item as Key), item);
      start = out.LastEvaluatedKey;
    } while (start);
  } finally {
    db.client.destroy();
  }
  return items;
}

/** One item that differs between two snapshots. */
export interface ItemChange {
  key: string;
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown> | undefined;
}

/** The items added, changed or removed between `before` and `after`. */
export function tableChanges(before: TableSnapshot, after: TableSnapshot): ItemChange[] {
  const changes: ItemChange[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(key);
    const is = after.get(key);
    if (JSON.stringify(canonical(was)) !== JSON.stringify(canonical(is))) changes.push({ key, before: was, after: is });
  }
  return changes;
}

/**
 * Changes a failed request may leave behind because they are written ahead of its transaction on
 * purpose, idempotently or harmlessly: an issue number taken (docs/api.md#issues: a number is skipped when
 * a create fails after taking it), a review number taken and given up (its void slot lets later
 * reviews be folded past it), a manual signal source registered, a delivery id's reservation whose
 * request could not give it up (it lapses within seconds, and a redelivery then takes it), and an
 * Idempotency-Key claim that was released (claimable at once, so the client's retry runs).
 */
export function isAllowedLeftover(change: ItemChange): boolean {
  if (change.key === keyOf(issueCounterKey())) return true;
  if (change.key.startsWith(reviewSequenceKey("").pk)) return true;
  if (change.before === undefined && change.after?.void === true && change.key.startsWith(reviewSlotPartition(""))) {
    return true;
  }
  if (change.before === undefined && change.key.startsWith(`${signalSourceKey("").pk}\u0000`)) return true;
  // A delivery's reservation its request could not give up (the database was gone): it lapses.
  const reservation = change.after !== undefined && change.after.signalId === undefined;
  if (change.before === undefined && change.key.endsWith(`\u0000${deliveryKey("", "").sk}`) && reservation) return true;
  const record = change.after;
  if (record?.entity === "idempotency" && change.key === keyOf(idempotencyRecordKey(String(record.key)))) {
    return record.state === "in_progress" && Number(record.inProgressUntil) === 0;
  }
  return false;
}

/**
 * The changes between two snapshots that {@link isAllowedLeftover} does not allow, each as its key
 * and the start of its item's JSON before and after (payload chunks are large).
 */
export function halfWrites(
  before: TableSnapshot,
  after: TableSnapshot,
): { key: string; before: string; after: string }[] {
  const shown = (item: Record<string, unknown> | undefined) =>
    item === undefined ? "(absent)" : JSON.stringify(canonical(item)).slice(0, 300);
  return tableChanges(before, after)
    .filter((change) => !isAllowedLeftover(change))
    .map((change) => ({ key: change.key, before: shown(change.before), after: shown(change.after) }));
}

/** The failure answer of docs/api.md#status-codes for a store that fails: 503, `Retry-After`, the error envelope. */
export async function expectUnavailable(response: Response): Promise<void> {
  const body = await response.text();
  expect({ status: response.status, body }).toMatchObject({ status: 503 });
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(JSON.parse(body)).toEqual({ error: expect.any(String) });
}

/** One request to fail at each of its DynamoDB calls in turn, and how to tell it was stored once. */
export interface WriteScenario {
  /** Prepares fresh state for one run (healthy) and returns the request, sent as is every time. */
  prepare(): Promise<{
    send: () => Response | Promise<Response>;
    /** Asserts the request's change is stored exactly once, given its successful answer. */
    storedOnce: (response: Response) => Promise<void>;
  }>;
  /** The success status (201, 200, …). */
  status: number;
}

/** How each call position is failed. */
export interface PositionFault {
  /** The faults to cycle through, one per call position. */
  kinds: readonly FaultKind[];
  /**
   * Wire attempts of the chosen call to fail. Unset: all of them, so the call fails for good. Fewer
   * than the client's attempts: the SDK's retry gets through, so the request must succeed.
   */
  attempts?: number;
  /** Fail every call from the chosen one on, as a store that goes away in the middle of a request. */
  onward?: boolean;
}

/** The two ways a call fails at a position: for good (every wire attempt), or applied with its answer lost. */
export const POSITION_FAULT_MODES: { mode: string; fault: PositionFault }[] = [
  {
    mode: "a call failing for good (every wire attempt)",
    fault: { kinds: ["throttling", "connectionReset", "internalError", "provisionedThroughput"] },
  },
  {
    mode: "a call applied by DynamoDB whose answer is lost (the SDK sends it again)",
    fault: { kinds: ["responseLost"], attempts: 1 },
  },
];

/** What {@link failEachCallInTurn} saw. */
export interface CallPositionReport {
  /** DynamoDB operations the request makes when nothing fails. */
  calls: number;
  /** Per call position, the command failed, how, and the status answered. */
  positions: { position: number; command: string; kind: FaultKind; status: number }[];
}

/**
 * Fails the request's k-th DynamoDB operation (with `onward`, every one from the k-th), for k = 1,
 * 2, … until the request makes fewer than k calls (that last run is healthy and must succeed).
 *
 * With the call failing for good, the answer at each k is a 503 with `Retry-After`, the table
 * equals the table before but for {@link isAllowedLeftover}s, and the same request sent again with
 * the fault gone succeeds and is stored once; or the answer is a success because the failed call
 * came after the change was stored (storing an idempotent response), and it is stored once. With
 * the SDK's retry getting through, every k succeeds and is stored once.
 */
export async function failEachCallInTurn(
  table: { tableName: string; endpoint: string },
  faults: FaultInjector,
  scenario: WriteScenario,
  fault: PositionFault,
): Promise<CallPositionReport> {
  const positions: CallPositionReport["positions"] = [];
  for (let position = 1; position < 100; position++) {
    const run = await scenario.prepare();
    // Only a run that may answer 503 compares the table with this; when the SDK's retry gets
    // through, every run succeeds.
    const before = fault.attempts === undefined ? await snapshotTable(table) : undefined;
    const kind = fault.kinds[(position - 1) % fault.kinds.length] ?? "throttling";
    faults.reset().fail({
      kind,
      operations: (operation) => (fault.onward ? operation >= position : operation === position),
      ...(fault.attempts === undefined ? {} : { attempts: fault.attempts }),
    });
    const first = await run.send();
    const failedCall = faults.calls.find((call) => call.operation === position);
    faults.clear();
    const answer = { position, kind, command: failedCall?.command, status: first.status };
    if (!failedCall || fault.attempts !== undefined || first.status === scenario.status) {
      expect({ ...answer, body: await first.clone().text() }).toMatchObject({ status: scenario.status });
      await run.storedOnce(first);
      if (!failedCall) return { calls: position - 1, positions };
      positions.push({ position, command: failedCall.command, kind, status: first.status });
      continue;
    }
    positions.push({ position, command: failedCall.command, kind, status: first.status });
    expect(answer).toMatchObject({ status: 503 });
    await expectUnavailable(first);
    if (!before) throw new Error("a run that may answer 503 reads the table before it");
    expect({ ...answer, halfWritten: halfWrites(before, await snapshotTable(table)) }).toEqual({
      ...answer,
      halfWritten: [],
    });
    const again = await run.send();
    expect({ ...answer, retried: again.status, body: await again.clone().text() }).toMatchObject({
      retried: scenario.status,
    });
    await run.storedOnce(again);
  }
  throw new Error("the request made 100 DynamoDB calls or more");
}

function keyOf(item: Key): string {
  return `${String(item.pk)}\u0000${String(item.sk)}`;
}

/** A value with object keys sorted, so equal items compare equal as JSON. */
function canonical(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Set) return [...value].map(canonical).sort();
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
