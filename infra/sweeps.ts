/**
 * @module infra/sweeps — scheduled sweeps: every minute, the watches of merged fixes whose windows have
 * passed end `verified` (docs/api.md#verification), so `issue.verified` goes out within a few
 * minutes of a window's end; and every minute hosted runners are filled up and their hand-offs
 * repaired (docs/api.md#hosted-runners). Handlers: functions/sweeps.ts.
 */
import { api, deployedEnvironment } from "./api.js";
import { table } from "./table.js";

const sweepFunction = (handler: string, link: unknown[]) => ({
  handler,
  runtime: "nodejs20.x" as const,
  architecture: "arm64" as const,
  memory: "512 MB" as const,
  timeout: "60 seconds" as const,
  link,
  nodejs: { format: "esm" as const, minify: true, sourcemap: true, splitting: true },
});

export const verificationSchedule = new sst.aws.Cron("VerificationSweep", {
  schedule: "rate(1 minute)",
  function: sweepFunction("functions/sweeps.verify", [table]),
});

/** The API linked for its URL (`kaizenUrl` in each hand-off, unless PUBLIC_BASE_URL names another). */
export const runnerSchedule = new sst.aws.Cron("RunnerSweep", {
  schedule: "rate(1 minute)",
  function: {
    ...sweepFunction("functions/sweeps.runners", [table, api]),
    ...(Object.keys(deployedEnvironment).length === 0 ? {} : { environment: deployedEnvironment }),
  },
});
