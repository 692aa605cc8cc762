/**
 * @module infra/sweeps — the scheduled sweep: every minute, the watches of merged fixes whose windows have
 * passed end `verified` (docs/api.md#verification), so `issue.verified` goes out within a few
 * minutes of a window's end. Hosted runners' sweep is scheduled with their hand-offs (infra/handoffs.ts).
 * Handler: functions/sweeps.ts.
 */
import { LAMBDA_NODEJS } from "./api.js";
import { table } from "./table.js";

const sweepFunction = (handler: string, link: unknown[]) => ({
  handler,
  runtime: "nodejs20.x" as const,
  architecture: "arm64" as const,
  memory: "512 MB" as const,
  timeout: "60 seconds" as const,
  link,
  nodejs: LAMBDA_NODEJS,
});

export const verificationSchedule = new sst.aws.Cron("VerificationSweep", {
  schedule: "rate(1 minute)",
  function: sweepFunction("functions/sweeps.verify", [table]),
});
