/** An in-process app on a fresh test table, and small request helpers. */

import type { Hono } from "hono";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import type { AppEnv } from "../../core/src/http/app.js";
import { type AppDeps, createApp, createDb, type Db } from "../../core/src/index.js";
import { OPEN_GUARD } from "../../core/src/outbound-guard.js";
import { appFleet, type Fleet } from "../../testkit/fleet.js";
import { freshTable, TEST_API_KEY, testConfig } from "./db.js";

export interface TestApp {
  app: Hono<AppEnv>;
  db: Db;
  tableName: string;
  endpoint: string;
}

/**
 * Every family on one app over a new, empty table, authenticated by TEST_API_KEY; AWS's
 * transaction conflicts are emulated unless `emulateConflicts` is false. Its own requests go
 * anywhere, as the local server's do (the tests' receivers listen on this machine).
 */
export async function testApp(
  overrides: Partial<AppDeps> = {},
  options: { emulateConflicts?: boolean; stream?: boolean } = {},
): Promise<TestApp> {
  const { db, tableName, endpoint } = await freshTable(options);
  const app = createApp(ALL_FAMILIES, {
    config: testConfig({ tableName, endpoint }),
    db,
    outboundGuard: OPEN_GUARD,
    ...overrides,
  });
  return { app, db, tableName, endpoint };
}

export const AUTH = { Authorization: `Bearer ${TEST_API_KEY}` };

export function jsonPost(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { ...AUTH, "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** Creates issues one after another through the API and returns their bodies. */
export async function createIssues(
  app: Hono<AppEnv>,
  count: number,
  fields: (i: number) => Record<string, unknown> = (i) => ({ title: `Issue ${i}`, type: "task" }),
): Promise<Record<string, unknown>[]> {
  const created: Record<string, unknown>[] = [];
  for (let i = 1; i <= count; i++) {
    const response = await app.request("/api/issues", jsonPost(fields(i)));
    if (response.status !== 201) throw new Error(`create ${i} answered ${response.status}: ${await response.text()}`);
    created.push(((await response.json()) as { data: Record<string, unknown> }).data);
  }
  return created;
}

/** A second app on the same table, as another function instance would be: no in-process state shared. */
export function anotherInstance(t: TestApp, emulateConflicts: boolean): Pick<TestApp, "app"> {
  const db = createDb({ tableName: t.tableName, region: "us-east-1", endpoint: t.endpoint, emulateConflicts });
  const config = testConfig({ tableName: t.tableName, endpoint: t.endpoint });
  return { app: createApp(ALL_FAMILIES, { config, db, outboundGuard: OPEN_GUARD }) };
}

/** What sends a request as `app.request` does: one app, or a fleet of them. */
export interface Requester {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/**
 * The app over `t`'s table served as Lambda serves it (./fleet.ts): one request per instance, a new
 * instance whenever all are busy.
 */
export function fleetOf(t: TestApp, emulateConflicts: boolean): Fleet {
  return appFleet(testConfig({ tableName: t.tableName, endpoint: t.endpoint }), { emulateConflicts });
}

/**
 * The `data` of an answer that must have `status`; anything else throws with the status and body.
 * @example const issue = await dataOf<Issue>(t.app.request("/api/issues", jsonPost(body)), 201);
 */
export async function dataOf<T>(response: Response | Promise<Response>, status = 200): Promise<T> {
  const answered = await response;
  if (answered.status !== status) throw new Error(`answered ${answered.status}: ${await answered.text()}`);
  return ((await answered.json()) as { data: T }).data;
}
