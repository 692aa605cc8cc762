/** Grouping a signal into an issue in place: commutative updates of its count and latest signals. */
import { describe, expect, it } from "vitest";
import { newIssue } from "../../core/src/issues/service.js";
import type { RecentSignal } from "../../core/src/issues/store.js";
import { issueStore } from "../../core/src/services.js";
import { freshTable } from "../helpers/db.js";

/** A recent signal received `second` seconds into 2030 (ids order as the instants do). */
const signal = (second: number): RecentSignal => ({
  id: `sig_${String(second).padStart(26, "0")}`,
  receivedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, second)).toISOString(),
});

describe("IssueStore.prepareGrouping", () => {
  it("keeps the latest ten whatever order signals arrive in, and counts every one", async () => {
    const { db } = await freshTable();
    const store = issueStore({ db });
    const created = await store.create(newIssue({ title: "Storm", type: "signal", signalCount: 1 }));
    const seconds = [30, 5, 12, 44, 1, 29, 18, 50, 3, 41, 7, 22, 36, 9, 15];
    for (const second of seconds) {
      const current = await store.get(created.issue.id);
      const grouping = current && store.prepareGrouping(current, signal(second));
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
    const created = await store.create(newIssue({ title: "Late", type: "signal" }));
    for (let second = 20; second < 30; second++) {
      const current = await store.get(created.issue.id);
      if (!current) throw new Error("missing");
      await db.transactWrite(store.prepareGrouping(current, signal(second))?.writes ?? []);
    }
    const before = await store.get(created.issue.id);
    if (!before) throw new Error("missing");
    await db.transactWrite(store.prepareGrouping(before, signal(2))?.writes ?? []);
    const after = await store.get(created.issue.id);
    expect(after?.issue.signalCount).toBe(11);
    expect(after?.recentSignals.map((s) => s.id)).toEqual(before.recentSignals.map((s) => s.id));
  });

  it("refuses to group into an issue that was closed since it was read", async () => {
    const { db } = await freshTable();
    const store = issueStore({ db });
    const created = await store.create(newIssue({ title: "Closed", type: "signal" }));
    const grouping = store.prepareGrouping(created, signal(1));
    const { writes } = store.prepareUpdate(created, { status: "done" }, new Date());
    await db.transactWrite(writes);
    await expect(db.transactWrite(grouping?.writes ?? [])).rejects.toThrow("Condition failed");
  });
});
