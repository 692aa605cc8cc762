/** @module db/retry — optimistic concurrency: read, write under a condition, and on a lost race read again. */
import { UnavailableError } from "../errors.js";
import { ConditionFailedError, TransactionConflictError } from "./client.js";

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
      if (n >= maxAttempts) throw new UnavailableError("Too many concurrent changes; retry shortly", { cause: error });
      const ceiling = Math.min(200, 5 * 2 ** Math.min(n, 6));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}
