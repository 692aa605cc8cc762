/** The SDK retry policy of db/create-db.ts: full-jitter backoff under a growing, capped ceiling, and at most two retries. */
import { describe, expect, it } from "vitest";
import {
  DB_MAX_ATTEMPTS,
  DB_RETRY_BASE_MS,
  DB_RETRY_CAP_MS,
  dbRetryDelay,
  dbRetryStrategy,
} from "../../../core/src/db/create-db.js";

/** The ceiling the delay of retry `retry` is drawn under. */
const ceilingOf = (retry: number) => Math.min(DB_RETRY_CAP_MS, DB_RETRY_BASE_MS * 2 ** (retry - 1));

describe("dbRetryDelay", () => {
  it("draws whole milliseconds in [0, ceiling), never above the cap", () => {
    for (let retry = 1; retry <= 12; retry++) {
      for (let draw = 0; draw < 500; draw++) {
        const delay = dbRetryDelay(retry);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceilingOf(retry));
        expect(delay).toBeLessThanOrEqual(DB_RETRY_CAP_MS);
      }
    }
  });

  it("is jittered: many draws for one retry are not all alike, and spread over the range", () => {
    for (const retry of [1, 2, 3, 8]) {
      const draws = Array.from({ length: 400 }, () => dbRetryDelay(retry));
      expect(new Set(draws).size).toBeGreaterThan(10);
      const ceiling = ceilingOf(retry);
      expect(draws.some((delay) => delay < ceiling / 4)).toBe(true);
      expect(draws.some((delay) => delay >= (ceiling * 3) / 4)).toBe(true);
    }
  });

  it("has a ceiling that doubles per retry from the base until the cap, and a floor of zero", () => {
    const highest = (retry: number) => dbRetryDelay(retry, () => 0.999_999);
    expect(highest(1)).toBe(DB_RETRY_BASE_MS - 1);
    expect(highest(2)).toBe(2 * DB_RETRY_BASE_MS - 1);
    const ceilings = Array.from({ length: 12 }, (_, i) => highest(i + 1));
    for (let i = 1; i < ceilings.length; i++) {
      const [previous, current] = [ceilings[i - 1] ?? 0, ceilings[i] ?? 0];
      expect(current).toBeGreaterThanOrEqual(previous);
      if (current < DB_RETRY_CAP_MS - 1) expect(current).toBeGreaterThan(previous);
    }
    expect(ceilings.at(-1)).toBe(DB_RETRY_CAP_MS - 1);
    for (let retry = 1; retry <= 12; retry++) expect(dbRetryDelay(retry, () => 0)).toBe(0);
  });
});

describe("dbRetryStrategy", () => {
  it("allows DB_MAX_ATTEMPTS (3) attempts: two retries of throttling or transient errors, with jittered waits", async () => {
    expect(DB_MAX_ATTEMPTS).toBe(3);
    for (const errorType of ["THROTTLING", "TRANSIENT"] as const) {
      const strategy = dbRetryStrategy();
      expect(await strategy.maxAttempts()).toBe(DB_MAX_ATTEMPTS);
      const first = await strategy.acquireInitialRetryToken("dynamodb");
      const second = await strategy.refreshRetryTokenForRetry(first, { errorType });
      const third = await strategy.refreshRetryTokenForRetry(second, { errorType });
      expect(third.getRetryCount()).toBe(2);
      for (const [token, retry] of [
        [second, 1],
        [third, 2],
      ] as const) {
        const waited = (token as unknown as { $retryLog: { acquisitionDelay: number } }).$retryLog.acquisitionDelay;
        expect(waited).toBeGreaterThanOrEqual(0);
        expect(waited).toBeLessThan(ceilingOf(retry));
      }
      await expect(strategy.refreshRetryTokenForRetry(third, { errorType })).rejects.toThrow(/No retry token/);
    }
  });

  it("never retries a client error (a failed condition, a validation error)", async () => {
    const strategy = dbRetryStrategy();
    const first = await strategy.acquireInitialRetryToken("dynamodb");
    await expect(strategy.refreshRetryTokenForRetry(first, { errorType: "CLIENT_ERROR" })).rejects.toThrow(
      /No retry token/,
    );
  });
});
