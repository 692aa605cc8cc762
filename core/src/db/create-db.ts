/**
 * @module db/create-db — the DynamoDB client as the service builds it: the SDK's retries (full
 * jitter, at most two), timeouts, kept-alive connections, and the conflict emulator for DynamoDB Local.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ConfiguredRetryStrategy } from "@smithy/core/retry";
import { conflictEmulatorFor, emulateConflicts } from "./conflict-emulator.js";
import { Db } from "./db.js";

/** Connection settings for {@link createDb}. */
export interface DbOptions {
  tableName: string;
  region: string;
  endpoint?: string | undefined;
  /**
   * Refuse writes that touch an item another in-flight transaction of this process holds, as
   * DynamoDB on AWS does (db/conflict-emulator.ts). For DynamoDB Local, which never refuses them.
   */
  emulateConflicts?: boolean | undefined;
}

/**
 * Wire attempts per DynamoDB call: the first and at most two SDK retries of what the SDK deems
 * retryable (throttling, 5xx, timeouts, connection errors). A call that fails all of them becomes
 * a 503 with `Retry-After`: the caller retries later rather than a function waiting longer.
 */
export const DB_MAX_ATTEMPTS = 3;
/** Ceiling of the wait before the first retry; each later retry doubles it, up to {@link DB_RETRY_CAP_MS}. */
export const DB_RETRY_BASE_MS = 100;
/** No wait between two attempts is longer than this. */
export const DB_RETRY_CAP_MS = 2_000;

/**
 * The SDK's wait before retry number `retry` (1 for the first retry): "full jitter", a uniform
 * draw from [0, min(cap, base × 2^(retry−1))), so clients throttled together do not retry
 * together, and no wait exceeds the cap.
 * @example dbRetryDelay(1) // 0..99 ms; dbRetryDelay(2) // 0..199 ms
 */
export function dbRetryDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(DB_RETRY_CAP_MS, DB_RETRY_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The SDK's standard retry strategy (its retry quota included: when many calls fail, retries stop
 * and calls fail at once) with {@link DB_MAX_ATTEMPTS} and {@link dbRetryDelay}.
 */
export function dbRetryStrategy(): ConfiguredRetryStrategy {
  return new ConfiguredRetryStrategy(DB_MAX_ATTEMPTS, (retry) => dbRetryDelay(retry));
}

/**
 * Connections one client keeps open to DynamoDB at most (the SDK's default is 50): a server taking
 * a burst of requests, each making a few calls at once, would otherwise queue calls in the client.
 */
const MAX_SOCKETS = 256;

/** Builds the client from connection settings; made once per process at module scope by callers. */
export function createDb(options: DbOptions): Db {
  const client = new DynamoDBClient({
    region: options.region,
    maxAttempts: DB_MAX_ATTEMPTS,
    retryStrategy: dbRetryStrategy(),
    requestHandler: {
      connectionTimeout: 2000,
      requestTimeout: 5000,
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
    },
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          // DynamoDB Local accepts any credentials; real ones are used when the environment has them.
          ...(process.env.AWS_ACCESS_KEY_ID ? {} : { credentials: { accessKeyId: "local", secretAccessKey: "local" } }),
        }
      : {}),
  });
  // A Lambda bundle carries no emulator (its build's define makes this false, openapi/text.ts): on
  // AWS, DynamoDB refuses conflicting transactions itself.
  if (options.emulateConflicts && !globalThis.KAIZEN_LAMBDA_BUNDLE) {
    emulateConflicts(client, conflictEmulatorFor(options.endpoint));
  }
  return new Db(client, options.tableName);
}
