/**
 * The data layer's concurrency mechanics against DynamoDB Local: AWS's transaction conflicts as
 * the client emulates them, spread counts, and sequence numbers.
 */
import { describe, expect, it } from "vitest";
import { ConditionFailedError, type TransactItem, TransactionConflictError } from "../../core/src/db/db.js";
import { ListingIndex, type ListingScheme } from "../../core/src/db/listing-index.js";
import { retryConflicts } from "../../core/src/db/retry.js";
import { takeNext } from "../../core/src/db/sequence.js";
import { SPREAD_SHARDS, spreadShardKey, sumSpreadCounts } from "../../core/src/db/spread.js";
import { CONFLICT_MODES, freshTable } from "../helpers/db.js";
import { injectFaults } from "../helpers/faults.js";

const put = (pk: string, extra: Record<string, unknown> = {}): TransactItem => ({
  Put: { Item: { pk, sk: "s", ...extra } },
});
const bump = (pk: string): TransactItem => ({
  Update: {
    Key: { pk, sk: "s" },
    UpdateExpression: "ADD #n :one",
    ExpressionAttributeNames: { "#n": "n" },
    ExpressionAttributeValues: { ":one": 1 },
  },
});

describe("AWS transaction conflicts, emulated", () => {
  it("cancel a transaction that touches an item another in-flight transaction holds, naming that item", async () => {
    const { db } = await freshTable();
    const [first, second] = await Promise.allSettled([
      db.transactWrite([bump("hot"), put("a")]),
      db.transactWrite([put("b"), bump("hot")]),
    ]);
    expect(first.status).toBe("fulfilled");
    expect(second.status).toBe("rejected");
    const error = (second as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(TransactionConflictError);
    expect((error as TransactionConflictError).reasons).toEqual(["None", "TransactionConflict"]);
    // Nothing of the cancelled transaction was written; the item is free again afterwards.
    expect(await db.get({ pk: "b", sk: "s" }, { consistent: true })).toBeUndefined();
    await db.transactWrite([put("b"), bump("hot")]);
    expect((await db.get({ pk: "hot", sk: "s" }, { consistent: true }))?.n).toBe(2);
  });

  it("hold ConditionCheck items too, and release items when the transaction fails its condition", async () => {
    const { db } = await freshTable();
    const check: TransactItem = {
      ConditionCheck: { Key: { pk: "label", sk: "s" }, ConditionExpression: "attribute_not_exists(pk)" },
    };
    const [a, b] = await Promise.allSettled([db.transactWrite([check, put("x")]), db.transactWrite([check, put("y")])]);
    expect([a.status, b.status].sort()).toEqual(["fulfilled", "rejected"]);
    await db.put({ Item: { pk: "label", sk: "s" } });
    await expect(db.transactWrite([check, put("z")])).rejects.toBeInstanceOf(ConditionFailedError);
    // The failed transaction let go of its items.
    await db.transactWrite([bump("label"), put("z")]);
  });

  it("refuse a single-item write to an item a transaction holds", async () => {
    const { db } = await freshTable();
    const [transaction, single] = await Promise.allSettled([
      db.transactWrite([bump("hot"), put("a")]),
      db.update({
        Key: { pk: "hot", sk: "s" },
        UpdateExpression: "ADD #n :one",
        ExpressionAttributeNames: { "#n": "n" },
        ExpressionAttributeValues: { ":one": 1 },
      }),
    ]);
    expect(transaction.status).toBe("fulfilled");
    expect((single as PromiseRejectedResult).reason).toBeInstanceOf(TransactionConflictError);
  });

  it("are not emulated when the client is made without emulation: DynamoDB Local serialises both", async () => {
    const { db } = await freshTable({ emulateConflicts: false });
    await Promise.all([db.transactWrite([bump("hot"), put("a")]), db.transactWrite([put("b"), bump("hot")])]);
    expect((await db.get({ pk: "hot", sk: "s" }, { consistent: true }))?.n).toBe(2);
  });

  it("are sent again by retryConflicts until the holder is done, so every commutative write lands", async () => {
    const { db } = await freshTable();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => retryConflicts(() => db.transactWrite([bump("hot"), put(`own${i}`)]))),
    );
    expect((await db.get({ pk: "hot", sk: "s" }, { consistent: true }))?.n).toBe(30);
  });
});

/** A listing whose sort keys are two-digit numbers, ten to a bucket. */
const TENS: ListingScheme = {
  entity: "tens",
  bucketOf: (sk) => sk.slice(0, 1),
  bucketStart: (bucket) => `${bucket}0`,
  bucketEnd: (bucket) => `${Number(bucket) + 1}0`,
};

