/**
 * @module client/runner/run-settings — the runner's timings: how often it calls a dispatch, how
 * often it posts activities, how long a command has to end after TERM, and how it backs off when
 * nothing is left to claim; each may be changed through the environment (docs/cli.md#kaizen-run).
 */
import type { RunSettings } from "./dispatch-run.js";

/** The defaults: a call every 5 s at least, one activity call a second, 10 s from TERM to KILL, claims again after 2 s doubling to 60 s. */
export const DEFAULT_RUN_SETTINGS: RunSettings = {
  checkMs: 5_000,
  batchMs: 1_000,
  killGraceMs: 10_000,
  pollMs: 2_000,
  maxPollMs: 60_000,
};

/** Each setting's variable, in milliseconds. */
const VARIABLES = {
  checkMs: "KAIZEN_RUN_CHECK_MS",
  batchMs: "KAIZEN_RUN_BATCH_MS",
  killGraceMs: "KAIZEN_RUN_KILL_GRACE_MS",
  pollMs: "KAIZEN_RUN_POLL_MS",
  maxPollMs: "KAIZEN_RUN_MAX_POLL_MS",
} as const satisfies Record<keyof RunSettings, string>;

/**
 * The settings `env` asks for (whole milliseconds, 10 to 3,600,000), the defaults for the rest;
 * `invalid` names a variable that is set to something else.
 * @example runSettings({ KAIZEN_RUN_KILL_GRACE_MS: "500" }) // { settings: { …, killGraceMs: 500 } }
 */
export function runSettings(env: NodeJS.ProcessEnv): { settings: RunSettings; invalid?: string } {
  const settings = { ...DEFAULT_RUN_SETTINGS };
  for (const [field, variable] of Object.entries(VARIABLES) as [keyof RunSettings, string][]) {
    const value = env[variable]?.trim();
    if (!value) continue;
    const ms = Number(value);
    if (!Number.isInteger(ms) || ms < 10 || ms > 3_600_000) {
      return {
        settings,
        invalid: `${variable} must be a whole number of milliseconds from 10 to 3600000 (got ${value})`,
      };
    }
    settings[field] = ms;
  }
  return { settings };
}
