/**
 * How the issue page follows an agent at work (console/src/activity-tail.ts): the activities so
 * far page by page, then only those after the last sequence seen, every interval while the
 * dispatch is open and the tab is seen; one more read when it ends, then none; a hidden tab asks
 * nothing until it shows again; a refresh reads at once. Fake timers, so no test waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ActivityTail, type TailState } from "../../../console/src/activity-tail.js";

interface Item {
  sequence: number;
  body: string;
}

/** A dispatch's activities as the API answers them: `after`, at most `limit`, `total` counting all after. */
function fakeApi(limit = 100) {
  const items: Item[] = [];
  const calls: number[] = [];
  let failing: Error | null = null;
  return {
    items,
    calls,
    fail(error: Error | null) {
      failing = error;
    },
    add(count: number) {
      for (let n = 0; n < count; n++) items.push({ sequence: items.length + 1, body: `step ${items.length + 1}` });
    },
    async fetchAfter(after: number) {
      calls.push(after);
      if (failing) throw failing;
      const later = items.filter((item) => item.sequence > after);
      return { data: later.slice(0, limit), total: later.length };
    },
  };
}

function tailOf(source: ReturnType<typeof fakeApi>, visible = () => true) {
  const updates: { state: TailState<Item>; added: number }[] = [];
  const tail = new ActivityTail<Item>({
    fetchAfter: (after) => source.fetchAfter(after),
    visible,
    intervalMs: 2_000,
    onUpdate: (state, added) => updates.push({ state, added }),
  });
  const sequences = () => tail.current.activities.map((item) => item.sequence);
  return { tail, updates, sequences };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("following a dispatch's activities", () => {
  it("reads every activity so far, page by page, then asks only for later ones every interval", async () => {
    const source = fakeApi(100);
    source.add(250);
    const { tail, updates, sequences } = tailOf(source);
    await tail.start(true);
    expect(source.calls).toEqual([0, 100, 200]);
    expect(sequences()).toEqual(Array.from({ length: 250 }, (_, index) => index + 1));
    expect(updates).toHaveLength(1);
    expect(updates[0]?.state.loaded).toBe(true);

    await vi.advanceTimersByTimeAsync(1_999);
    expect(source.calls).toEqual([0, 100, 200]);
    await vi.advanceTimersByTimeAsync(1);
    expect(source.calls).toEqual([0, 100, 200, 250]);
    // Nothing new: no update.
    expect(updates).toHaveLength(1);

    source.add(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(source.calls.at(-1)).toBe(250);
    expect(sequences().slice(-3)).toEqual([250, 251, 252]);
    expect(updates.at(-1)?.added).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(source.calls.at(-1)).toBe(252);
    tail.stop();
  });

  it("reads once more when the dispatch ends, then asks nothing; an ended one is read once", async () => {
    const source = fakeApi();
    source.add(1);
    const { tail, sequences } = tailOf(source);
    await tail.start(true);
    source.add(1);
    tail.setLive(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(sequences()).toEqual([1, 2]);
    const asked = source.calls.length;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(source.calls).toHaveLength(asked);

    const ended = fakeApi();
    ended.add(3);
    const once = tailOf(ended);
    await once.tail.start(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(ended.calls).toEqual([0]);
    expect(once.sequences()).toEqual([1, 2, 3]);
  });

  it("asks nothing while the tab is hidden, and reads at once when it shows again", async () => {
    const source = fakeApi();
    let visible = true;
    const { tail, sequences } = tailOf(source, () => visible);
    await tail.start(true);
    visible = false;
    tail.visibilityChanged();
    source.add(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(source.calls).toEqual([0]);
    visible = true;
    tail.visibilityChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(source.calls).toEqual([0, 0]);
    expect(sequences()).toEqual([1]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(source.calls).toEqual([0, 0, 1]);
    tail.stop();
  });

  it("reads at once on a refresh, and one read follows another rather than running beside it", async () => {
    const source = fakeApi();
    const { tail, sequences } = tailOf(source);
    await tail.start(true);
    source.add(1);
    const first = tail.refresh();
    source.add(1);
    const second = tail.refresh();
    await Promise.all([first, second]);
    expect(sequences()).toEqual([1, 2]);
    expect(source.calls).toEqual([0, 0, 1]);
    tail.stop();
  });

  it("keeps what it has and its polling when a read fails, and says so until one succeeds", async () => {
    const source = fakeApi();
    source.add(2);
    const { tail, updates, sequences } = tailOf(source);
    await tail.start(true);
    const unreachable = new Error("unreachable");
    source.fail(unreachable);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tail.current.error).toBe(unreachable);
    expect(sequences()).toEqual([1, 2]);
    source.fail(null);
    source.add(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tail.current.error).toBeUndefined();
    expect(sequences()).toEqual([1, 2, 3]);
    expect(updates.map((update) => update.added)).toEqual([2, 0, 1]);
    tail.stop();
  });

  it("makes no call and no update once stopped, even for a read under way", async () => {
    const source = fakeApi();
    source.add(1);
    const { tail, updates } = tailOf(source);
    const started = tail.start(true);
    tail.stop();
    await started;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(source.calls).toEqual([0]);
    expect(updates).toEqual([]);
  });
});
