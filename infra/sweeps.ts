/**
 * @module infra/sweeps — the scheduled sweep: every minute, the watches of merged fixes whose windows have
 * passed end `verified` (docs/api.md#verification), so `issue.verified` goes out within a few
 * minutes of a window's end. Hosted runners' sweep is scheduled with their hand-offs (infra/handoffs.ts).
 * Handler: functions/sweeps.ts.
 */
import { backgroundFunction } from "./api.js";
import { table } from "./table.js";

export const verificationSchedule = new sst.aws.Cron("VerificationSweep", {
  schedule: "rate(1 minute)",
  function: backgroundFunction("functions/sweeps.verify", [table]),
});
