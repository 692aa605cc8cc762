/** @module bench/env — the bench's settings from the environment, checked. */

/**
 * The integer `name` holds, or `fallback` when it is unset or blank; throws below `min` or for a non-integer.
 * @example intEnv("BENCH_ISSUES", 10_000, 1)
 */
export function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

/** The sustained load's settings (./load.ts): BENCH_LOAD_SECONDS, _CONNECTIONS, _AGENTS, _EMULATE_CONFLICTS. */
export function loadSettings(): { seconds: number; connections: number; agents: number; emulateConflicts: boolean } {
  return {
    seconds: intEnv("BENCH_LOAD_SECONDS", 150, 5),
    connections: intEnv("BENCH_LOAD_CONNECTIONS", 2, 1),
    agents: intEnv("BENCH_LOAD_AGENTS", 30, 1),
    emulateConflicts: !["0", "off", "false"].includes((process.env.BENCH_LOAD_EMULATE_CONFLICTS ?? "on").toLowerCase()),
  };
}
