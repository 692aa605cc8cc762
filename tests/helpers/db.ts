/** Test tables on the run's DynamoDB Local: one fresh table per call, through the real SDK. */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { type Config, createDb, type Db, ensureTable, loadConfig, waitForDatabase } from "../../core/src/index.js";

export const TEST_API_KEY = `kaizen_${"ab".repeat(32)}`;

/** Webhook secrets every test app is configured with. */
export const TEST_WEBHOOK_SECRETS = {
  codehost: "codehost-test-secret",
  errortracker: "errortracker-test-secret",
  analytics: "analytics-test-secret",
};

/** Both ways a concurrency test runs: AWS's transaction conflicts emulated, and DynamoDB Local as it is. */
export const CONFLICT_MODES = [
  { mode: "AWS conflicts emulated", emulateConflicts: true },
  { mode: "conflicts not emulated", emulateConflicts: false },
] as const;

/**
 * The run's DynamoDB Local for this worker (tests/helpers/setup-dynamodb.ts): vitest numbers its
 * workers 1..maxWorkers (`VITEST_POOL_ID`), and a file runs in one worker, so every table and
 * server of a file is on one instance.
 */
export function dynamodbEndpoint(): string {
  const endpoints = inject("dynamodbEndpoints");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const endpoint = endpoints[(worker - 1) % endpoints.length];
  if (!endpoint) throw new Error("no DynamoDB Local for this run: the tier's global setup did not start one");
  return endpoint;
}

/**
 * A new, empty table under a unique name, and a client bound to it. The client refuses
 * conflicting transactions as DynamoDB on AWS does unless `emulateConflicts` is false. The table
 * has a change stream only with `stream: true`.
 */
export async function freshTable(
  options: { emulateConflicts?: boolean; stream?: boolean } = {},
): Promise<{ db: Db; tableName: string; endpoint: string }> {
  const endpoint = dynamodbEndpoint();
  const tableName = `kaizen_test_${randomBytes(6).toString("hex")}`;
  const db = createDb({ tableName, region: "us-east-1", endpoint, emulateConflicts: options.emulateConflicts ?? true });
  await waitForDatabase(db);
  // Only tables that look at outbound events get a change stream: DynamoDB Local slows down as the
  // streams of the run's many tables grow (core/src/db/stream-reader.ts).
  await ensureTable(db, { stream: options.stream ?? false });
  return { db, tableName, endpoint };
}

/** Configuration as the service would read it, for a test table. */
export function testConfig(overrides: Partial<Config> & { tableName: string; endpoint: string }): Config {
  const { endpoint, ...rest } = overrides;
  return {
    ...loadConfig({ env: { TABLE_NAME: overrides.tableName, DYNAMODB_ENDPOINT: endpoint } }),
    serviceApiKey: TEST_API_KEY,
    webhookSecrets: { ...TEST_WEBHOOK_SECRETS },
    ...rest,
  };
}
