/**
 * @module tests/helpers/setup-dynamodb — global setup of the integration and system tiers: one
 * DynamoDB Local per worker of the run (each test file makes its own tables, tests/helpers/db.ts,
 * on its worker's instance). DynamoDB Local does its SQLite work on one thread, so one instance
 * for two workers left a core idle while both waited on it (docs/contributing.md#test-tiers).
 * Both tiers list this setup; when one `vitest run` holds both, they share the instances (vitest
 * loads each project's setup apart, so the handle lives on the run's process, not a module).
 */
import type { TestProject } from "vitest/node";
import { type RunningDynamoDb, startDynamoDbLocal } from "../../infra/local/dynamodb.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** One endpoint per worker of the run; a file reads its own with `dynamodbEndpoint()` (tests/helpers/db.ts). */
    dynamodbEndpoints: string[];
  }
}

const SHARED = Symbol.for("kaizen.tests.dynamodb-local");

interface Shared {
  started: Promise<RunningDynamoDb[]>;
  users: number;
}

export default async function setup(project: TestProject) {
  const run = globalThis as { [SHARED]?: Shared };
  const workers = Math.max(1, project.globalConfig.maxWorkers);
  run[SHARED] ??= { started: Promise.all(Array.from({ length: workers }, () => startDynamoDbLocal())), users: 0 };
  const shared = run[SHARED];
  shared.users += 1;
  const instances = await shared.started;
  project.provide(
    "dynamodbEndpoints",
    instances.map((instance) => instance.endpoint),
  );
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete run[SHARED];
    await Promise.all(instances.map((instance) => instance.stop()));
  };
}
