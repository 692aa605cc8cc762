/** One DynamoDB Local for the whole run (each test file makes its own tables), and fresh Lambda bundles. */
import type { TestProject } from "vitest/node";
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
    project.provide("bundles", await buildFunctions());
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
