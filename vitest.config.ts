/**
 * The three test tiers (docs/contributing.md#test-tiers), one vitest project each, every one with
 * only the global setup it needs: `unit` nothing (no Java, no build, no network), `integration`
 * DynamoDB Local, `system` DynamoDB Local plus the built Lambda bundles and console. `npm test`
 * runs all three in one run; `npm run test:<tier>` runs one.
 */
import { defineConfig } from "vitest/config";

/** Files that wait on DynamoDB Local, a child process or a browser leave a core idle: run more of them than cores. */
const WAITING_WORKERS = 4;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: WAITING_WORKERS,
    env: { POWERTOOLS_LOG_LEVEL: "SILENT", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    coverage: {
      provider: "v8",
      include: ["core/src/**", "client/**", "functions/**", "infra/**", "scripts/**", "console/**", "bin/**"],
      reporter: ["text-summary", "json-summary", "html"],
    },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/setup-dynamodb.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: ["tests/system/**/*.test.ts"],
          globalSetup: ["tests/helpers/setup-dynamodb.ts", "tests/helpers/setup-build.ts"],
        },
      },
    ],
  },
});