describe.each(CONFLICT_MODES)("spread counts ($mode)", ({ emulateConflicts }) => {
  it("keep a listing's total and pages exact when every writer adds to the same bucket at once", async () => {
    const { db } = await freshTable({ emulateConflicts });
    const listing = new ListingIndex(db, TENS);
    const members = Array.from({ length: 40 }, (_, i) => String(i + 10).padStart(2, "0"));
    await Promise.all(
      members.map((sk) => retryConflicts(() => db.transactWrite(listing.additions(["all"], sk, { id: sk })))),
    );
    const counts = await db.queryPartition("$kaizen#tenscount_1#all");
    if (emulateConflicts) {
      // The bursts spread: some buckets were written to shards beside their base item.
      expect(counts.some((item) => String(item.sk).includes("~"))).toBe(true);
    }
    expect(sumSpreadCounts(counts, "count")).toEqual([
      { sk: "1", total: 10 },
      { sk: "2", total: 10 },
      { sk: "3", total: 10 },
      { sk: "4", total: 10 },
    ]);
    const pages = [];
    for (let offset = 0; offset < 40; offset += 7) {
      const page = await listing.page("all", { order: "asc", offset, limit: 7 });
      expect(page.total).toBe(40);
      pages.push(...page.entries.map((entry) => entry.id));
    }
    expect(pages).toEqual(members);
    const removed = members.slice(0, 15);
    await Promise.all(removed.map((sk) => retryConflicts(() => db.transactWrite(listing.removals(["all"], sk)))));
    expect(await listing.count("all")).toBe(25);
    const rest = await listing.page("all", { order: "desc", offset: 0, limit: 30 });
    expect(rest.entries.map((entry) => entry.id)).toEqual(members.slice(15).reverse());
  });
});

describe("spread count keys", () => {
  it("put shards right after their count's base item, and fold them back per count", () => {
    const base = { pk: "p", sk: "0000000007" };
    expect(spreadShardKey(base, 0)).toEqual(base);
    const shards = Array.from({ length: SPREAD_SHARDS }, (_, i) => spreadShardKey(base, i).sk);
    const next = "0000000008";
    const sorted = [...shards, next, "0000000006"].sort();
    expect(sorted).toEqual(["0000000006", ...shards, next]);
    const items = sorted.map((sk) => ({ sk, count: sk === next ? 5 : 1 }));
    expect(sumSpreadCounts(items, "count")).toEqual([
      { sk: "0000000006", total: 1 },
      { sk: "0000000007", total: SPREAD_SHARDS },
      { sk: next, total: 5 },
    ]);
  });
});

describe.each(CONFLICT_MODES)("sequences ($mode)", ({ emulateConflicts }) => {
  const key = { pk: "seq", sk: "seq" };

  it("give 50 writers at once 50 different numbers, 1..50, with instants that never go back", async () => {
    const { db } = await freshTable({ emulateConflicts });
    const start = Date.parse("2030-01-01T00:00:00.000Z");
    // Offered instants out of order, as requests overtaking one another would offer them.
    const taken = await Promise.all(
      Array.from({ length: 50 }, (_, i) => takeNext(db, key, new Date(start + ((i * 7919) % 50)).toISOString())),
    );
    const byNumber = [...taken].sort((a, b) => a.value - b.value);
    expect(byNumber.map((t) => t.value)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const instants = byNumber.map((t) => t.at);
    expect(instants).toEqual([...instants].sort());
  });

  it("take a number at the recorded instant when the writer's clock is behind it, in two calls", async () => {
    const { db } = await freshTable({ emulateConflicts });
    expect(await takeNext(db, key, "2030-01-01T00:00:05.000Z")).toEqual({ value: 1, at: "2030-01-01T00:00:05.000Z" });
    const before = db.usage().calls;
    expect(await takeNext(db, key, "2030-01-01T00:00:01.000Z")).toEqual({ value: 2, at: "2030-01-01T00:00:05.000Z" });
    expect(db.usage().calls - before).toBe(2);
    expect(await takeNext(db, key, "2030-01-01T00:00:06.000Z")).toEqual({ value: 3, at: "2030-01-01T00:00:06.000Z" });
  });

  it("take one number, not two, when DynamoDB applied an update and its answer was lost (the SDK sends it again)", async () => {
    const { db } = await freshTable({ emulateConflicts });
    const faults = injectFaults(db);
    // The first update of each take has its first answer lost: once on the plain path, once on the
    // path of a writer whose clock is behind (its second update too).
    faults.fail({ kind: "responseLost", attempts: 1 });
    expect(await takeNext(db, key, "2030-01-01T00:00:05.000Z")).toEqual({ value: 1, at: "2030-01-01T00:00:05.000Z" });
    expect(await takeNext(db, key, "2030-01-01T00:00:01.000Z")).toEqual({ value: 2, at: "2030-01-01T00:00:05.000Z" });
    faults.clear();
    expect(faults.calls.filter((call) => call.fault === "responseLost")).toHaveLength(3);
    expect(await takeNext(db, key, "2030-01-01T00:00:06.000Z")).toEqual({ value: 3, at: "2030-01-01T00:00:06.000Z" });
  });
});

describe("metered work", () => {
  it("counts only the calls of its own client and of its own work, with many clients and works at once", async () => {
    const { db: first } = await freshTable({ emulateConflicts: false });
    const { db: second } = await freshTable({ emulateConflicts: false });
    const reads = (db: typeof first, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => db.get({ pk: `m${i}`, sk: "s" })));
    const [outer, inner, other] = await Promise.all([
      // A work on the first client that also calls the second: only its own client's calls count.
      first.metered(async () => {
        await reads(first, 3);
        await reads(second, 4);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await reads(first, 2);
      }),
      second.metered(() => reads(second, 5)),
      first.metered(() => reads(first, 7)),
    ]);
    expect(outer.usage.calls).toBe(5);
    expect(inner.usage.calls).toBe(5);
    expect(other.usage.calls).toBe(7);
  });
});
