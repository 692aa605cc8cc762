/** Built Lambda bundles, loaded and invoked as the Lambda runtime would. */
import { pathToFileURL } from "node:url";
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context, ScheduledEvent } from "aws-lambda";
import { inject } from "vitest";
import { freshTable, TEST_API_KEY } from "./db.js";

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
type Result = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded: boolean };

const lambdaContext = { functionName: "test", awsRequestId: "aws-req-1" } as Context;
let loads = 0;

/**
 * Imports a function's bundle (`name`: its file in functions/) afresh with the given environment, as a
 * cold start would; its exports, as `T` says they are.
 */
export async function loadBundle<T>(name: string, env: Record<string, string | undefined>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete process.env[key];
  try {
    return (await import(`${pathToFileURL(inject("bundles")[name] ?? "").href}?load=${++loads}`)) as T;
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** Imports a family's bundle afresh with the given environment, as a cold start would: its HTTP handler. */
export async function loadHandler(family: string, env: Record<string, string | undefined>): Promise<Handler> {
  return (await loadBundle<{ handler: Handler }>(family, env)).handler;
}

/** A schedule's tick, as EventBridge Scheduler hands it to a function. */
export function scheduledTick(rule: string): ScheduledEvent {
  return {
    version: "0",
    id: `tick-${rule}`,
    "detail-type": "Scheduled Event",
    source: "aws.events",
    account: "123456789012",
    time: new Date().toISOString(),
    region: "us-east-1",
    resources: [`arn:aws:events:us-east-1:123456789012:rule/${rule}`],
    detail: {},
  };
}

/** Invokes a handler; the answer with its body as text and parsed (empty bodies parse to {}). */
export async function invoke(handler: Handler, event: APIGatewayProxyEventV2) {
  const result = (await handler(event, lambdaContext)) as Result;
  const text = result.isBase64Encoded ? Buffer.from(result.body, "base64").toString("utf8") : result.body;
  return { ...result, text, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** A fresh table and the environment a deployed function would run with on it (plus `extra`). */
export async function deployedEnv(extra: Record<string, string> = {}, options: { stream?: boolean } = {}) {
  const { tableName, endpoint } = await freshTable(options);
  const env = {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    SERVICE_API_KEY: TEST_API_KEY,
    AWS_REGION: "us-east-1",
    ...extra,
  };
  return { env, tableName, endpoint };
}
