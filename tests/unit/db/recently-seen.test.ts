/** RecentlySeen: keys remembered for a while in a process, the oldest forgotten past capacity. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RecentlySeen } from "../../../core/src/db/in-flight.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("RecentlySeen", () => {
  it("holds a key for its time to live, then forgets it", () => {
    vi.useFakeTimers();
    const seen = new RecentlySeen(1_000);
    expect(seen.has("a")).toBe(false);
    seen.remember("a");
    vi.advanceTimersByTime(999);
    expect(seen.has("a")).toBe(true);
    vi.advanceTimersByTime(1);
    expect(seen.has("a")).toBe(false);
  });

  it("remembering again starts the time over", () => {
    vi.useFakeTimers();
    const seen = new RecentlySeen(1_000);
    seen.remember("a");
    vi.advanceTimersByTime(800);
    seen.remember("a");
    vi.advanceTimersByTime(800);
    expect(seen.has("a")).toBe(true);
  });

  it("keeps at most its capacity, forgetting the least recently remembered", () => {
    const seen = new RecentlySeen(60_000, 2);
    seen.remember("a");
    seen.remember("b");
    seen.remember("a");
    seen.remember("c");
    expect([seen.has("a"), seen.has("b"), seen.has("c")]).toEqual([true, false, true]);
  });
});
