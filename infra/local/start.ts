/**
 * @module infra/local/start — `npm start`: the embedded local stack on PORT (default 4242).
 * `npm start -- --memory` keeps the database in memory; DYNAMODB_ENDPOINT uses an existing one.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildConsole } from "../../console/build.js";
import { loadConfig } from "../../core/src/index.js";
import { startLocalStack } from "./stack.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== "--memory");
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(" ")}; the only option is --memory`);
  const config = loadConfig({ env: process.env });
  // The console is served from its built files; build them from the sources this clone has.
  await buildConsole();
  const stack = await startLocalStack({ config, dataDir: join(root, ".data"), memory: args.includes("--memory") });

  const keyNote = {
    environment: "from SERVICE_API_KEY",
    stored: "stored in .data/api-key",
    generated: "new; stored in .data/api-key",
  }[stack.apiKeySource];
  console.log(
    [
      `Kaizen is listening on ${stack.url} (DynamoDB at ${stack.endpoint}${args.includes("--memory") ? ", in memory" : ", data in .data/"})`,
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
