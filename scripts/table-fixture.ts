/**
 * @module scripts/table-fixture — writes `tests/fixtures/table/<date>.json`: every item of a table
 * that the code of this checkout filled through its public API, one or more items of every item kind
 * (docs/architecture.md#item-kinds), so later releases can prove they still read what this one wrote
 * (tests/integration/table-fixture.test.ts).
 *
 * Regenerate (needs Java 17+ for DynamoDB Local; takes about half a minute):
 *   npx tsx scripts/table-fixture.ts [tests/fixtures/table/<name>.json]
 * Run it on the release whose data the fixture should hold (a fixture is never regenerated on later
 * code: it is the record of what a release wrote). The file holds the items in DynamoDB's JSON form
 * (`{"S": …}`, `{"N": …}`, binary as base64 as on the wire), sorted by key, beside the commit that
 * wrote them.
 */
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { Logger } from "@aws-lambda-powertools/logger";
import { type AttributeValue, ScanCommand } from "@aws-sdk/client-dynamodb";
import codehostDefinitions from "@octokit/webhooks-examples" with { type: "json" };
import type { Hono } from "hono";
import type { AppEnv } from "../core/src/http/app.js";
import { API_FAMILIES, createApp, createDb, ensureTable, loadConfig, waitForDatabase } from "../core/src/index.js";
import { OPEN_GUARD } from "../core/src/outbound-guard.js";
import { signCodehost, signErrortracker } from "../core/src/webhooks/verify.js";
import { startDynamoDbLocal } from "../infra/local/dynamodb.js";
import { startLocalEvents } from "../infra/local/events.js";

const API_KEY = `kaizen_${"cd".repeat(32)}`;
const SECRETS = { codehost: "fixture-codehost", errortracker: "fixture-errortracker", analytics: "fixture-analytics" };
const AUTH = { Authorization: `Bearer ${API_KEY}` };

type App = Hono<AppEnv>;
type Json = Record<string, unknown>;

