/**
 * The built sweeps bundle (functions/sweeps.ts), invoked as the schedule invokes it: a watch whose
 * window has passed ends `verified`, one still open is left pending, and a second tick changes
 * nothing (docs/api.md#verification).
 */
import type { Context, ScheduledEvent } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { createDb } from "../../../core/src/db/create-db.js";
import type { Verification } from "../../../core/src/issues/schemas.js";
import { issueMoves, issueService, issueStore } from "../../../core/src/services.js";
import { deployedEnv, loadBundle, scheduledTick } from "../../helpers/lambda.js";

interface SweepsBundle {
  verify(event: ScheduledEvent, context: Context): Promise<void>;
}

const context = { functionName: "sweeps", awsRequestId: "aws-req-1" } as Context;
const tick = scheduledTick("VerificationSweep");
/** Imports the sweeps bundle afresh with `env`, as a cold start would. */
const loadSweeps = (env: Record<string, string>) => loadBundle<SweepsBundle>("sweeps", env);

describe("the sweeps function", () => {
  it("ends the watches whose windows have passed verified, and only those, once", async () => {
    const { env, endpoint } = await deployedEnv();
    const db = createDb({ tableName: env.TABLE_NAME, region: "us-east-1", endpoint });
    const HOUR = 3_600_000;
    /** An issue done through a merge `mergedAgo` ago, watched for 2 hours. */
    const mergedIssue = async (title: string, mergedAgo: number) => {
      const created = await issueService({ db }).createIssue({ title, type: "task" });
      const current = await issueStore({ db }).get(created.issue.id);
      if (!current) throw new Error("no issue");
      const mergedAt = new Date(Date.now() - mergedAgo);
      const verification: Verification = {
        status: "pending",
        mergedAt: mergedAt.toISOString(),
        until: new Date(mergedAt.getTime() + 2 * HOUR).toISOString(),
        regressedAt: null,
        signalId: null,
        dispatchId: null,
      };
      const { writes } = await issueMoves({ db }).prepare(
        { current, by: "signal", changes: { status: "done", verification } },
        mergedAt,
      );
      await db.transactWrite(writes);
      return created.issue.id;
    };
    const quiet = await mergedIssue("Fixed long ago", 3 * HOUR);
    const watched = await mergedIssue("Fixed just now", 0);
    const bundle = await loadSweeps(env);
    await bundle.verify(tick, context);
    await (await loadSweeps(env)).verify(tick, context);
    const read = async (id: string) => (await issueStore({ db }).get(id))?.issue.verification?.status;
    expect(await read(quiet)).toBe("verified");
    expect(await read(watched)).toBe("pending");
    db.client.destroy();
  });
});
