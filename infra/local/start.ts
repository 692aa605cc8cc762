/**
 * @module infra/local/start — `npm start`: the embedded local stack on PORT (default 4242).
 * `npm start -- --memory` keeps the database in memory; DYNAMODB_ENDPOINT uses an existing one.
 * What can refuse the start (an unknown option, the configuration, no Java) is checked before the
 * service's code is loaded; DynamoDB Local then boots while that code loads and the console builds.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../core/src/config.js";
import { dynamoDataDir, startDynamoDbLocal } from "./dynamodb.js";
import type { LocalStack } from "./stack.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== "--memory");
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(" ")}; the only option is --memory`);
  const config = loadConfig({ env: process.env });
  const memory = args.includes("--memory");
  const dataDir = join(root, ".data");
  // Java takes seconds to boot DynamoDB Local: it starts first (saying so when there is no Java).
  const dynamo = config.dynamodbEndpoint
    ? undefined
    : await startDynamoDbLocal(memory ? {} : { dataDir: dynamoDataDir(dataDir) });
  let stack: LocalStack;
  try {
    // The console is served from its built files; build them from the sources this clone has.
    const [{ startLocalStack }] = await Promise.all([
      import("./stack.js"),
      import("../../console/build.js").then(({ buildConsole }) => buildConsole()),
    ]);
    stack = await startLocalStack({ config, dataDir, memory, ...(dynamo ? { dynamo } : {}) });
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }

  const keyNote = {
    environment: "from SERVICE_API_KEY",
    stored: "stored in .data/api-key",
    generated: "new; stored in .data/api-key",
  }[stack.apiKeySource];
  console.log(
    [
      `Kaizen is listening on ${stack.url} (DynamoDB at ${stack.endpoint}${memory ? ", in memory" : ", data in .data/"})`,
      `API key (${keyNote}): ${stack.apiKey}`,
      ...(stack.seededTemplates.length > 0 ? [`Default templates created: ${stack.seededTemplates.join(", ")}`] : []),
      `Console: ${stack.url}/app (sign in with the API key)`,
      `Try: curl -H "Authorization: Bearer ${stack.apiKey}" ${stack.url}/api/issues`,
      "Press Ctrl-C to stop.",
    ].join("\n"),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, stopping…`);
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(`kaizen: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
