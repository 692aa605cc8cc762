/**
 * @module bench/dynamo-trace — watches every DynamoDB call a client makes (through the client's
 * middleware stack, which the document client shares): its command, wall time, the capacity
 * DynamoDB reported and how many items it read, or the error it failed with. Used to break a
 * request's cost down per call and to time the database's share inside the server.
 */
import type { ConsumedCapacity, DynamoDBClient } from "@aws-sdk/client-dynamodb";

export interface TracedCall {
  command: string;
  /** Reads and writes are billed in different units; the response's `CapacityUnits` does not say which. */
  kind: "read" | "write";
  ms: number;
  /** Undefined when the response carried no ConsumedCapacity at all. */
  capacity: number | undefined;
  /** Items returned (Query: Count; BatchGet: items in Responses; Get: 0 or 1). */
  returned: number | undefined;
  /** Items the query evaluated before its filter (Query only). */
  scanned: number | undefined;
  /** Items a transaction wrote or a batch asked for. */
  requested: number | undefined;
  /** How the call failed, if it did: the error's name, and a cancelled transaction's reasons. */
  error: string | undefined;
  /**
   * The partition the call read or wrote, one per item of a transaction or batch, shortened to
   * what it is (`queuelist#all`, `issue#<id>`: the key prefix and version dropped, ids elided).
   */
  partitions: string[];
}

/** Calls of one command since tracing began, and its failures by how they failed. */
export interface CommandTotals {
  calls: number;
  failures: Record<string, number>;
}

export interface TraceTotals {
  /** Every call, including those that threw (counted and timed like the rest, as Db.usage() counts failed writes). */
  calls: number;
  ms: number;
  byCommand: Record<string, CommandTotals>;
}

const WRITE_COMMANDS = new Set(["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"]);

interface TracedKey {
  pk?: unknown;
}

interface TracedInput {
  TransactItems?: Record<string, { Item?: TracedKey; Key?: TracedKey }>[];
  RequestItems?: Record<string, { Keys?: TracedKey[] } | { PutRequest?: { Item?: TracedKey } }[]>;
  Key?: TracedKey;
  Item?: TracedKey;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export interface DynamoTrace {
  /** Calls since the last `take()` (or since tracing began), and forgets them. */
  take(): TracedCall[];
  /** Totals since tracing began, kept even when calls are not. */
  totals(): TraceTotals;
}

interface TracedOutput {
  ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
  Count?: number;
  ScannedCount?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]>;
}

/**
 * Adds the tracing middleware to `client`. With `keepCalls: false` only the totals are kept
 * (for a server under load).
 * @example const trace = traceDynamo(db.client); await app.request(url); trace.take();
 */
export function traceDynamo(client: DynamoDBClient, { keepCalls = true } = {}): DynamoTrace {
  let calls: TracedCall[] = [];
  const totals: TraceTotals = { calls: 0, ms: 0, byCommand: {} };
  const record = (call: TracedCall) => {
    const perCommand = totals.byCommand[call.command] ?? { calls: 0, failures: {} };
    totals.byCommand[call.command] = perCommand;
    totals.calls += 1;
    totals.ms += call.ms;
    perCommand.calls += 1;
    if (call.error !== undefined) perCommand.failures[call.error] = (perCommand.failures[call.error] ?? 0) + 1;
    if (keepCalls) calls.push(call);
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? "?").replace(/Command$/, "");
      const started = performance.now();
      let output: TracedOutput | undefined;
      let error: string | undefined;
      try {
        const result = await next(args);
        output = result.output as TracedOutput;
        return result;
      } catch (thrown) {
        error = failureOf(thrown);
        throw thrown;
      } finally {
        record({
          command,
          kind: WRITE_COMMANDS.has(command) ? "write" : "read",
          ms: performance.now() - started,
          capacity: capacityOf(output?.ConsumedCapacity),
          returned: output ? returnedOf(output) : undefined,
          scanned: output?.ScannedCount,
          requested: requestedOf(args.input as TracedInput),
          error,
          partitions: partitionsOf(args.input as TracedInput),
        });
      }
    },
    { step: "initialize", priority: "high", name: "benchDynamoTrace" },
  );
  return {
    take() {
      const taken = calls;
      calls = [];
      return taken;
    },
    totals: () => ({
      ...totals,
      byCommand: Object.fromEntries(
        Object.entries(totals.byCommand).map(([name, counts]) => [
          name,
          { calls: counts.calls, failures: { ...counts.failures } },
        ]),
      ),
    }),
  };
}

/**
 * `ConditionalCheckFailedException`, or for a cancelled transaction the reasons that were not
 * `None`: `TransactionCanceled: ConditionalCheckFailed` (a lost optimistic race) or
 * `TransactionCanceled: TransactionConflict` (another transaction held one of its items).
 */
function failureOf(thrown: unknown): string {
  const error = thrown as { name?: string; CancellationReasons?: { Code?: string }[] };
  const name = error?.name ?? "Error";
  if (name !== "TransactionCanceledException") return name;
  const codes = new Set((error.CancellationReasons ?? []).map((reason) => reason.Code ?? "?"));
  codes.delete("None");
  return `TransactionCanceled: ${[...codes].sort().join("+") || "?"}`;
}

function capacityOf(consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number | undefined {
  if (consumed === undefined) return undefined;
  const entries = Array.isArray(consumed) ? consumed : [consumed];
  if (entries.length === 0) return undefined;
  return entries.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
}

function returnedOf(output: TracedOutput): number | undefined {
  if (output.Count !== undefined) return output.Count;
  if (output.Responses) return Object.values(output.Responses).reduce((sum, items) => sum + items.length, 0);
  if ("Item" in output) return output.Item ? 1 : 0;
  return undefined;
}

function requestedOf(input: TracedInput): number | undefined {
  if (input.TransactItems) return input.TransactItems.length;
  if (!input.RequestItems) return undefined;
  return Object.values(input.RequestItems).reduce<number>(
    (sum, request) => sum + (Array.isArray(request) ? request.length : (request.Keys?.length ?? 0)),
    0,
  );
}

function partitionsOf(input: TracedInput): string[] {
  if (input.TransactItems) {
    return input.TransactItems.map((item) => {
      const operation = Object.values(item)[0];
      return shortPartition((operation?.Item ?? operation?.Key)?.pk);
    });
  }
  if (input.RequestItems) {
    return Object.values(input.RequestItems).flatMap((request) =>
      Array.isArray(request)
        ? request.map((write) => shortPartition(write.PutRequest?.Item?.pk))
        : (request.Keys ?? []).map((key) => shortPartition(key.pk)),
    );
  }
  const pk = (input.Key ?? input.Item)?.pk ?? input.ExpressionAttributeValues?.[":pk"];
  return pk === undefined ? [] : [shortPartition(pk)];
}

/** `$kaizen#queuelist_1#all` → `queuelist#all`, `$kaizen#issue_1#iss_01…` → `issue#<id>`; plain or marshalled. */
function shortPartition(value: unknown): string {
  const raw = typeof value === "string" ? value : (value as { S?: unknown } | undefined)?.S;
  if (typeof raw !== "string") return "?";
  return raw
    .replace(/^\$kaizen#/, "")
    .replace(/^([a-z]+)_\d+/, "$1")
    .replace(/\b[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}\b/g, "<id>");
}
