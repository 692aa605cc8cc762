/** One DynamoDB Local for the whole run (each test file makes its own tables), fresh Lambda bundles and a fresh console build. */
import type { TestProject } from "vitest/node";
import { buildConsole } from "../../console/build.js";
import { startDynamoDbLocal } from "../../infra/local/dynamodb.js";
import { buildFunctions } from "../../scripts/build.js";

declare module "vitest" {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    bundles: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  try {
    const [bundles] = await Promise.all([buildFunctions(), buildConsole()]);
    project.provide("bundles", bundles);
  } catch (error) {
    // No teardown runs when setup fails: stop DynamoDB Local here so it does not outlive the run.
    await dynamo.stop();
    throw error;
  }
  project.provide("dynamodbEndpoint", dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}
