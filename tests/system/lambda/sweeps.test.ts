/**
 * The built sweeps bundle (functions/sweeps.ts), invoked as the schedules invoke it: a watch whose
 * window has passed ends `verified`, one still open is left pending, and a second tick changes
 * nothing (docs/api.md#verification); a hosted runner is handed a dispatch through GitHub's repository
 * dispatch, at `GITHUB_API_URL` (docs/api.md#hosted-runners).
 */
import { pathToFileURL } from "node:url";
import type { Context, ScheduledEvent } from "aws-lambda";
import { describe, expect, inject, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { createDb } from "../../../core/src/db/create-db.js";
import { createApp } from "../../../core/src/index.js";
import type { Verification } from "../../../core/src/issues/schemas.js";
import { OPEN_GUARD } from "../../../core/src/outbound-guard.js";
import { issueMoves, issueService, issueStore } from "../../../core/src/services.js";
import { dataOf, jsonPost } from "../../helpers/app.js";
import { testConfig } from "../../helpers/db.js";
import { startGitHubStandIn } from "../../helpers/github-stand-in.js";
import { deployedEnv } from "../../helpers/lambda.js";

interface SweepsBundle {
  verify(event: ScheduledEvent, context: Context): Promise<void>;
  runners(event: ScheduledEvent, context: Context): Promise<void>;
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

  it("hands a hosted runner a dispatch through GitHub's repository dispatch at GITHUB_API_URL", async () => {
    const { env, endpoint } = await deployedEnv();
    const expected = {
      repository: "acme/app",
      githubToken: "ghp_sweepBundleToken0123456789",
      eventType: "kaizen-dispatch",
    };
    const github = await startGitHubStandIn(expected);
    const db = createDb({ tableName: env.TABLE_NAME, region: "us-east-1", endpoint });
    const config = testConfig({ tableName: env.TABLE_NAME, endpoint });
    const app = createApp(ALL_FAMILIES, { config, db, outboundGuard: OPEN_GUARD });
    const issue = await dataOf<{ identifier: string }>(
      app.request("/api/issues", jsonPost({ title: "Fix it", type: "task", status: "todo" })),
      201,
    );
    await dataOf(app.request("/api/runners", jsonPost({ name: "ci", kind: "github_actions", ...expected })), 201);
    const bundle = await loadSweeps({
      ...env,
      GITHUB_API_URL: github.url,
      PUBLIC_BASE_URL: "https://kaizen.example.com",
      // The stand-in listens on loopback, which a deployed stage refuses unless told otherwise.
      OUTBOUND_ALLOW_PRIVATE: "on",
    });
    await bundle.runners(tick, context);
    expect(github.received.map(({ problems, answered }) => ({ problems, answered }))).toEqual([
      { problems: [], answered: 204 },
    ]);
    expect(github.received[0]?.body.client_payload).toMatchObject({
      issue: issue.identifier,
      kaizenUrl: "https://kaizen.example.com",
    });
    await github.close();
    db.client.destroy();
  });
});
