/**
 * A clock tests move on instead of sleeping (core/src/clock.ts): passed as the app's clock, it is the
 * time services act at and the time their deadlines and waits run on.
 */
import type { SteadyClock } from "../../core/src/clock.js";

export interface TestClock extends SteadyClock {
  /** Moves the clock on by `ms`, as that much time passing would. */
  advance(ms: number): void;
  /** Milliseconds the clock has moved on since it was made. */
  elapsed(): number;
}

/**
 * A clock that reads `start` until moved: by `advance`, or by a wait, which moves it on by its whole
 * length at once (then lets pending I/O run) — a service waiting 1 s goes on 1 s later at once.
 * @example const clock = testClock(); const t = await testApp({ clock }); clock.advance(5_000);
 */
export function testClock(start = Date.now()): TestClock {
  let now = start;
  const advance = (ms: number) => {
    now += ms;
  };
  return Object.assign(() => new Date(now), {
    advance,
    elapsed: () => now - start,
    wait: async (ms: number) => {
      advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
  });
}
