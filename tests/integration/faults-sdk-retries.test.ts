/**
 * The SDK's retries as the service configures them (db/create-db.ts `dbRetryStrategy`), seen on the
 * wire through the fault injector: a call failing on every attempt is sent exactly
 * `DB_MAX_ATTEMPTS` times and the API answers 503 with `Retry-After`; a call failing once is
 * retried and the request succeeds; under a storm of failures the SDK's retry quota stops retrying.
 */
import { describe, expect, it } from "vitest";
import { DB_MAX_ATTEMPTS } from "../../core/src/db/create-db.js";
import { AUTH, jsonPost, testApp } from "../helpers/app.js";
import { expectUnavailable, type FaultKind, injectFaults } from "../helpers/faults.js";

type Body<T> = { data: T };
type ListBody<T> = { data: T[]; total: number };

/** The faults the SDK retries. */
const RETRYABLE: FaultKind[] = ["throttling", "provisionedThroughput", "internalError", "connectionReset"];

describe("SDK retries, bounded", () => {
  it("sends a call failing on every attempt exactly DB_MAX_ATTEMPTS (3) times, then the API answers 503", async () => {
    expect(DB_MAX_ATTEMPTS).toBe(3);
    const t = await testApp();
    const faults = injectFaults(t.db);
    for (const kind of RETRYABLE) {
      // A read: one query of the partition.
      faults.reset().fail({ kind });
      const read = await t.app.request("/api/issues/iss_01JD0000000000000000000000", { headers: AUTH });
      await expectUnavailable(read);
      expect(faults.calls).toEqual(
        [1, 2, 3].map((attempt) => ({ operation: 1, attempt, command: "QueryCommand", fault: kind })),
      );
      // A write: its first call (taking the issue number) fails for good; nothing else is sent.
      faults.reset().fail({ kind });
      const write = await t.app.request("/api/issues", jsonPost({ title: "Never stored", type: "task" }));
      expect(write.headers.get("retry-after")).toBe("1");
      expect(await write.json()).toEqual({ error: "Database unavailable" });
      expect(write.status).toBe(503);
      expect(faults.calls.map(({ operation, attempt }) => [operation, attempt])).toEqual([
        [1, 1],
        [1, 2],
        [1, 3],
      ]);
    }
    faults.reset();
    const list = await t.app.request("/api/issues", { headers: AUTH });
    expect(((await list.json()) as ListBody<unknown>).total).toBe(0);
  });

  it("retries a call failing on its first attempt, and the request succeeds", async () => {
    const t = await testApp();
    const faults = injectFaults(t.db);
    for (const kind of RETRYABLE) {
      faults.reset().fail({ kind, attempts: 1 });
      const created = await t.app.request("/api/issues", jsonPost({ title: `Stored after a ${kind}`, type: "task" }));
      expect(created.status).toBe(201);
      // Every call (the number, then the transaction) failed once and went through on its retry.
      expect(faults.calls.map(({ operation, attempt, fault }) => [operation, attempt, fault])).toEqual([
        [1, 1, kind],
        [1, 2, null],
        [2, 1, kind],
        [2, 2, null],
      ]);
      const { data } = (await created.json()) as Body<{ id: string }>;
      faults.reset();
      expect((await t.app.request(`/api/issues/${data.id}`, { headers: AUTH })).status).toBe(200);
    }
    const list = await t.app.request("/api/issues", { headers: AUTH });
    expect(((await list.json()) as ListBody<unknown>).total).toBe(RETRYABLE.length);
  });

  it("stops retrying when failures drain the SDK's retry quota, and recovers with the store", async () => {
    const t = await testApp();
    const faults = injectFaults(t.db);
    const attemptsPerRequest: number[] = [];
    for (let request = 0; request < 40 && attemptsPerRequest.at(-1) !== 1; request++) {
      faults.reset().fail({ kind: "internalError" });
      await expectUnavailable(await t.app.request("/api/issues/iss_01JD0000000000000000000000", { headers: AUTH }));
      attemptsPerRequest.push(faults.calls.length);
    }
    // Three attempts while the quota lasts, then fewer, then one: a storm is not tripled.
    expect(attemptsPerRequest[0]).toBe(DB_MAX_ATTEMPTS);
    expect(attemptsPerRequest.at(-1)).toBe(1);
    expect(attemptsPerRequest).toEqual([...attemptsPerRequest].sort((a, b) => b - a));
    faults.reset();
    expect((await t.app.request("/api/issues", { headers: AUTH })).status).toBe(200);
  });
});
