/**
 * @module bench/signal-seed — fills the table with recorded code-host pushes through the receivers'
 * own ingest (`SignalService.ingest`, one after another, as a steady stream of deliveries would
 * arrive), and remembers the ids they got.
 */
import type { SignalService } from "../core/src/signals/service.js";
import { codehostDelivery, draftOf, pushEvent } from "./deliveries.js";

export interface SignalSeedSummary {
  count: number;
  durationMs: number;
  /** Ids in the order they were ingested. */
  ids: string[];
}

/** Ingests `count` signed `push` deliveries, calling `progress` every `every` signals. */
export async function seedSignals(
  service: SignalService,
  count: number,
  progress: (done: number, elapsedMs: number) => void,
  every = 1_000,
): Promise<SignalSeedSummary> {
  const ids: string[] = [];
  const started = performance.now();
  for (let i = 1; i <= count; i++) {
    const { signal, duplicate } = await service.ingest(draftOf(codehostDelivery("push", pushEvent(i))));
    if (duplicate) throw new Error(`seeded push ${i} was taken for a duplicate`);
    ids.push(signal.id);
    if (i % every === 0 || i === count) progress(i, performance.now() - started);
  }
  return { count, durationMs: performance.now() - started, ids };
}
