/**
 * @module db/db-usage — what DynamoDB calls cost, as ./db.ts counts them for the process and for each
 * metered piece of work (a request's log line, the bench's costs): calls made and the capacity
 * DynamoDB reports consumed (pure functions, no I/O).
 */
import type { ConsumedCapacity } from "@aws-sdk/client-dynamodb";

/** Calls made and capacity consumed, as DynamoDB reports it (`ReturnConsumedCapacity: TOTAL`). */
export interface DbUsage {
  calls: number;
  readCapacity: number;
  writeCapacity: number;
}

/**
 * One call's usage from what DynamoDB reported it consumed (`ReturnConsumedCapacity: TOTAL`): a
 * total alone counts as the call's own kind.
 * @example callUsage("read", { CapacityUnits: 0.5 }) // { calls: 1, readCapacity: 0.5, writeCapacity: 0 }
 */
export function callUsage(
  kind: "read" | "write",
  consumed: ConsumedCapacity | ConsumedCapacity[] | undefined,
): DbUsage {
  let readCapacity = 0;
  let writeCapacity = 0;
  for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
    const read = entry.ReadCapacityUnits ?? 0;
    const write = entry.WriteCapacityUnits ?? 0;
    // DynamoDB often reports only the total; it is then all of the call's own kind.
    if (read === 0 && write === 0 && entry.CapacityUnits) {
      if (kind === "read") readCapacity += entry.CapacityUnits;
      else writeCapacity += entry.CapacityUnits;
    } else {
      readCapacity += read;
      writeCapacity += write;
    }
  }
  return { calls: 1, readCapacity, writeCapacity };
}

/** Adds `call` to `into`. */
export function addUsage(into: DbUsage, call: DbUsage): void {
  into.calls += call.calls;
  into.readCapacity += call.readCapacity;
  into.writeCapacity += call.writeCapacity;
}
