/**
 * The load bench's audit (testkit/load-audit.ts) on a small table made through the API: it passes on
 * the state as made, and fails on each kind of loss it exists to find once the table is broken by
 * hand — a delivery stored twice, two dispatches of one issue active at once, a count off by one.
 */
import { randomUUID } from "node:crypto";
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { dispatchKey } from "../../core/src/dispatch/keys.js";
import { issueKey } from "../../core/src/issues/keys.js";
import { signalKey } from "../../core/src/signals/keys.js";
import { STATS_PARTITION } from "../../core/src/stats/counts.js";
import { auditLoad, type ClaimRecord, type LoadRecords, type Violation } from "../../testkit/load-audit.js";
import { jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, errortrackerDelivery, issueEvent } from "../helpers/deliveries.js";

type Json = Record<string, unknown>;

async function call(t: TestApp, path: string, init: RequestInit): Promise<{ status: number; data: Json }> {
  const response = await t.app.request(path, init);
  const text = await response.text();
  return { status: response.status, data: text ? ((JSON.parse(text) as { data: Json }).data ?? {}) : {} };
}

const withToken = (token: string, body: unknown): RequestInit => ({
  method: "POST",
  headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

interface Made {
  t: TestApp;
  records: LoadRecords;
  /** The signal stored for the delivery sent twice. */
  signalId: string;
  /** The failed dispatch of the issue claimed twice, and the active one after it. */
  failed: string;
  active: string;
}

/**
 * Two deliveries (one sent again), two todo tasks, and three claims: one completed after a review,
 * one failed, then the same issue claimed again and left active by an agent that vanished.
 */
async function madeState(): Promise<Made> {
  const t = await testApp();
  const deliveryId = randomUUID();
  const records: LoadRecords = { deliveries: [], issuesCreated: [], claims: [], unansweredClaims: 0 };
  const opened = codehostDelivery("issues", issueEvent("opened", 7), { delivery: deliveryId });
  const acks = [];
  for (let i = 0; i < 2; i++) {
    const answer = await call(t, opened.path, opened.init);
    const signal = answer.data.signal as Json;
    acks.push({ status: answer.status, signalId: String(signal.id), duplicate: answer.data.duplicate as boolean });
  }
  records.deliveries.push({ source: "codehost", deliveryId, acks });
  const requestId = randomUUID();
  const tracker = errortrackerDelivery(
    "issue",
    { action: "created", data: { issue: { id: "42", title: "TypeError", level: "error" } } },
    { requestId },
  );
  const trackerAnswer = await call(t, tracker.path, tracker.init);
  records.deliveries.push({
    source: "errortracker",
    deliveryId: requestId,
    acks: [
      {
        status: trackerAnswer.status,
        signalId: String((trackerAnswer.data.signal as Json).id),
        duplicate: trackerAnswer.data.duplicate as boolean,
      },
    ],
  });
  for (const title of ["first", "second"]) {
    const created = await call(t, "/api/issues", jsonPost({ title, type: "task", status: "todo" }));
    expect(created.status).toBe(201);
    records.issuesCreated.push(String(created.data.id));
  }
  const claim = async (agent: string) => {
    const answer = await call(t, "/api/dispatch/claim", jsonPost({ agent, leaseSeconds: 60 }));
    expect(answer.status).toBe(201);
    const dispatch = answer.data.dispatch as Json;
    const prompt = answer.data.prompt as Json | null;
    const acknowledgedAt = Date.now();
    return {
      id: String(dispatch.id),
      token: String(dispatch.token),
      record: {
        dispatchId: String(dispatch.id),
        issueId: String(dispatch.issueId),
        agent,
        promptId: prompt ? String(prompt.id) : null,
        attempt: Number(dispatch.attempt),
        acknowledgedAt,
        lastSeenActiveAt: null,
        end: "vanished",
        reviewId: null,
      } satisfies ClaimRecord as ClaimRecord,
    };
  };
  const done = await claim("agent-1");
  const review = await call(
    t,
    `/api/prompts/${done.record.promptId}/reviews`,
    withToken(done.token, { clarity: 4, completeness: 4, relevance: 5, authorType: "agent" }),
  );
  expect(review.status).toBe(201);
  done.record.reviewId = String(review.data.id);
  done.record.lastSeenActiveAt = Date.now();
  expect((await call(t, `/api/dispatch/${done.id}/complete`, jsonPost({ result: "done", summary: "ok" }))).status).toBe(
    200,
  );
  done.record.end = "completed";
  const failed = await claim("agent-2");
  failed.record.lastSeenActiveAt = Date.now();
  expect(
    (await call(t, `/api/dispatch/${failed.id}/complete`, jsonPost({ result: "failed", summary: "no" }))).status,
  ).toBe(200);
  failed.record.end = "failed";
  const again = await claim("agent-3");
  expect(again.record.issueId).toBe(failed.record.issueId);
  records.claims.push(done.record, failed.record, again.record);
  return { t, records, signalId: acks[0]?.signalId ?? "", failed: failed.id, active: again.id };
}

const kinds = (violations: Violation[]) => [...new Set(violations.map((violation) => violation.kind))];
const doc = (t: TestApp) => DynamoDBDocumentClient.from(t.db.client);

describe("load audit", () => {
  it("passes on the table as the API left it", async () => {
    const { t, records } = await madeState();
    const audit = await auditLoad(t.db, records);
    expect(audit.violations).toEqual([]);
    expect(audit.ok).toBe(true);
    expect(audit.figures).toMatchObject({
      signals: 2,
      deliveriesAcknowledged: 2,
      redeliveriesAcknowledged: 1,
      dispatches: { completed: 1, failed: 1, active: 1 },
      maxAttempts: 2,
    });
  });

  it("fails when a delivery is stored as a second signal", async () => {
    const { t, records, signalId } = await madeState();
    const { Item: signal } = await doc(t).send(new GetCommand({ TableName: t.tableName, Key: signalKey(signalId) }));
    const copy = `sig_${String(signal?.id).slice(4, 20)}ZZZZZZZZZZ`;
    await doc(t).send(new PutCommand({ TableName: t.tableName, Item: { ...signal, ...signalKey(copy), id: copy } }));
    const audit = await auditLoad(t.db, records);
    expect(audit.ok).toBe(false);
    expect(kinds(audit.violations)).toContain("delivery");
    expect(audit.violations.map((violation) => violation.message).join("\n")).toMatch(/stored as 2 signals/);
  });

  it("fails when an acknowledged delivery, issue or claim is not stored", async () => {
    const { t, records } = await madeState();
    records.deliveries.push({
      source: "analytics",
      deliveryId: "never-stored",
      acks: [{ status: 201, signalId: "sig_01JD0000000000000000000000", duplicate: false }],
    });
    records.issuesCreated.push("iss_01JD0000000000000000000000");
    records.claims.push({
      dispatchId: "dsp_01JD0000000000000000000000",
      issueId: "iss_01JD0000000000000000000000",
      agent: "ghost",
      promptId: null,
      attempt: 1,
      acknowledgedAt: Date.now(),
      lastSeenActiveAt: null,
      end: "completed",
      reviewId: null,
    });
    const audit = await auditLoad(t.db, records);
    expect(kinds(audit.violations).sort()).toEqual(["delivery", "dispatch", "issue"]);
  });

  it("fails when one issue has two active dispatches", async () => {
    const { t, records, failed } = await madeState();
    await doc(t).send(
      new UpdateCommand({
        TableName: t.tableName,
        Key: dispatchKey(failed),
        UpdateExpression: "SET #status = :active, finishedAt = :none",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":active": "active", ":none": null },
      }),
    );
    const audit = await auditLoad(t.db, records);
    expect(audit.ok).toBe(false);
    const messages = audit.violations.map((violation) => violation.message).join("\n");
    expect(messages).toMatch(/has 2 active dispatches/);
    expect(messages).toMatch(/overlaps/);
  });

  it("fails when an ended dispatch's active time overlaps the next claim of its issue", async () => {
    const { t, records, failed } = await madeState();
    await doc(t).send(
      new UpdateCommand({
        TableName: t.tableName,
        Key: dispatchKey(failed),
        UpdateExpression: "SET finishedAt = :later",
        ExpressionAttributeValues: { ":later": new Date(Date.now() + 3_600_000).toISOString() },
      }),
    );
    const audit = await auditLoad(t.db, records);
    expect(kinds(audit.violations)).toEqual(["dispatch"]);
    expect(audit.violations[0]?.message).toMatch(/stored history overlaps/);
  });

  it("fails when the agents held two active dispatches of one issue at once", async () => {
    const { t, records } = await madeState();
    const [, failed, again] = records.claims as [ClaimRecord, ClaimRecord, ClaimRecord];
    // The second attempt handed out before the first was last seen active: both held the issue.
    again.acknowledgedAt = (failed.lastSeenActiveAt ?? 0) - 1;
    const audit = await auditLoad(t.db, records);
    expect(kinds(audit.violations)).toEqual(["dispatch"]);
    expect(audit.violations[0]?.message).toMatch(/agents held two active dispatches at once/);
  });

  it("fails when a dashboard count is off by one", async () => {
    const { t, records } = await madeState();
    await doc(t).send(
      new UpdateCommand({
        TableName: t.tableName,
        Key: { pk: STATS_PARTITION, sk: "issue.status#todo" },
        UpdateExpression: "ADD #count :one",
        ExpressionAttributeNames: { "#count": "count" },
        ExpressionAttributeValues: { ":one": 1 },
      }),
    );
    const audit = await auditLoad(t.db, records);
    expect(kinds(audit.violations)).toEqual(["counter"]);
    expect(audit.violations.map((violation) => violation.message)).toEqual([
      "dashboard issues.total: dashboard 5, recount 4",
      "dashboard issues.byStatus.todo: dashboard 1, recount 0",
    ]);
  });

  it("fails when an issue's signalCount is off by one, or a fingerprint has two open issues", async () => {
    const { t, records, signalId } = await madeState();
    const { Item: signal } = await doc(t).send(new GetCommand({ TableName: t.tableName, Key: signalKey(signalId) }));
    const issueId = String(signal?.issueId);
    await doc(t).send(
      new UpdateCommand({
        TableName: t.tableName,
        Key: issueKey(issueId),
        UpdateExpression: "ADD signalCount :one",
        ExpressionAttributeValues: { ":one": 1 },
      }),
    );
    const counted = await auditLoad(t.db, records);
    expect(counted.violations).toEqual([{ kind: "counter", message: `issue ${issueId}: signalCount 2, signals 1` }]);
    const { Item: issue } = await doc(t).send(new GetCommand({ TableName: t.tableName, Key: issueKey(issueId) }));
    const twin = `iss_${issueId.slice(4, 20)}ZZZZZZZZZZ`;
    await doc(t).send(
      new PutCommand({ TableName: t.tableName, Item: { ...issue, ...issueKey(twin), id: twin, number: 99 } }),
    );
    const doubled = await auditLoad(t.db, records);
    expect(doubled.violations.map((violation) => violation.message).join("\n")).toMatch(/has 2 open issues/);
  });

  it("fails when a listing's count is off by one", async () => {
    const { t, records } = await madeState();
    await doc(t).send(
      new UpdateCommand({
        TableName: t.tableName,
        Key: { pk: "$kaizen#dispatchcount_1#all", sk: "99999999" },
        UpdateExpression: "ADD #count :one",
        ExpressionAttributeNames: { "#count": "count" },
        ExpressionAttributeValues: { ":one": 1 },
      }),
    );
    const audit = await auditLoad(t.db, records);
    expect(audit.violations).toEqual([
      { kind: "counter", message: "listing dispatch all bucket 99999999: count 1, entries 0" },
    ]);
  });
});
