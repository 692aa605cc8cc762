/**
 * @module signals/signal-actions — what an arriving signal did (docs/api.md#signals), without zod: ./schemas.ts
 * validates against it, and the CLI offers it as a choice without loading a schema.
 */

export const SIGNAL_ACTIONS = ["opened", "grouped", "closed_loop", "review", "regressed", "recorded"] as const;
export type SignalAction = (typeof SIGNAL_ACTIONS)[number];
