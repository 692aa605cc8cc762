/** @module infra/table — the one DynamoDB table, built only from core's table definition. */
import { LINKED } from "../core/src/config.js";
import { TABLE_DEFINITION } from "../core/src/db/table.js";

/** Linked to every function; the code reads `Resource.Table.name`. */
export const table = new sst.aws.Dynamo(LINKED.table, {
  fields: TABLE_DEFINITION.fields,
  primaryIndex: TABLE_DEFINITION.primaryIndex,
  globalIndexes: Object.fromEntries(
    Object.entries(TABLE_DEFINITION.globalIndexes).map(([name, { hashKey, rangeKey, projection }]) => [
      name,
      { hashKey, rangeKey, projection },
    ]),
  ),
  ttl: TABLE_DEFINITION.ttl,
  stream: TABLE_DEFINITION.stream,
});
