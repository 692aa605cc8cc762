/**
 * @module db/table — the single-table definition: keys, indexes, TTL attribute and change stream.
 * infra/, the local bootstrap and the tests all create the table from this one description.
 */
import type {
  CreateTableCommandInput,
  GlobalSecondaryIndex,
  StreamSpecification,
  StreamViewType,
} from "@aws-sdk/client-dynamodb";

/** Attribute types of every key attribute, in SST's `fields` vocabulary. */
export type KeyType = "string" | "number";

export interface IndexDefinition {
  hashKey: string;
  rangeKey: string;
  projection: "all" | "keys-only";
}

/**
 * The table. Generic key attributes (`pk/sk`, `gsi1pk/gsi1sk`) carry entity-specific values
 * built by each domain's `keys.ts`.
 *
 * Indexes:
 * - `gsi1`: alternate lookups that return the whole item (issue by `number`, for `KZN-<n>`).
 */
export const TABLE_DEFINITION = {
  fields: {
    pk: "string",
    sk: "string",
    gsi1pk: "string",
    gsi1sk: "string",
  } satisfies Record<string, KeyType>,
  primaryIndex: { hashKey: "pk", rangeKey: "sk" },
  globalIndexes: {
    gsi1: { hashKey: "gsi1pk", rangeKey: "gsi1sk", projection: "all" },
  } satisfies Record<string, IndexDefinition>,
  /** Items with this epoch-seconds attribute expire (idempotency keys, leases' leftovers). */
  ttl: "expiresAt",
  /**
   * The change stream, in SST's vocabulary: each change of an item with its image before and after
   * (db/changes.ts reads it; db/stream-reader.ts follows it on the local stack).
   */
  stream: "new-and-old-images",
} as const;

const SDK_TYPE: Record<KeyType, "S" | "N"> = { string: "S", number: "N" };

/** The GSI description DynamoDB's CreateTable/UpdateTable expect for one index. */
export function globalIndexInput(name: keyof typeof TABLE_DEFINITION.globalIndexes): GlobalSecondaryIndex {
  const index: IndexDefinition = TABLE_DEFINITION.globalIndexes[name];
  return {
    IndexName: name,
    KeySchema: [
      { AttributeName: index.hashKey, KeyType: "HASH" },
      { AttributeName: index.rangeKey, KeyType: "RANGE" },
    ],
    Projection: { ProjectionType: index.projection === "all" ? "ALL" : "KEYS_ONLY" },
  };
}

/** The stream as DynamoDB's CreateTable/UpdateTable expect it (`new-and-old-images` → `NEW_AND_OLD_IMAGES`). */
export function streamSpecification(): StreamSpecification {
  return {
    StreamEnabled: true,
    StreamViewType: TABLE_DEFINITION.stream.toUpperCase().replaceAll("-", "_") as StreamViewType,
  };
}

/** CreateTable input for the table under `tableName` (on-demand billing, as deployed). */
export function createTableInput(tableName: string, options: TableOptions = {}): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: Object.entries(TABLE_DEFINITION.fields).map(([name, type]) => ({
      AttributeName: name,
      AttributeType: SDK_TYPE[type],
    })),
    KeySchema: [
      { AttributeName: TABLE_DEFINITION.primaryIndex.hashKey, KeyType: "HASH" },
      { AttributeName: TABLE_DEFINITION.primaryIndex.rangeKey, KeyType: "RANGE" },
    ],
    GlobalSecondaryIndexes: indexNames().map(globalIndexInput),
    ...(options.stream === false ? {} : { StreamSpecification: streamSpecification() }),
  };
}

export interface TableOptions {
  /**
   * `false`: no change stream, so no outbound events. Deployed and on `npm start` the table always
   * has one; test tables that do not look at events leave it off, because DynamoDB Local slows down
   * as the streams it holds grow (db/stream-reader.ts says by how much).
   */
  stream?: boolean;
}

export function indexNames(): (keyof typeof TABLE_DEFINITION.globalIndexes)[] {
  return Object.keys(TABLE_DEFINITION.globalIndexes) as (keyof typeof TABLE_DEFINITION.globalIndexes)[];
}
