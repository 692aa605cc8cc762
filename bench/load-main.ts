/**
 * @module bench/load-main — `npm run bench:load`: the sustained mixed load (./load.ts) and its audit,
 * printed as tables. Exits 0 when it could measure and the run was clean; exits 1 when the audit
 * found a violation or any answer was a 5xx (and when it could not run at all). `npm run bench`
 * runs the same load as its last section.
 *
 * Environment: BENCH_LOAD_SECONDS (default 150: long enough for vanished agents' 60 s leases to run
 * out and their issues to be claimed again), BENCH_LOAD_CONNECTIONS (per autocannon route, default 2),
 * BENCH_LOAD_AGENTS (default 30), BENCH_LOAD_EMULATE_CONFLICTS (default on).
 */
import { loadSettings } from "./env.js";
import { runLoad } from "./load.js";
import { renderLoadReport } from "./load-report.js";

// The SDK's Node-version notice; older SDKs read the first name, the installed one reads the second.
process.env.AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING ??= "1";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

async function main(): Promise<number> {
  const report = await runLoad({
    ...loadSettings(),
    command: [
      ...Object.entries(process.env)
        .filter(([name]) => name.startsWith("BENCH_LOAD_"))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, value]) => `${name}=${value}`),
      "npm run bench:load",
    ].join(" "),
    log: (line) => console.log(line),
  });
  console.log(renderLoadReport(report));
  return report.audit.ok && report.total.fiveXx === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:load failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
