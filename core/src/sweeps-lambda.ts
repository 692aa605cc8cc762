/**
 * @module sweeps-lambda — the scheduled sweep's Lambda handler (functions/sweeps.ts): `verify` ends the
 * quiet watches of merged fixes (docs/api.md#verification). Hosted runners' sweep runs with their
 * hand-offs (handoffs-lambda.ts). Configuration and the DynamoDB client are made once per instance,
 * as lambda.ts does for the HTTP families.
 */
import type { ScheduledEvent } from "aws-lambda";
import { deployedDeps } from "./deployed.js";
import { VERIFICATIONS_PER_SWEEP } from "./issues/verification-sweep.js";
import { verificationSweep } from "./services.js";

/** A sweep stops taking more batches after this long, well inside the function's timeout. */
const SWEEP_BUDGET_MS = 40_000;

export interface SweepHandlers {
  /** The schedule's tick: ends every watch whose window has passed, a batch at a time, within the budget. */
  verify(event: ScheduledEvent): Promise<void>;
}

/** @example export const { verify } = sweepHandlers(); */
export function sweepHandlers(): SweepHandlers {
  const sweep = verificationSweep(deployedDeps());
  return {
    async verify() {
      const started = Date.now();
      while ((await sweep.sweep()) >= VERIFICATIONS_PER_SWEEP && Date.now() - started < SWEEP_BUDGET_MS);
    },
  };
}
