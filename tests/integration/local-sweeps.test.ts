/**
 * The local stack's sweeps (infra/local/sweeps.ts, docs/api.md#verification): beside the server, a
 * watch whose window has passed ends `verified` by itself, without a request; stopping ends the loop.
 */
import { describe, expect, it } from "vitest";
import type { Verification } from "../../core/src/issues/schemas.js";
import { issueMoves, issueService, issueStore } from "../../core/src/services.js";
import { startLocalSweeps } from "../../infra/local/sweeps.js";
import { testApp } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";

describe("the local sweeps", () => {
  it("verify a watch once its window has passed, on their own, and stop when asked", async () => {
    const clock = testClock(Date.parse("2026-11-20T08:00:00.000Z"));
    const { db } = await testApp();
    const deps = { db, clock };
    const created = await issueService(deps).createIssue({ title: "Fixed", type: "task" });
    const current = await issueStore(deps).get(created.issue.id);
    if (!current) throw new Error("no issue");
    const verification: Verification = {
      status: "pending",
      mergedAt: clock().toISOString(),
      until: new Date(clock().getTime() + 3_600_000).toISOString(),
      regressedAt: null,
      signalId: null,
      dispatchId: null,
    };
    const { writes } = await issueMoves(deps).prepare(
      { current, by: "signal", changes: { status: "done", verification } },
      clock(),
    );
    await db.transactWrite(writes);
    const errors: unknown[] = [];
    const sweeps = startLocalSweeps(deps, (_message, error) => errors.push(error), 10);
    try {
      const status = async () => (await issueStore(deps).get(created.issue.id))?.issue.verification?.status;
      await sweeps.sweepNow();
      expect(await status()).toBe("pending");
      clock.advance(3_600_001);
      for (let polls = 0; polls < 200 && (await status()) === "pending"; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await status()).toBe("verified");
    } finally {
      await sweeps.stop();
    }
    expect(errors).toEqual([]);
  });
});
