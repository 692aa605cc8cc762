/**
 * @module bench/dynamo-trace — watches every DynamoDB call a client makes (through its middleware
 * stack, which the document client shares): command, wall time, the capacity reported, items read or
 * written, and how it failed. It breaks a request's cost down per call and times the database's
 * share inside the server.
 */
import type { ConsumedCapacity, DynamoDBClient } from "@aws-sdk/client-dynamodb";

export interface TracedCall {
  command: string;
  /** Reads and writes are billed in different units; the response's `CapacityUnits` does not say which. */
  kind: "read" | "write";
  ms: number;
  /** Undefined when the response carried no ConsumedCapacity. */
  capacity: number | undefined;
  /** Items returned (Query: Count; BatchGet: items in Responses; Get: 0 or 1). */
  returned: number | undefined;
  /** Items a Query evaluated before its filter. */
  scanned: number | undefined;
  /** Items a transaction wrote or a batch asked for. */
  requested: number | undefined;
  /** How the call failed: the error's name, and a cancelled transaction's reasons. */
  error: string | undefined;
}

/** Calls of one command since tracing began, and its failures by how they failed. */
export interface CommandTotals {
  calls: number;
  failures: Record<string, number>;
}

export interface TraceTotals {
  /** Every call, failed ones included. */
  calls: number;
  ms: number;
  byCommand: Record<string, CommandTotals>;
}

export interface DynamoTrace {
  /** Calls since the last `take()`, and forgets them. */
  take(): TracedCall[];
  /** Totals since tracing began. */
  totals(): TraceTotals;
}

const WRITE_COMMANDS = new Set(["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"]);

interface TracedInput {
  TransactItems?: unknown[];
  RequestItems?: Record<string, { Keys?: unknown[] } | unknown[]>;
}

interface TracedOutput {
  ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
  Count?: number;
  ScannedCount?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]>;
}

/**
 * Adds the tracing middleware to `client`; with `keepCalls: false` only the totals are kept (a server under load).
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
        const input = args.input as TracedInput;
        record({
          command,
          kind: WRITE_COMMANDS.has(command) ? "write" : "read",
          ms: performance.now() - started,
          capacity: capacityOf(output?.ConsumedCapacity),
          returned: output ? returnedOf(output) : undefined,
          scanned: output?.ScannedCount,
          requested:
            input.TransactItems?.length ??
            (input.RequestItems
              ? Object.values(input.RequestItems).reduce<number>(
                  (sum, request) => sum + (Array.isArray(request) ? request.length : (request.Keys?.length ?? 0)),
                  0,
                )
              : undefined),
          error,
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
    totals: () => structuredClone(totals),
  };
}

/** `ConditionalCheckFailedException`, or `TransactionCanceled: ConditionalCheckFailed` / `…: TransactionConflict`. */
function failureOf(thrown: unknown): string {
  const error = thrown as { name?: string; CancellationReasons?: { Code?: string }[] };
  const name = error?.name ?? "Error";
  if (name !== "TransactionCanceledException") return name;
  const codes = new Set((error.CancellationReasons ?? []).map((reason) => reason.Code ?? "?"));
  codes.delete("None");
  return `TransactionCanceled: ${[...codes].sort().join("+") || "?"}`;
}

function capacityOf(consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number | undefined {
  const entries = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
  return entries.length === 0 ? undefined : entries.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
}

function returnedOf(output: TracedOutput): number | undefined {
  if (output.Count !== undefined) return output.Count;
  if (output.Responses) return Object.values(output.Responses).reduce((sum, items) => sum + items.length, 0);
  if ("Item" in output) return output.Item ? 1 : 0;
  return undefined;
}

/** Transactions refused as conflicting (emulated) among `totals`. */
export function conflictsIn(totals: Pick<TraceTotals, "byCommand">): number {
  let total = 0;
  for (const counts of Object.values(totals.byCommand)) {
    for (const [failure, count] of Object.entries(counts.failures)) {
      if (failure.includes("TransactionConflict")) total += count;
    }
  }
  return total;
}

/** The totals of several traces (one per client) as one. */
export function summedTotals(all: TraceTotals[]): TraceTotals {
  const sum: TraceTotals = { calls: 0, ms: 0, byCommand: {} };
  for (const totals of all) {
    sum.calls += totals.calls;
    sum.ms += totals.ms;
    for (const [command, counts] of Object.entries(totals.byCommand)) {
      const perCommand = sum.byCommand[command] ?? { calls: 0, failures: {} };
      sum.byCommand[command] = perCommand;
      perCommand.calls += counts.calls;
      for (const [failure, count] of Object.entries(counts.failures)) {
        perCommand.failures[failure] = (perCommand.failures[failure] ?? 0) + count;
      }
    }
  }
  return sum;
}
