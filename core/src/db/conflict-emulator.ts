/**
 * @module db/conflict-emulator — DynamoDB's transaction conflicts as AWS applies them, for DynamoDB Local.
 *
 * On AWS a transaction holds each of its items (every Put, Update, Delete and ConditionCheck)
 * while it is in flight. Another transaction that touches a held item is cancelled at once with
 * the reason `TransactionConflict` on that item, and a single-item write to a held item fails
 * with `TransactionConflictException`. DynamoDB Local serialises such requests instead, so a
 * design with hot items looks fine there and falls over on AWS. With emulation on, the client
 * keeps the same bookkeeping for the transactions it has in flight and refuses what AWS would,
 * before the request leaves (as a middleware of the SDK client, so tracing sees the failure).
 *
 * The scope is one process and one endpoint: every client of that endpoint in the process shares
 * the held set, as every request to a table shares it on AWS.
 */
import {
  type DynamoDBClient,
  TransactionCanceledException,
  TransactionConflictException,
} from "@aws-sdk/client-dynamodb";

/** The items held by the transactions in flight through the clients of one endpoint. */
export class ConflictEmulator {
  private readonly held = new Set<string>();

  /**
   * Holds every item of a transaction about to be sent, or, when another in-flight transaction
   * holds any of them, throws what AWS answers: `TransactionCanceledException` with
   * `TransactionConflict` on each held item and `None` on the rest. Returns the release.
   */
  holdTransaction(items: string[]): () => void {
    const conflicting = items.map((item) => this.held.has(item));
    if (conflicting.some(Boolean)) {
      const codes = conflicting.map((conflict) => (conflict ? "TransactionConflict" : "None"));
      throw new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(", ")}]`,
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: codes.map((Code) =>
          Code === "TransactionConflict" ? { Code, Message: "Transaction is ongoing for the item" } : { Code },
        ),
      });
    }
    for (const item of items) this.held.add(item);
    return () => {
      for (const item of items) this.held.delete(item);
    };
  }

  /** A single-item write to an item a transaction holds fails, as on AWS. */
  checkSingleWrite(item: string): void {
    if (this.held.has(item)) {
      throw new TransactionConflictException({
        message: "Transaction is ongoing for the item",
        $metadata: { httpStatusCode: 400 },
      });
    }
  }
}

const emulators = new Map<string, ConflictEmulator>();

/** The emulator shared by every client of `endpoint` in this process. */
export function conflictEmulatorFor(endpoint: string | undefined): ConflictEmulator {
  const scope = endpoint ?? "aws";
  let emulator = emulators.get(scope);
  if (!emulator) {
    emulator = new ConflictEmulator();
    emulators.set(scope, emulator);
  }
  return emulator;
}

type Wire = Record<string, unknown>;
interface WriteInput {
  TableName?: string;
  Key?: Wire;
  Item?: Wire;
}
interface TransactInput {
  TransactItems?: { Put?: WriteInput; Update?: WriteInput; Delete?: WriteInput; ConditionCheck?: WriteInput }[];
}

const SINGLE_WRITES = new Set(["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand"]);

/**
 * Makes `client` refuse conflicting writes as DynamoDB on AWS does, with `emulator`'s book of
 * held items.
 * @example emulateConflicts(client, conflictEmulatorFor(endpoint));
 */
export function emulateConflicts(client: DynamoDBClient, emulator: ConflictEmulator): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? "");
      if (command === "TransactWriteItemsCommand") {
        const items = ((args.input as TransactInput).TransactItems ?? []).map((entry) => {
          const write = entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck ?? {};
          return itemId(write.TableName, write.Key ?? write.Item);
        });
        const release = emulator.holdTransaction(items);
        try {
          return await next(args);
        } finally {
          release();
        }
      }
      if (SINGLE_WRITES.has(command)) {
        const input = args.input as WriteInput;
        emulator.checkSingleWrite(itemId(input.TableName, input.Key ?? input.Item));
      }
      return next(args);
    },
    // Early, so a refused request costs no marshalling or signing; after tracing middleware
    // (added with a higher priority), so traces see the refusal as a failed call.
    { step: "initialize", priority: "low", name: "kaizenConflictEmulation" },
  );
}

/** One item's identity: its table and key, in the SDK's wire form or as plain values. */
function itemId(table: string | undefined, key: Wire | undefined): string {
  const part = (value: unknown) =>
    typeof value === "object" && value !== null && "S" in value ? String((value as { S: unknown }).S) : String(value);
  return `${table ?? ""}\u0000${part(key?.pk)}\u0000${part(key?.sk)}`;
}
