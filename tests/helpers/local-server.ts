/** A real local server (infra/local) on the run's DynamoDB Local, for tests that talk HTTP to it. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../../core/src/index.js";
import { freePort } from "../../infra/local/dynamodb.js";
import { type LocalStack, type LocalStackOptions, startLocalStack } from "../../infra/local/stack.js";
import { dynamodbEndpoint, TEST_API_KEY, TEST_WEBHOOK_SECRETS } from "./db.js";

export interface TestServer {
  stack: LocalStack;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** A temporary folder of the test's own; the server keeps its data under `server/` in it. */
  dir: string;
  /** Stops the server and removes the folder. */
  stop(): Promise<void>;
}

/**
 * Starts the local stack on a fresh table named after `name`, with the test key and webhook
 * secrets, on a free port of 127.0.0.1; outbound events only with `events: true`.
 * @example const server = await startTestServer("cli"); afterAll(() => server.stop());
 */
export async function startTestServer(
  name: string,
  options: { config?: Partial<Config> } & Omit<LocalStackOptions, "config" | "dataDir"> = {},
): Promise<TestServer> {
  const { config: overrides, ...stackOptions } = options;
  const config = {
    ...loadConfig({
      env: { DYNAMODB_ENDPOINT: dynamodbEndpoint(), TABLE_NAME: `kaizen_${name}_${Date.now()}` },
    }),
    serviceApiKey: TEST_API_KEY,
    webhookSecrets: { ...TEST_WEBHOOK_SECRETS },
    port: await freePort(),
    ...overrides,
  };
  const dir = mkdtempSync(join(tmpdir(), `kaizen-${name}-`));
  // Outbound events only where a test asks for them: their change stream slows DynamoDB Local for the whole run.
  const stack = await startLocalStack({
    hostname: "127.0.0.1",
    events: false,
    ...stackOptions,
    config,
    dataDir: join(dir, "server"),
  });
  return {
    stack,
    url: stack.url.replace("localhost", "127.0.0.1"),
    dir,
    async stop() {
      await stack.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
