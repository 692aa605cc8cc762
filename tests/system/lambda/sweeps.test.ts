/**
 * The built sweeps bundle (functions/sweeps.ts), invoked as the schedule invokes it
 * (docs/api.md#verification): a watch whose window has passed ends `verified`, one still open is
 * left pending, and a second tick changes nothing.
 */
import { pathToFileURL } from "node:url";
import type { Context, ScheduledEvent } from "aws-lambda";
import { describe, expect, inject, it } from "vitest";
import { createDb } from "../../../core/src/db/create-db.js";
import type { Verification } from "../../../core/src/issues/schemas.js";
import { issueMoves, issueService, issueStore } from "../../../core/src/services.js";
import { deployedEnv } from "../../helpers/lambda.js";

interface SweepsBundle {
  verify(event: ScheduledEvent, context: Context): Promise<void>;
}

const context = { functionName: "sweeps", awsRequestId: "aws-req-1" } as Context;
const tick = {
  version: "0",
  id: "tick-1",
  "detail-type": "Scheduled Event",
  source: "aws.events",
  account: "123456789012",
  time: new Date().toISOString(),
  region: "us-east-1",
  resources: ["arn:aws:events:us-east-1:123456789012:rule/VerificationSweep"],
  detail: {},
} as ScheduledEvent;
let loads = 0;

/** Imports the sweeps bundle afresh with `env`, as a cold start would. */
async function loadSweeps(env: Record<string, string>): Promise<SweepsBundle> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return (await import(`${pathToFileURL(inject("bundles").sweeps ?? "").href}?load=${++loads}`)) as SweepsBundle;
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

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
