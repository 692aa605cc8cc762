/**
 * @module testkit/fleet — the app served as AWS Lambda serves it: a pool of instances, each
 * with its own DynamoDB client and its own services, each answering one request at a time; a new
 * instance is made whenever every one is busy. Nothing in-process is shared between instances but
 * the conflict emulator of the endpoint (db/conflict-emulator.ts), which stands for DynamoDB itself.
 * The bench imports it too (bench/server.ts), so it takes its configuration instead of reading vitest's.
 */

import type { Hono } from "hono";
import { ALL_FAMILIES } from "../client/mcp/all-families.js";
import type { AppEnv } from "../core/src/http/app.js";
import { type Config, createApp, createDb, type Db } from "../core/src/index.js";

export interface FleetInstance {
  app: Hono<AppEnv>;
  db: Db;
}

export class Fleet {
  /** Every instance made so far, busy or not. */
  readonly instances: FleetInstance[] = [];
  private readonly idle: FleetInstance[] = [];

  constructor(private readonly launch: () => FleetInstance) {}

  /**
   * Answers `request` on an idle instance (a new one when none is idle). The instance is busy until
   * the whole answer is read, as a Lambda is until its handler returns.
   */
  async fetch(request: Request): Promise<Response> {
    const instance = this.idle.pop() ?? this.launched();
    try {
      const response = await instance.app.fetch(request);
      const body = response.body === null ? null : await response.arrayBuffer();
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } finally {
      this.idle.push(instance);
    }
  }

  /** `app.request` as Hono has it: a path (or URL) and the request's init. */
  request(path: string, init?: RequestInit): Promise<Response> {
    return this.fetch(new Request(new URL(path, "http://fleet.invalid"), init));
  }

  /** DynamoDB calls made by every instance so far. */
  calls(): number {
    return this.instances.reduce((sum, { db }) => sum + db.usage().calls, 0);
  }

  /** Closes every instance's client. */
  destroy(): void {
    for (const { db } of this.instances) db.client.destroy();
  }

  private launched(): FleetInstance {
    const instance = this.launch();
    this.instances.push(instance);
    return instance;
  }
}

/**
 * A fleet of every family over `config`'s table, each instance as `functions/*.ts` makes its app:
 * its own client (emulating AWS's transaction conflicts when `emulateConflicts`), its own services.
 * @example const fleet = appFleet(config, { emulateConflicts: true }); await fleet.request("/api/issues", init);
 */
export function appFleet(
  config: Config,
  options: { emulateConflicts: boolean; onLaunch?: (instance: FleetInstance) => void },
): Fleet {
  return new Fleet(() => {
    const db = createDb({
      tableName: config.tableName,
      region: config.region,
      endpoint: config.dynamodbEndpoint,
      emulateConflicts: options.emulateConflicts,
    });
    const instance = { app: createApp(ALL_FAMILIES, { config, db }), db };
    options.onLaunch?.(instance);
    return instance;
  });
}
