/**
 * The data layer's batch reads against DynamoDB Local: items in the order asked, one per key given,
 * a key given twice asked once (DynamoDB refuses a BatchGetItem naming the same key twice), and more
 * than a hundred different keys in calls of a hundred.
 */
import { describe, expect, it } from "vitest";
import { freshTable } from "../helpers/db.js";

const key = (n: number) => ({ pk: `item#${n}`, sk: "s" });

describe("batchGet", () => {
  it("answers one item per key given, in the order given, leaving out keys with no item", async () => {
    const { db } = await freshTable({ emulateConflicts: false });
    await db.transactWrite([1, 2, 3].map((n) => ({ Put: { Item: { ...key(n), n } } })));
    const items = await db.batchGet([key(3), key(9), key(1), key(2)], { consistent: true });
    expect(items.map((item) => item.n)).toEqual([3, 1, 2]);
  });

  it("asks once for a key given twice, and answers its item at each place it was given", async () => {
    const { db } = await freshTable({ emulateConflicts: false });
    await db.transactWrite([1, 2].map((n) => ({ Put: { Item: { ...key(n), n } } })));
    const before = db.usage().calls;
    const items = await db.batchGet([key(2), key(1), key(2), key(9), key(1)], { consistent: true });
    expect(items.map((item) => item.n)).toEqual([2, 1, 2, 1]);
    expect(db.usage().calls - before).toBe(1);
  });

  it("reads 230 items in calls of at most a hundred different keys, each key asked once however often given", async () => {
    const { db } = await freshTable({ emulateConflicts: false });
    for (let start = 0; start < 230; start += 100) {
      await db.transactWrite(
        Array.from({ length: Math.min(100, 230 - start) }, (_, i) => ({
          Put: { Item: { ...key(start + i), n: start + i } },
        })),
      );
    }
    // Every key twice, side by side: 460 keys, 230 different.
    const keys = Array.from({ length: 230 }, (_, n) => [key(n), key(n)]).flat();
    const before = db.usage().calls;
    const items = await db.batchGet(keys, { consistent: true });
    expect(items.map((item) => item.n)).toEqual(keys.map((k) => Number(k.pk.slice(5))));
    expect(db.usage().calls - before).toBe(3);
  });
});
