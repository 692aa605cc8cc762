/**
 * @module infra/local/events — outbound events on one machine (docs/api.md#outbound-events): the table's change
 * stream, read from DynamoDB Local, goes to the same handler the deployed stream's Lambda calls,
 * and due retries are swept every second (deployed: functions/events.ts). Both run beside the
 * server, so no request waits on a destination. Everything they need is in the table: a restart
 * resumes the stream after its checkpoint and the retries where their due times say. With the
 * service's configuration, the same batches also drive hosted runners' hand-offs (docs/api.md#hosted-runners).
 */
import type { Config } from "../../core/src/config.js";
import type { Db } from "../../core/src/db/db.js";
import { startStreamReader } from "../../core/src/db/stream-reader.js";
import type { OutboundGuard } from "../../core/src/outbound-guard.js";
import type { RunnerHandoffOptions } from "../../core/src/runners/runner-handoffs.js";
import { eventDeliveries, runnerHandoffs } from "../../core/src/services.js";

/** How often due retries are looked for. */
export const SWEEP_INTERVAL_MS = 1_000;

/** What tests change of the local events; `npm start` takes the defaults. */
export interface LocalEventsOptions {
  /** How long a destination has to answer an attempt; the documented 10 s (SEND_TIMEOUT_MS) when omitted. */
  sendTimeoutMs?: number;
  /** How often due retries are looked for; {@link SWEEP_INTERVAL_MS} when omitted. */
  sweepIntervalMs?: number;
  /** How hosted runners reach GitHub, where a test changes it (its stand-in's timeout). */
  runners?: Partial<RunnerHandoffOptions>;
}

export interface LocalEvents {
  /** Resolves once every change written before the call has been handled (for tests). */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts reading the table's stream and sweeping due retries; `log` hears what went wrong. */
export async function startLocalEvents(
  deps: { db: Db; clock?: () => Date; config?: Config; outboundGuard?: OutboundGuard },
  log: (message: string, error?: unknown) => void = (message, error) => console.error(message, error ?? ""),
  options: LocalEventsOptions = {},
): Promise<LocalEvents> {
  const { sendTimeoutMs, sweepIntervalMs = SWEEP_INTERVAL_MS } = options;
  const deliveries = eventDeliveries(deps, sendTimeoutMs === undefined ? {} : { sendTimeoutMs });
  const { config } = deps;
  const handoffs = config ? runnerHandoffs(deps as typeof deps & { config: Config }, options.runners) : undefined;
  const reader = await startStreamReader({
    db: deps.db,
    onChanges: async (changes) => {
      await Promise.all([deliveries.handleChanges(changes), handoffs?.handleChanges(changes)]);
    },
    log,
  });
  let stopped = false;
  let wake: (() => void) | undefined;
  const sweeping = (async () => {
    while (!stopped) {
      try {
        // Sweep until nothing more is due, then wait.
        while (!stopped && (await deliveries.sweep()) > 0);
      } catch (error) {
        if (!stopped) log("kaizen: sweeping event deliveries failed", error);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, sweepIntervalMs).unref();
      });
    }
  })();
  return {
    drained: () => reader.drained(),
    async stop() {
      stopped = true;
      wake?.();
      await Promise.all([reader.stop(), sweeping]);
    },
  };
}
