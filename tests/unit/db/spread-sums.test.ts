/** Summing spread counts (db/spread.ts): each count's base item and shards make one total, wherever they sort. */
import { describe, expect, it } from "vitest";
import { spreadShardKey, sumSpreadCounts } from "../../../core/src/db/spread.js";

const item = (sk: string, count: number) => ({ pk: "p", sk, count });
const shard = (sk: string, n: number, count: number) => item(spreadShardKey({ pk: "p", sk }, n).sk, count);

describe("sumSpreadCounts", () => {
  it("adds a count's shards to its base item", () => {
    expect(sumSpreadCounts([item("a", 1), shard("a", 3, 2), item("b", 5), shard("b", 1, 1)], "count")).toEqual([
      { sk: "a", total: 3 },
      { sk: "b", total: 6 },
    ]);
  });

  it("keeps apart counts whose sort keys extend one another, though one sorts between the other's base and shards", () => {
    // Sort-key order as DynamoDB returns it: "cost" < "cost-reported" < "cost~01" ("-" sorts before "~").
    const items = [item("v#cost", 0.25), item("v#cost-reported", 1), shard("v#cost", 1, 0.5), shard("v#cost", 7, 1.25)];
    expect([...items.map((one) => one.sk)].sort()).toEqual(items.map((one) => one.sk));
    expect(sumSpreadCounts(items, "count")).toEqual([
      { sk: "v#cost", total: 2 },
      { sk: "v#cost-reported", total: 1 },
    ]);
  });

  it("counts a shard whose base item was never written, and reads a missing attribute as zero", () => {
    expect(sumSpreadCounts([shard("c", 2, 4), { pk: "p", sk: "d" }], "count")).toEqual([
      { sk: "c", total: 4 },
      { sk: "d", total: 0 },
    ]);
  });
});
