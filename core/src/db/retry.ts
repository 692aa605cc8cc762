/** @module db/retry — optimistic concurrency: read, write under a condition, and on a lost race read again. */
import { machineClock, type SteadyClock } from "../clock.js";
import { UnavailableError } from "../errors.js";
import { ConditionFailedError, TransactionConflictError } from "./db.js";

/** The 503's message when other writes keep holding what a write needs. */
export const CONCURRENT_CHANGES_MESSAGE = "Too many concurrent changes; retry shortly";

/**
 * Runs `attempt` until it returns, retrying with jittered backoff while it loses races (a
 * transaction conflict, or a failed condition that `isRace` accepts: by default any). After
 * `maxAttempts` the caller gets a 503 so the client retries later.
 * @example await retryRaces(async () => { const read = await get(); await writeIf(read); });
 */
export async function retryRaces<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: { isRace?: (error: ConditionFailedError) => boolean; maxAttempts?: number } = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 80;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      const lostRace =
        error instanceof TransactionConflictError ||
        (error instanceof ConditionFailedError && (options.isRace?.(error) ?? true));
      if (!lostRace) throw error;
      if (n >= maxAttempts) throw new UnavailableError(CONCURRENT_CHANGES_MESSAGE, { cause: error });
      await raceBackoff(n);
    }
  }
}

/**
 * Waits before attempt `n + 1` after `n` lost races: a jittered wait under 10 ms, then 20, 40 …
 * up to 200 ms on `clock`, so writers that lost together do not come back together.
 * @example for (let n = 1; !(await tryOnce()); n++) await raceBackoff(n);
 */
export function raceBackoff(n: number, clock: SteadyClock = machineClock): Promise<void> {
  const ceiling = Math.min(200, 5 * 2 ** Math.min(n, 6));
  return clock.wait(Math.random() * ceiling);
}

/** How long {@link retryConflicts} keeps sending a write that other transactions hold items of. */
const CONFLICT_BUDGET_MS = 10_000;

/**
 * Sends `write` until no other in-flight transaction holds its items: retries transaction
 * conflicts only, with short jittered waits, for up to ten seconds (then a 503). For writes that
 * stay valid however the race ends: commutative updates, and items of their own. A failed
 * condition is not retried here: it means the write was planned on a state that is gone.
 * @example await retryConflicts(() => db.transactWrite(writes));
 */
export async function retryConflicts<T>(write: () => Promise<T>, budgetMs = CONFLICT_BUDGET_MS): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let n = 1; ; n++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof TransactionConflictError)) throw error;
      if (Date.now() >= deadline) throw new UnavailableError(CONCURRENT_CHANGES_MESSAGE, { cause: error });
      // Whoever holds the item is done within a transaction's time: wait about that long.
      const ceiling = Math.min(128, 2 ** Math.min(n, 7));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}

/**
 * Waits before poll `n + 1` of something another request is writing (a delivery being stored, the
 * default templates being seeded): 25–50 ms, doubling up to 200–400 ms, on `clock`.
 * @example for (let n = 1; !(await isStored()); n++) await pollBackoff(n);
 */
export function pollBackoff(n: number, clock: SteadyClock = machineClock): Promise<void> {
  const ceiling = Math.min(400, 25 * 2 ** n);
  return clock.wait(ceiling / 2 + (Math.random() * ceiling) / 2);
}
