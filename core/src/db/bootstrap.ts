/** @module db/bootstrap — makes the table exist as TABLE_DEFINITION describes (local server and tests; infra/ does it when deployed). */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { Db } from "./db.js";
import {
  createTableInput,
  globalIndexInput,
  indexNames,
  streamSpecification,
  TABLE_DEFINITION,
  type TableOptions,
} from "./table.js";

/**
 * Creates the table if it is missing, adds any index the definition has gained since, switches
 * the change stream on where it is off (a table made before the definition had one; not with
 * `stream: false`, see {@link TableOptions}), and switches TTL on. Safe to run on every start.
 * @example await ensureTable(db);
 */
export async function ensureTable(db: Db, options: TableOptions = {}): Promise<"created" | "updated" | "unchanged"> {
  const existing = await describe(db);
  let outcome: "created" | "updated" | "unchanged" = "unchanged";
  if (!existing) {
    try {
      await db.client.send(new CreateTableCommand(createTableInput(db.tableName, options)));
      outcome = "created";
    } catch (error) {
      // Another process created it between our describe and create: that is fine.
      if ((error as { name?: string }).name !== "ResourceInUseException") throw error;
    }
  } else {
    const present = new Set((existing.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const name of indexNames().filter((n) => !present.has(n))) {
      await waitActive(db);
      await db.client.send(
        new UpdateTableCommand({
          TableName: db.tableName,
          AttributeDefinitions: createTableInput(db.tableName).AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: globalIndexInput(name) }],
        }),
      );
      outcome = "updated";
    }
    if (options.stream !== false && !existing.StreamSpecification?.StreamEnabled) {
      await waitActive(db);
      try {
        await db.client.send(
          new UpdateTableCommand({ TableName: db.tableName, StreamSpecification: streamSpecification() }),
        );
        outcome = "updated";
      } catch (error) {
        // Another process switched it on between our describe and update: that is fine.
        if (!(await describe(db))?.StreamSpecification?.StreamEnabled) throw error;
      }
    }
  }
  await waitActive(db);
  await enableTtl(db);
  return outcome;
}

/** Waits until the database answers at all (DynamoDB Local takes a moment to start). */
export async function waitForDatabase(db: Db, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await db.client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function describe(db: Db) {
  try {
    const out = await db.client.send(new DescribeTableCommand({ TableName: db.tableName }));
    return out.Table;
  } catch (error) {
    if ((error as { name?: string }).name === "ResourceNotFoundException") return undefined;
    throw error;
  }
}

async function waitActive(db: Db): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const table = await describe(db);
    const indexesReady = (table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === "ACTIVE");
    if (table?.TableStatus === "ACTIVE" && indexesReady) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Table ${db.tableName} did not become active`);
}

async function enableTtl(db: Db): Promise<void> {
  const current = await db.client.send(new DescribeTimeToLiveCommand({ TableName: db.tableName }));
  const status = current.TimeToLiveDescription?.TimeToLiveStatus;
  if (status === "ENABLED" || status === "ENABLING") return;
  await db.client.send(
    new UpdateTimeToLiveCommand({
      TableName: db.tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.ttl, Enabled: true },
    }),
  );
}
