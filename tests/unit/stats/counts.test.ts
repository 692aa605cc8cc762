/** Count changes merged for one transaction (stats/counts.ts `mergeCountChanges`), without a database. */
import { describe, expect, it } from "vitest";
import type { TransactItem } from "../../../core/src/db/db.js";
import { countChange, mergeCountChanges, plainAddition } from "../../../core/src/stats/counts.js";

const load = { pk: "$kaizen#agentload_1#prj_X", sk: "agent" };

describe("mergeCountChanges", () => {
  it("sums the plain additions to one item, as it sums spread ones, and leaves conditioned updates alone", () => {
    const conditioned: TransactItem = {
      Update: {
        Key: load,
        UpdateExpression: "ADD #added :delta",
        ConditionExpression: "attribute_not_exists(#added)",
        ExpressionAttributeNames: { "#added": "active" },
        ExpressionAttributeValues: { ":delta": 1 },
      },
    };
    const other = { Delete: { Key: { pk: "p", sk: "s" } } };
    expect(
      mergeCountChanges([
        plainAddition(load, "active", -1),
        countChange("queue.depth", 1),
        other,
        plainAddition(load, "active", -1),
        conditioned,
        countChange("queue.depth", -1),
      ]),
    ).toEqual([plainAddition(load, "active", -2), other, conditioned]);
    expect(mergeCountChanges([plainAddition(load, "active", 1), plainAddition(load, "active", -1)])).toEqual([]);
  });
});
