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
  const [dynamo, bundles] = await Promise.all([startDynamoDbLocal(), buildFunctions()]);
  project.provide("dynamodbEndpoint", dynamo.endpoint);
  project.provide("bundles", bundles);
  return async () => {
    await dynamo.stop();
  };
}
