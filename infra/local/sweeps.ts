/**
 * @module infra/local/sweeps — the scheduled sweeps on one machine: the watches of merged fixes whose
 * windows have passed end `verified` (docs/api.md#verification), and, with the service's configuration,
 * hosted runners are filled up (docs/api.md#hosted-runners), every {@link VERIFY_INTERVAL_MS} (deployed:
 * schedules, functions/sweeps.ts).
 */
import type { Config } from "../../core/src/config.js";
import type { Db } from "../../core/src/db/db.js";
import { VERIFICATIONS_PER_SWEEP } from "../../core/src/issues/verification-sweep.js";
import type { OutboundGuard } from "../../core/src/outbound-guard.js";
import type { RunnerHandoffOptions } from "../../core/src/runners/runner-handoffs.js";
import { runnerHandoffs, verificationSweep } from "../../core/src/services.js";

/** How often ended watches are looked for. */
export const VERIFY_INTERVAL_MS = 15_000;

export interface LocalSweeps {
  /** Runs a sweep now and resolves once it is done (tests that move the clock). */
  sweepNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the sweeps; `log` hears what went wrong. */
export function startLocalSweeps(
  deps: { db: Db; clock?: () => Date; config?: Config; outboundGuard?: OutboundGuard },
  log: (message: string, error?: unknown) => void = (message, error) => console.error(message, error ?? ""),
  intervalMs = VERIFY_INTERVAL_MS,
  runners: Partial<RunnerHandoffOptions> = {},
): LocalSweeps {
  const sweep = verificationSweep(deps);
  const { config } = deps;
  const handoffs = config ? runnerHandoffs(deps as typeof deps & { config: Config }, runners) : undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  let running: Promise<void> = Promise.resolve();
  const once = () => {
    running = running.then(async () => {
      try {
        while (!stopped && (await sweep.sweep()) >= VERIFICATIONS_PER_SWEEP);
      } catch (error) {
        if (!stopped) log("kaizen: sweeping verifications failed", error);
      }
      try {
        if (!stopped) await handoffs?.sweep();
      } catch (error) {
        if (!stopped) log("kaizen: sweeping hosted runners failed", error);
      }
    });
    return running;
  };
  const looping = (async () => {
    while (!stopped) {
      await once();
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs).unref();
      });
    }
  })();
  return {
    sweepNow: once,
    async stop() {
      stopped = true;
      wake?.();
      await looping;
      await running;
    },
  };
}
