/**
 * @module tests/helpers/setup-dynamodb — global setup of the integration and system tiers: one
 * DynamoDB Local for the whole run (each test file makes its own tables, tests/helpers/db.ts).
 * Both tiers list this setup; when one `vitest run` holds both, they share the one Java process
 * (vitest loads each project's setup apart, so the handle lives on the run's process, not a module).
 */
import type { TestProject } from "vitest/node";
import { type RunningDynamoDb, startDynamoDbLocal } from "../../infra/local/dynamodb.js";

declare module "vitest" {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

const SHARED = Symbol.for("kaizen.tests.dynamodb-local");

interface Shared {
  started: Promise<RunningDynamoDb>;
  users: number;
}

export default async function setup(project: TestProject) {
  const run = globalThis as { [SHARED]?: Shared };
  run[SHARED] ??= { started: startDynamoDbLocal(), users: 0 };
  const shared = run[SHARED];
  shared.users += 1;
  const dynamo = await shared.started;
  project.provide("dynamodbEndpoint", dynamo.endpoint);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete run[SHARED];
    await dynamo.stop();
  };
}
