/**
 * @module db/transact-item — one item of a transaction as the stores prepare it (without `TableName`, or a
 * spread count's addition or a spread guard's check, ./spread.ts) and as the SDK takes it
 * (pure functions, no I/O). ./db.ts sends them.
 */
import type { TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Key } from "./item.js";
import type { SpreadAddition, SpreadCheck } from "./spread.js";

export type SdkTransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];
/**
 * One transaction item without `TableName` (the client adds its own), or a `SpreadAdd` to a
 * spread count or a `SpreadCheck` of a spread guard (db/spread.ts), for which the client picks
 * the item.
 */
export type TransactItem = { [K in keyof SdkTransactItem]?: Omit<NonNullable<SdkTransactItem[K]>, "TableName"> } & {
  SpreadAdd?: SpreadAddition;
  SpreadCheck?: SpreadCheck;
};

/** The key a transaction item changes: a Put's, Update's or Delete's (a condition check or a count changes nothing recorded). */
export function changedKey(item: TransactItem): Key | undefined {
  if (item.Put) return item.Put.Item as Key;
  if (item.Update) return item.Update.Key as Key;
  if (item.Delete) return item.Delete.Key as Key;
  return undefined;
}

/**
 * The SDK's form of one item: `TableName` added, a spread addition made an `ADD` and a spread
 * check a `ConditionCheck` on its chosen shard.
 */
export function withTableName(item: TransactItem, tableName: string, spreadKey: Key | undefined): SdkTransactItem {
  if (item.SpreadAdd) {
    const { Key, attribute, delta } = item.SpreadAdd;
    return {
      Update: {
        TableName: tableName,
        Key: spreadKey ?? Key,
        UpdateExpression: "ADD #spread :delta",
        ExpressionAttributeNames: { "#spread": attribute },
        ExpressionAttributeValues: { ":delta": delta },
      },
    };
  }
  if (item.SpreadCheck) {
    const { Key, base, shard } = item.SpreadCheck;
    const onBase = spreadKey === undefined || spreadKey.sk === Key.sk;
    const condition = onBase ? base : shard;
    return {
      ConditionCheck: {
        TableName: tableName,
        Key: spreadKey ?? Key,
        ConditionExpression: condition.expression,
        ...(condition.names ? { ExpressionAttributeNames: condition.names } : {}),
        ...(condition.values ? { ExpressionAttributeValues: condition.values } : {}),
      },
    };
  }
  const [kind, body] = Object.entries(item)[0] ?? [];
  if (!kind || !body) throw new Error("Empty transaction item");
  return { [kind]: { ...body, TableName: tableName } } as SdkTransactItem;
}
