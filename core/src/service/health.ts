/** @module service/health — the database check behind `GET /health`, cached so probes stay cheap. */
import { type Clock, steadyClock } from "../clock.js";
import type { Db } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import type { CheckStatus } from "./schemas.js";

export type { CheckStatus };

/** Sentinel key read by the check; it never holds an item. */
const HEALTH_KEY = { pk: keyPrefix("health"), sk: keyPrefix("health") };

/**
 * Reads one key with a deadline and remembers the outcome for `ttlMs`, aged on `clock` (when it can
 * wait: core/src/clock.ts). The read's deadline is the machine's: it bounds a call over the network.
 * @example const check = databaseCheck(db); await check(); // "ok"
 */
export function databaseCheck(
  db: Db,
  { ttlMs = 5_000, timeoutMs = 2_000, clock }: { ttlMs?: number; timeoutMs?: number; clock?: Clock } = {},
): () => Promise<CheckStatus> {
  const steady = steadyClock(clock);
  let cached: { status: CheckStatus; at: number } | undefined;
  let inFlight: Promise<CheckStatus> | undefined;
  return async () => {
    if (cached && steady().getTime() - cached.at < ttlMs) return cached.status;
    inFlight ??= probe(db, timeoutMs).then((status) => {
      cached = { status, at: steady().getTime() };
      inFlight = undefined;
      return status;
    });
    return inFlight;
  };
}

async function probe(db: Db, timeoutMs: number): Promise<CheckStatus> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CheckStatus>((resolve) => {
    timer = setTimeout(() => resolve("unreachable"), timeoutMs);
  });
  const read = db.get(HEALTH_KEY).then(
    (): CheckStatus => "ok",
    (): CheckStatus => "unreachable",
  );
  try {
    return await Promise.race([read, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
