/** @module bench/env — the bench's settings, read from the environment and checked once. */

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

/** How the local server answers: one app in one process, or a fleet of one-request instances as Lambda runs them. */
export const BENCH_MODELS = ["server", "fleet"] as const;
export type BenchModel = (typeof BENCH_MODELS)[number];

/**
 * The value `name` holds among `choices` (case-insensitive), or `fallback` when it is unset or blank; throws for any other.
 * @example choiceEnv("BENCH_LOAD_MODEL", BENCH_MODELS, "server")
 */
export function choiceEnv<T extends string>(name: string, choices: readonly T[], fallback: T): T {
  const raw = process.env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  const value = choices.find((choice) => choice === raw);
  if (value === undefined) throw new Error(`${name} must be one of ${choices.join(", ")}, got "${raw}"`);
  return value;
}

/** Every setting of a run, by the variable that sets it. */
export function benchSettings() {
  return {
    /** Issues seeded for the lists, and issues queued for the long-queue claim. */
    BENCH_ISSUES: intEnv("BENCH_ISSUES", 10_000, 20),
    /** Signals seeded before the signal reads are costed. */
    BENCH_SIGNALS: intEnv("BENCH_SIGNALS", 3_000, 1),
    /**
     * Fresh imports of each bundle, each paired with one of the reference (the init figure is the
     * median ratio): 41, because on a busy machine the median of fewer moves by several hundredths.
     */
    BENCH_INIT_RUNS: intEnv("BENCH_INIT_RUNS", 41, 10),
    BENCH_THROUGHPUT_SECONDS: intEnv("BENCH_THROUGHPUT_SECONDS", 10, 1),
    /**
     * Requests per burst (a claim burst runs against max(200, 2 × it) eligible issues), and rounds of
     * each burst (one run each way per round); every burst runs in both models, both conflict modes.
     */
    BENCH_BURST: intEnv("BENCH_BURST", 100, 4),
    BENCH_BURST_ROUNDS: intEnv("BENCH_BURST_ROUNDS", 3, 1),
    /** Only the bursts whose name contains this text (`one fingerprint`, `claim`); blank: every burst. */
    BENCH_BURST_ONLY: process.env.BENCH_BURST_ONLY?.trim() ?? "",
    /** The sustained load: long enough (150 s) for vanished agents' 60 s leases to run out and be claimed again. */
    BENCH_LOAD_SECONDS: intEnv("BENCH_LOAD_SECONDS", 150, 5),
    /**
     * Connections of each autocannon route of the load, and agents working at once: 50 by default,
     * the number of agents polling at which the fleet's claim p99 is held to its budget.
     */
    BENCH_LOAD_CONNECTIONS: intEnv("BENCH_LOAD_CONNECTIONS", 2, 1),
    BENCH_LOAD_AGENTS: intEnv("BENCH_LOAD_AGENTS", 50, 1),
    /**
     * Requests per second of each autocannon route (3 by default, so that the agents' own requests
     * are what loads the stack); 0: each as fast as it is answered.
     */
    BENCH_LOAD_RATE: intEnv("BENCH_LOAD_RATE", 3, 0),
    /**
     * Seconds an agent works on a dispatch (heartbeating) before it completes it, on average (20 by
     * default, as agents that do the task would); 0: a second or two, so that agents claim again as
     * fast as the stack lets them.
     */
    BENCH_LOAD_WORK_SECONDS: intEnv("BENCH_LOAD_WORK_SECONDS", 20, 0),
    /**
     * Seconds over which the agents join, one after another at even intervals, as agents started by
     * people and schedulers do; 0: all at the first instant. All at once is the claims burst's case
     * (the bursts section), so the load measures agents polling, not their start.
     */
    BENCH_LOAD_RAMP_SECONDS: intEnv("BENCH_LOAD_RAMP_SECONDS", 10, 0),
    /**
     * `fleet` (the default) runs the load against a fleet of one-request instances, where the claim
     * p99 of 50 agents is held to its budget; `server` runs it against one server, as `npm start` does.
     */
    BENCH_LOAD_MODEL: choiceEnv("BENCH_LOAD_MODEL", BENCH_MODELS, "fleet"),
    /** `off` (or 0, false) runs the load without AWS's transaction conflicts emulated. */
    BENCH_LOAD_EMULATE_CONFLICTS: ["0", "off", "false"].includes(
      (process.env.BENCH_LOAD_EMULATE_CONFLICTS ?? "on").toLowerCase(),
    )
      ? "off"
      : "on",
  };
}

export type BenchSettings = ReturnType<typeof benchSettings>;

/** The settings as the command line that repeats them. */
export function settingsLine(settings: BenchSettings): string {
  return Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
}
