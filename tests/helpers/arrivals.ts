/**
 * What a test's local HTTP server (tests/helpers/receiver.ts, tests/helpers/github-stand-in.ts) has
 * received, in arrival order, and a wait for the n-th arrival that fails with what did arrive.
 */

export interface Arrivals<T> {
  /** Everything received so far, in arrival order (the same array as it grows). */
  received: T[];
  /** Records one arrival and wakes every wait it completes. */
  add(item: T): void;
  /** Resolves with `received` once `count` have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<T[]>;
}

/**
 * @param shortfall the rejection's message when only `got` of `count` arrived within `timeoutMs`
 * @example const arrived = arrivals<Received>((got, count, ms) => `receiver got ${got} of ${count} requests in ${ms} ms`);
 */
export function arrivals<T>(shortfall: (got: number, count: number, timeoutMs: number) => string): Arrivals<T> {
  const received: T[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  return {
    received,
    add(item) {
      received.push(item);
      const done = waiters.filter((waiter) => received.length >= waiter.count);
      waiters = waiters.filter((waiter) => received.length < waiter.count);
      for (const waiter of done) waiter.resolve();
    },
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(shortfall(received.length, count, timeoutMs))), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
  };
}
