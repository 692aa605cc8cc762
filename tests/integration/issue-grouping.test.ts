/**
 * Grouping a signal into an issue: in place, commutative updates of its count and latest signals;
 * or, while the issue item is held, a signal waiting beside it until a fold adds it, counted once
 * however many fold at once.
 */
import { describe, expect, it, vi } from "vitest";
import { TransactionConflictError } from "../../core/src/db/db.js";
import type { RecentSignal } from "../../core/src/issues/issue-item.js";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { issueKey, PENDING_SIGNAL_PREFIX } from "../../core/src/issues/keys.js";
import { issueStore, signalLinks } from "../../core/src/services.js";
import { CONFLICT_MODES, freshTable } from "../helpers/db.js";

/** A recent signal received `second` seconds into 2030 (ids order as the instants do). */
const signal = (second: number): RecentSignal => ({
  id: `sig_${String(second).padStart(26, "0")}`,
  receivedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, second)).toISOString(),
});

describe("SignalLinks.prepareGrouping", () => {
  it("keeps the latest ten whatever order signals arrive in, and counts every one", async () => {
    const { db } = await freshTable();
    const store = issueStore({ db });
    const links = signalLinks({ db });
    const created = await store.create(newIssue({ title: "Storm", type: "signal", signalCount: 1 }));
    const seconds = [30, 5, 12, 44, 1, 29, 18, 50, 3, 41, 7, 22, 36, 9, 15];
    for (const second of seconds) {
      const current = await store.get(created.issue.id);
      const grouping = current && links.prepareGrouping(current, signal(second));
      if (!grouping) throw new Error("the issue's recent signals are not a map");
      await db.transactWrite(grouping.writes);
    }
    const stored = await store.get(created.issue.id);
    expect(stored?.issue.signalCount).toBe(1 + seconds.length);
    const latest = [...seconds].sort((a, b) => b - a).slice(0, 10);
    expect(stored?.recentSignals.map((s) => s.id)).toEqual(latest.map((second) => signal(second).id));
    expect(stored?.issue.lastSignalAt).toBe(signal(50).receivedAt);
    expect(stored?.version).toBe(1 + seconds.length);
  });

  it("counts a signal older than the ten kept without touching them (no empty map update)", async () => {
    const { db } = await freshTable();
    const store = issueStore({ db });
    const links = signalLinks({ db });
    const created = await store.create(newIssue({ title: "Late", type: "signal" }));
    for (let second = 20; second < 30; second++) {
      const current = await store.get(created.issue.id);
      if (!current) throw new Error("missing");
      await db.transactWrite(links.prepareGrouping(current, signal(second))?.writes ?? []);
    }
    const before = await store.get(created.issue.id);
    if (!before) throw new Error("missing");
    await db.transactWrite(links.prepareGrouping(before, signal(2))?.writes ?? []);
    const after = await store.get(created.issue.id);
    expect(after?.issue.signalCount).toBe(11);
    expect(after?.recentSignals.map((s) => s.id)).toEqual(before.recentSignals.map((s) => s.id));
  });

  it("refuses to group into an issue that was closed since it was read", async () => {
    const { db } = await freshTable();
    const store = issueStore({ db });
    const links = signalLinks({ db });
    const created = await store.create(newIssue({ title: "Closed", type: "signal" }));
    const grouping = links.prepareGrouping(created, signal(1));
    const { writes } = store.prepareUpdate(created, { status: "done" }, new Date());
    await db.transactWrite(writes);
    await expect(db.transactWrite(grouping?.writes ?? [])).rejects.toThrow("Condition failed");
  });
});

