/**
 * The built hand-offs bundle (functions/handoffs.ts), invoked as Lambda would (docs/api.md#hosted-runners):
 * a batch of the table's change stream in the shape Lambda hands it over, in which an issue became
 * claimable, hands it to the runner whose filters take it, once however many times the batch comes;
 * the schedule's tick fills a runner up. Each hand-off is a repository dispatch at `GITHUB_API_URL`,
 * checked against GitHub's documented request shape by the stand-in.
 */
import type { Context, DynamoDBStreamEvent, ScheduledEvent } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { createDb } from "../../../core/src/db/create-db.js";
import type { Db } from "../../../core/src/db/db.js";
import { createApp } from "../../../core/src/index.js";
import { OPEN_GUARD } from "../../../core/src/outbound-guard.js";
import { AUTH, dataOf, jsonPost } from "../../helpers/app.js";
import { testConfig } from "../../helpers/db.js";
import { type GitHubStandIn, startGitHubStandIn } from "../../helpers/github-stand-in.js";
import { deployedEnv, loadBundle, scheduledTick } from "../../helpers/lambda.js";
import { lambdaStreamEvent, streamRecords } from "../../helpers/stream.js";

interface HandoffsBundle {
  handler(event: DynamoDBStreamEvent, context: Context): Promise<void>;
  sweep(event: ScheduledEvent, context: Context): Promise<void>;
}

const context = { functionName: "handoffs", awsRequestId: "aws-req-1" } as Context;
const expected = {
  repository: "acme/app",
  githubToken: "ghp_handoffBundleToken0123456789",
  eventType: "kaizen-dispatch",
};
const standIns: GitHubStandIn[] = [];
const dbs: Db[] = [];
afterEach(async () => {
  for (const github of standIns.splice(0)) await github.close();
  for (const db of dbs.splice(0)) db.client.destroy();
});

/**
 * A table with a stream, a runner for up to three task issues at a GitHub stand-in, and the bundle's environment.
 * The stand-in listens on loopback, which a deployed stage refuses unless told otherwise.
 */
async function setUp() {
  const { env, endpoint } = await deployedEnv({}, { stream: true });
  const github = await startGitHubStandIn(expected);
  standIns.push(github);
  const db = createDb({ tableName: env.TABLE_NAME, region: "us-east-1", endpoint });
  dbs.push(db);
  const app = createApp(ALL_FAMILIES, {
    config: testConfig({ tableName: env.TABLE_NAME, endpoint }),
    db,
    outboundGuard: OPEN_GUARD,
  });
  await dataOf(
    app.request(
      "/api/runners",
      jsonPost({ name: "ci", kind: "github_actions", concurrency: 3, filters: { types: ["task"] }, ...expected }),
    ),
    201,
  );
  const bundleEnv = {
    ...env,
    GITHUB_API_URL: github.url,
    PUBLIC_BASE_URL: "https://kaizen.example.com",
    OUTBOUND_ALLOW_PRIVATE: "on",
  };
  const load = () => loadBundle<HandoffsBundle>("handoffs", bundleEnv);
  const openIssue = (type: string) =>
    dataOf<{ identifier: string }>(
      app.request("/api/issues", jsonPost({ title: `A ${type}`, type, status: "todo" })),
      201,
    );
  return { app, db, endpoint, github, load, openIssue };
}

describe("the hand-offs function", () => {
  it("hands on, from a stream batch, the issue that became claimable to the runner that takes it, once", async () => {
    const { db, endpoint, github, load, openIssue } = await setUp();
    const task = await openIssue("task");
    // A plan, which the runner's filters do not take: in the same batch, handed to no one.
    await openIssue("plan");
    const event = lambdaStreamEvent(await streamRecords(db, endpoint));
    const bundle = await load();
    await bundle.handler(event, context);
    // The same batch again, and on another instance, as a retried batch may land: no second hand-off.
    await bundle.handler(event, context);
    await (await load()).handler(event, context);
    expect(github.received.map(({ problems, answered }) => ({ problems, answered }))).toEqual([
      { problems: [], answered: 204 },
    ]);
    expect(github.received[0]?.body.client_payload).toMatchObject({
      issue: task.identifier,
      kaizenUrl: "https://kaizen.example.com",
    });
  });

  it("fills a runner up on the schedule's tick, with a prompt from the default templates on a fresh table", async () => {
    const { app, github, load, openIssue } = await setUp();
    const task = await openIssue("task");
    await (await load()).sweep(scheduledTick("RunnerSweep"), context);
    // Nothing had seeded the defaults (no claim, no template route): the hand-off's claim waited for them.
    const [handed] = await dataOf<{ id: string; promptId: string | null }[]>(
      app.request(`/api/dispatch?issueId=${task.identifier}`, { headers: AUTH }),
      200,
    );
    expect(handed?.promptId).toMatch(/^prm_/);
    expect(github.received.map(({ problems, answered }) => ({ problems, answered }))).toEqual([
      { problems: [], answered: 204 },
    ]);
    expect(github.received[0]?.body.client_payload).toMatchObject({
      issue: task.identifier,
      kaizenUrl: "https://kaizen.example.com",
    });
  });
});
