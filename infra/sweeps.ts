/**
 * @module infra/sweeps — scheduled sweeps: every minute, the watches of merged fixes whose windows have
 * passed end `verified` (docs/api.md#verification), so `issue.verified` goes out within a few
 * minutes of a window's end. Handler: functions/sweeps.ts.
 */
import { table } from "./table.js";

export const verificationSchedule = new sst.aws.Cron("VerificationSweep", {
  schedule: "rate(1 minute)",
  function: {
    handler: "functions/sweeps.verify",
    runtime: "nodejs20.x",
    architecture: "arm64",
    memory: "512 MB",
    timeout: "60 seconds",
    link: [table],
    nodejs: { format: "esm", minify: true, sourcemap: true, splitting: true },
  },
});