function post(body: unknown, headers: Record<string, string> = {}, method = "POST"): RequestInit {
  return { method, headers: { ...AUTH, "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

async function call<T = Json>(app: App, path: string, init: RequestInit = { headers: AUTH }): Promise<T> {
  const response = await app.request(path, init);
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${text}`);
  return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
}

/** Fills the table through the API: one or more items of every kind the code writes. */
async function fill(app: App, receiverUrl: string, failingUrl: string): Promise<void> {
  // Outbound event destinations first, so the changes below are delivered (and one destination fails).
  await call(
    app,
    "/api/event-destinations",
    post({ url: receiverUrl, events: ["issue.created", "dispatch.completed"] }),
  );
  await call(app, "/api/event-destinations", post({ url: failingUrl, events: ["issue.status_changed"] }));

  // Catalog: a project with limits, a goal of it, two labels (and their name claims).
  const project = await call<{ id: string }>(
    app,
    "/api/projects",
    post({ name: "Checkout", description: "Pay flow", limits: { maxActivePerAgent: 2, dailyCostBudgetUsd: 50 } }),
  );
  const goal = await call<{ id: string }>(
    app,
    "/api/goals",
    post({ title: "Fewer failed payments", projectId: project.id }),
  );
  await call(app, `/api/projects/${project.id}`, post({ goalId: goal.id }, {}, "PATCH"));
  await call(app, "/api/labels", post({ name: "Bug", color: "#d73a4a" }));
  await call(app, "/api/labels", post({ name: "perf", color: "#0e8a16" }));

  // A template above the defaults for tasks, with a draft version and an experiment between them.
  const template = await call<{ id: string; activeVersionId: string }>(
    app,
    "/api/templates",
    post({
      slug: "fixture-task",
      name: "Fixture task",
      conditions: { type: "task" },
      specificity: 900,
      content: "Do {{issue.title}}",
      changelog: "first",
    }),
  );
  const draft = await call<{ id: string }>(
    app,
    `/api/templates/${template.id}/versions`,
    post({ content: "Please do {{issue.title}}", changelog: "politer", authorType: "agent", authorName: "claude" }),
  );
  await call(
    app,
    `/api/templates/${template.id}/experiments`,
    post({ candidateVersionId: draft.id, trafficPercent: 50 }),
  );

  // Issues: labels, project, a parent with a child, relations, comments with a reply, one deleted.
  const parent = await call<{ id: string }>(
    app,
    "/api/issues",
    post({ title: "Payments fail on retry", type: "plan", priority: 1, labels: ["Bug"], projectId: project.id }),
  );
  const child = await call<{ id: string }>(
    app,
    "/api/issues",
    post({
      title: "Reproduce the retry",
      type: "task",
      status: "todo",
      priority: 2,
      parentId: parent.id,
      labels: ["perf"],
    }),
  );
  const blocker = await call<{ id: string }>(
    app,
    "/api/issues",
    post({ title: "Upgrade the SDK", type: "task", status: "backlog", priority: 3, projectId: project.id }),
  );
  const gone = await call<{ id: string }>(app, "/api/issues", post({ title: "Duplicate report", type: "signal" }));
  await call(app, `/api/issues/${blocker.id}/relations`, post({ type: "blocks", relatedIssueId: parent.id }));
  await call(app, `/api/issues/${gone.id}/relations`, post({ type: "duplicate", relatedIssueId: parent.id }));
  await call(app, `/api/issues/${child.id}/relations`, post({ type: "related", relatedIssueId: blocker.id }));
  const comment = await call<{ id: string }>(
    app,
    `/api/issues/${parent.id}/comments`,
    post({ body: "Seen on **three** stores", authorType: "human", authorName: "ana" }),
  );
  await call(
    app,
    `/api/issues/${parent.id}/comments`,
    post({ body: "Confirmed", parentId: comment.id, authorType: "agent", authorName: "claude" }),
  );
  await call(
    app,
    `/api/issues/${parent.id}`,
    post({ status: "todo", description: "Retries double-charge" }, {}, "PATCH"),
  );
  await call(app, `/api/issues/${gone.id}`, { method: "DELETE", headers: AUTH });
  // A create with an Idempotency-Key leaves its record.
  await call(
    app,
    "/api/issues",
    post(
      { title: "Idempotent create", type: "task", status: "todo", priority: 4, projectId: project.id },
      {
        "Idempotency-Key": "fixture-key-1",
      },
    ),
  );

  // Signals: manual (a new source, grouped by fingerprint), and one delivery of each webhook provider.
  await call(
    app,
    "/api/signals",
    post({ source: "ops", type: "oom", title: "Out of memory", severity: "high", fingerprint: "ops:oom" }),
  );
  await call(
    app,
    "/api/signals",
    post({ source: "ops", type: "oom", title: "Out of memory again", severity: "high", fingerprint: "ops:oom" }),
  );
  await call(app, "/api/signals", post({ source: "qa", type: "flaky", title: "Flaky checkout", severity: "medium" }));
  const example = codehostDefinitions
    .find((definition) => definition.name === "workflow_run")
    ?.examples.find((body) => (body as Json).action === "completed");
  if (!example) throw new Error("no workflow_run.completed example");
  const codehostBody = JSON.stringify(example);
  await call(app, "/api/signals/codehost", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Codehost-Event": "workflow_run",
      "X-Codehost-Delivery": "fixture-codehost-delivery-1",
      "X-Codehost-Hook-ID": "4242",
      "X-Codehost-Signature-256": signCodehost(codehostBody, SECRETS.codehost),
    },
    body: codehostBody,
  });
  const trackerBody = await import("../tests/fixtures/errortracker/issue.unresolved.json", { with: { type: "json" } });
  const trackerText = JSON.stringify(trackerBody.default);
  await call(app, "/api/signals/errortracker", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Errortracker-Hook-Resource": "issue",
      "Request-ID": "fixture-errortracker-request-1",
      "X-Errortracker-Hook-Timestamp": String(Math.floor(Date.now() / 1000)),
      "X-Errortracker-Hook-Signature": signErrortracker(trackerText, SECRETS.errortracker),
    },
    body: trackerText,
  });
  const analyticsBody = await import("../tests/fixtures/analytics/posthog.checkout_failed.json", {
    with: { type: "json" },
  });
  await call(app, "/api/signals/analytics", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Analytics-Secret": SECRETS.analytics,
      "X-Analytics-Delivery": "fixture-analytics-delivery-1",
    },
    body: JSON.stringify(analyticsBody.default),
  });

  // Dispatch: claims render prompts (an experiment arm each), one completes with usage, one fails,
  // one stays active with a heartbeat; reviews of the prompts score their versions.
  for (const title of ["Add a retry budget", "Log the gateway answer"]) {
    await call(app, "/api/issues", post({ title, type: "task", status: "todo", priority: 2, projectId: project.id }));
  }
  type Claimed = { dispatch: { id: string; token: string }; prompt: { id: string } | null };
  const claims: Claimed[] = [];
  for (let i = 0; i < 3; i++) {
    claims.push(await call<Claimed>(app, "/api/dispatch/claim", post({ agent: i === 2 ? "agent#2" : "agent-1" })));
  }
  const [done, failed, active] = claims as [Claimed, Claimed, Claimed];
  const bearer = (claimed: Claimed) => ({ Authorization: `Bearer ${claimed.dispatch.token}` });
  await call(
    app,
    `/api/dispatch/${done.dispatch.id}/complete`,
    post(
      {
        result: "done",
        summary: "Fixed the retry",
        usage: { inputTokens: 1200, outputTokens: 300, costUsd: 0.042, model: "model-x" },
      },
      bearer(done),
    ),
  );
  await call(
    app,
    `/api/dispatch/${failed.dispatch.id}/complete`,
    post({ result: "failed", summary: "Could not reproduce", usage: { costUsd: 0.01 } }, bearer(failed)),
  );
  await call(app, `/api/dispatch/${active.dispatch.id}/heartbeat`, post({}, bearer(active)));
  for (const [claimed, rating] of [
    [done, 5],
    [failed, 2],
  ] as const) {
    if (!claimed.prompt) throw new Error("a claim rendered no prompt");
    await call(
      app,
      `/api/prompts/${claimed.prompt.id}/reviews`,
      post({
        clarity: rating,
        completeness: rating,
        relevance: rating,
        feedback: `rated ${rating}`,
        authorType: "agent",
      }),
    );
  }
  // Reads that write: the dashboard, the template list (seeds the defaults).
  await call(app, "/api/dashboard/stats");
  await call(app, "/api/templates");
}

/** An attribute value in DynamoDB's JSON form: binary (also in sets, lists and maps) as base64. */
function wire(value: AttributeValue): unknown {
  if (value.B) return { B: Buffer.from(value.B).toString("base64") };
  if (value.BS) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString("base64")) };
  if (value.L) return { L: value.L.map(wire) };
  if (value.M) return { M: wireItem(value.M) };
  return value;
}

function wireItem(item: Record<string, AttributeValue>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, wire(value)]));
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const date = new Date().toISOString().slice(0, 10);
  const out = process.argv[2] ?? `tests/fixtures/table/${date}.json`;
  const dynamo = await startDynamoDbLocal();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200).end("ok"));
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const tableName = "kaizen_fixture";
    const db = createDb({ tableName, region: "us-east-1", endpoint: dynamo.endpoint });
    await waitForDatabase(db);
    await ensureTable(db, { stream: true });
    const config = {
      ...loadConfig({ env: { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: dynamo.endpoint } }),
      serviceApiKey: API_KEY,
      webhookSecrets: { ...SECRETS },
    };
    const events = await startLocalEvents({ db, outboundGuard: OPEN_GUARD }, (message, error) =>
      console.error(message, error ?? ""),
    );
    const app = createApp(API_FAMILIES, {
      config,
      db,
      outboundGuard: OPEN_GUARD,
      logger: new Logger({ logLevel: "SILENT" }),
    });
    // Port 9 (discard) on loopback refuses: that destination's deliveries stay pending, due again later.
    await fill(app, receiverUrl, "http://127.0.0.1:9/refused");
    await events.drained();
    await events.stop();

    const items: Record<string, AttributeValue>[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await db.client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const keyOf = (item: Record<string, AttributeValue>) => `${item.pk?.S}\u0000${item.sk?.S}`;
    items.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const commit = execSync("git rev-parse HEAD", { encoding: "utf8" }).trim();
    // One item a line: small, and a diff between two fixtures reads item by item.
    const lines = items.map((item) => JSON.stringify(wireItem(item)));
    const header = `"commit": ${JSON.stringify(commit)},\n"madeAt": ${JSON.stringify(new Date().toISOString())}`;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `{\n${header},\n"items": [\n${lines.join(",\n")}\n]}\n`);
    console.log(`${items.length} items → ${out}`);
  } finally {
    receiver.close();
    await dynamo.stop();
  }
}

await main();
