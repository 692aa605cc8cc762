/**
 * @module clock — the time services act at, and how long they wait: the machine's clock and timers
 * unless the app's deps name a clock of their own (`AppDeps.clock`), as tests do to move time on
 * instead of sleeping through it.
 */
import { setTimeout as sleep } from "node:timers/promises";

/**
 * The instant services act at (leases, scores, ids). A clock that can also `wait` is the time the
 * services' deadlines, waits and cached answers run on ({@link steadyClock}); a reading alone (a
 * test's fixed or shifted instant) leaves those to the machine's clock, on which a wait ends.
 */
export interface Clock {
  (): Date;
  /** Resolves once `ms` milliseconds have passed on this clock. */
  wait?: (ms: number) => Promise<void>;
}

/** A clock whose readings move on as its waits pass: what deadlines and waits are counted on. */
export interface SteadyClock extends Clock {
  wait: (ms: number) => Promise<void>;
}

/** The machine's clock and its timers. */
export const machineClock: SteadyClock = Object.assign(() => new Date(), { wait: (ms: number) => sleep(ms) });

/**
 * What deadlines and waits run on under `clock`: itself when it can wait, else the machine's clock.
 * @example const steady = steadyClock(deps.clock); const deadline = steady().getTime() + 5_000;
 */
export function steadyClock(clock: Clock | undefined): SteadyClock {
  return clock?.wait ? (clock as SteadyClock) : machineClock;
}
