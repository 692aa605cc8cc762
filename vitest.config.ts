/**
 * The three test tiers (docs/contributing.md#test-tiers), one vitest project each, every one with
 * only the global setup it needs: `unit` nothing (no Java, no build, no network), `integration`
 * DynamoDB Local, `system` DynamoDB Local plus the built Lambda bundles and console. `npm test`
 * runs all three in one run; `npm run test:<tier>` runs one.
 */
import { defineConfig } from "vitest/config";

/**
 * Test files side by side: vitest's default on a 2-core machine is one at a time (cores - 1), which
 * leaves a core idle whenever a file waits on DynamoDB Local, a child process or a timer. Two keep
 * both cores busy; more starve DynamoDB Local and the tests that hold a deadline in wall-clock time
 * (the fleet, CLI and outbound-event tests). `--maxWorkers` overrides it for one run.
 */
const WORKERS = 2;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: WORKERS,
    env: { POWERTOOLS_LOG_LEVEL: "SILENT", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    // `npm run coverage`: what the tests' own processes run (the console's browser code runs in
    // Chromium and the CLI in child processes, so v8 sees neither).
    coverage: {
      provider: "v8",
      include: ["core/src/**", "client/**", "functions/**", "infra/local/**", "scripts/**", "console/build.ts"],
      reporter: ["text-summary", "json-summary", "html"],
      reportOnFailure: true,
    },
    projects: [
      {
        extends: true,
        // Unit files share modules within a worker: none keeps state between files, and loading core
        // anew for each file was about half the tier's time. A file that replaces a module (`vi.mock`)
        // loads what it tests afresh after `vi.resetModules()`.
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], isolate: false },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/setup-dynamodb.ts"],
          // Files share a worker (no new process per file), which keeps the packages loaded: a third
          // less CPU for the tier (docs/contributing.md#test-tiers). Kaizen's own modules are loaded
          // afresh for each file, so no file sees state another left in them.
          isolate: false,
          setupFiles: ["tests/helpers/fresh-modules.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: ["tests/system/**/*.test.ts"],
          globalSetup: ["tests/helpers/setup-dynamodb.ts", "tests/helpers/setup-build.ts"],
          // A browser's page settles in its own time: `expect.poll` ends as soon as the page shows what
          // is asserted, and waits up to 10 s (not vitest's 1 s) on a machine busy with other files.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