describe.each(CONFLICT_MODES)("SignalLinks.foldPendingSignals ($mode)", ({ emulateConflicts }) => {
  async function storm(count: number) {
    const { db } = await freshTable({ emulateConflicts });
    const store = issueStore({ db });
    const links = signalLinks({ db });
    const created = await store.create(newIssue({ title: "Storm", type: "signal", signalCount: 1 }));
    const id = created.issue.id;
    // Arrival order is not id order: deliveries commit in any order.
    const seconds = Array.from({ length: count }, (_, i) => (i * 37) % count);
    await Promise.all(seconds.map((second) => db.transactWrite([links.preparePendingSignal(id, signal(second))])));
    const pendingLeft = async () =>
      (await db.queryPartition(issueKey(id).pk)).filter((item) => String(item.sk).startsWith(PENDING_SIGNAL_PREFIX))
        .length;
    return { db, store, links, id, seconds, pendingLeft };
  }

  it("folds 30 pending signals with 30 folds at once: each counted once, the latest ten kept", async () => {
    const { store, links, id, seconds, pendingLeft } = await storm(30);
    const folded = await Promise.all(seconds.map((second) => links.foldPendingSignals(id, signal(second).id)));
    expect(folded).toEqual(seconds.map(() => true));
    const stored = await store.get(id);
    expect(stored?.issue.signalCount).toBe(31);
    expect(stored?.recentSignals.map((s) => s.id)).toEqual(Array.from({ length: 10 }, (_, i) => signal(29 - i).id));
    expect(stored?.issue.lastSignalAt).toBe(signal(29).receivedAt);
    expect(await pendingLeft()).toBe(0);
  });

  it("takes turns by age across processes: 30 folds at once, each from a store of its own, make one fold or two", async () => {
    const { db, id, seconds, pendingLeft } = await storm(30);
    const transactions = vi.spyOn(db, "transactWrite");
    // A store per delivery, as one Lambda instance per request: no fold under way is shared.
    const folded = await Promise.all(
      seconds.map((second) => signalLinks({ db }).foldPendingSignals(id, signal(second).id)),
    );
    expect(folded).toEqual(seconds.map(() => true));
    // The oldest's delivery folds every one; the others read until theirs is gone.
    expect(transactions.mock.calls.length).toBeLessThanOrEqual(2);
    expect((await issueStore({ db }).get(id))?.issue.signalCount).toBe(31);
    expect(await pendingLeft()).toBe(0);
  });

  it("folds past one transaction's worth for the signal asked: 120 pending, whose deliveries are gone, all counted", async () => {
    const { store, links, id, pendingLeft } = await storm(120);
    // The newest sorts last: its fold reads on past the first page.
    expect(await links.foldPendingSignals(id, signal(119).id)).toBe(true);
    expect((await store.get(id))?.issue.signalCount).toBe(121);
    expect(await pendingLeft()).toBe(0);
  });

  it("counts in-place groupings and folds that run at once", async () => {
    const { db, store, links, id, seconds } = await storm(20);
    const inPlace = Array.from({ length: 20 }, (_, i) => 100 + i);
    await Promise.all([
      ...seconds.map((second) => links.foldPendingSignals(id, signal(second).id)),
      ...inPlace.map(async (second) => {
        for (;;) {
          const current = await store.get(id);
          const grouping = current && links.prepareGrouping(current, signal(second));
          if (!grouping) throw new Error("the issue's recent signals are not a map");
          try {
            return await db.transactWrite(grouping.writes);
          } catch (error) {
            if (!(error instanceof TransactionConflictError)) throw error;
          }
        }
      }),
    ]);
    const stored = await store.get(id);
    expect(stored?.issue.signalCount).toBe(41);
    expect(stored?.issue.lastSignalAt).toBe(signal(119).receivedAt);
  });

  it("leaves the signals of a deleted issue alone and says so", async () => {
    const { db, store, links, id, pendingLeft } = await storm(3);
    const current = await store.get(id);
    if (!current) throw new Error("missing");
    await db.transactWrite(store.prepareDelete(current, new Date()).writes);
    expect(await links.foldPendingSignals(id, signal(0).id)).toBe(false);
    expect(await pendingLeft()).toBe(3);
  });
});

describe("IssueStore.getForSignal", () => {
  it("says whether signals wait beside the issue, whatever else its partition holds", async () => {
    const { db } = await freshTable();
    const store = issueStore({ db });
    const links = signalLinks({ db });
    const parent = await store.create(newIssue({ title: "Storm", type: "signal" }));
    const id = parent.issue.id;
    await store.create(newIssue({ title: "Child", type: "task", parentId: id }));
    expect((await store.getForSignal(id))?.signalsWaiting).toBe(false);
    await db.transactWrite([links.preparePendingSignal(id, signal(3))]);
    const found = await store.getForSignal(id);
    expect(found?.signalsWaiting).toBe(true);
    expect(found?.issue).toEqual((await store.get(id))?.issue);
    expect(await store.getForSignal("iss_00000000000000000000000000")).toBeUndefined();
  });
});
