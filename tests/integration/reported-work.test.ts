/**
 * The pull requests, commits, review feedback and verification an issue and a dispatch's outcome
 * keep, as the API answers them (docs/api.md#identifiers-and-fields): every timestamp in UTC with
 * milliseconds, whatever offset a client or the code host sent it with, and every optional field
 * `null` when absent — in items written before that too, whose attributes are set here as the code
 * before had stored them. Code-host payloads are @octokit/webhooks-examples', signed as it signs them.
 */
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { dispatchKey } from "../../core/src/dispatch/keys.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import { issueKey } from "../../core/src/issues/keys.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Signal } from "../../core/src/signals/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { codehostDelivery, errortrackerDelivery } from "../helpers/deliveries.js";
import { codehostExamples, loadFixture } from "../helpers/fixtures.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };
type Ingested = { signal: Signal; issue: Issue | null; duplicate: boolean };
// biome-ignore lint/suspicious/noExplicitAny: provider payloads are edited as the provider would vary them.
type Body = Record<string, any>;

/** The examples' repository, whose pull request #2 the completions below name. */
const REPOSITORY = "Codertocat/Hello-World";
const PULL_REQUEST = { number: 2, title: "Guard the total", url: `https://github.com/${REPOSITORY}/pull/2` };

function example(event: string, action: string): Body {
  const found = codehostExamples([event]).find((candidate) => candidate.action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found.body) as Body;
}

/** Pull request #2 approved at `at`, or merged at `at`. */
function approved(at: string): Body {
  const body = example("pull_request_review", "submitted");
  body.review.state = "approved";
  body.review.submitted_at = at;
  body.pull_request.number = 2;
  return body;
}
function merged(at: string): Body {
  const body = example("pull_request", "closed");
  body.number = 2;
  body.pull_request.number = 2;
  body.pull_request.merged = true;
  body.pull_request.merged_at = at;
  return body;
}

async function deliver(t: TestApp, signed: { path: string; init: RequestInit }): Promise<Ingested> {
  return dataOf<Ingested>(t.app.request(signed.path, signed.init), 201);
}

/** The error tracker's issue `id` created: its first delivery opens an issue. */
function errorCreated(id: string): Body {
  const body = structuredClone(loadFixture("errortracker/issue.created.json")) as Body;
  body.data.issue.id = id;
  return body;
}

const read = <T>(t: TestApp, path: string) => dataOf<T>(t.app.request(path, { headers: AUTH }));

/** Claims the one queued issue and completes it `done` with `outcome`. */
async function claimAndComplete(t: TestApp, outcome: Record<string, unknown>) {
  const { dispatch } = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "a" })), 201);
  return dataOf<{ dispatch: Dispatch; issue: Issue }>(
    t.app.request(
      `/api/dispatch/${dispatch.id}/complete`,
      jsonPost({ result: "done", summary: "Done", ...outcome }, { Authorization: `Bearer ${dispatch.token}` }),
    ),
  );
}

describe("timestamps a client sends", () => {
  it("are kept and answered as the instant in UTC with milliseconds: an issue's commits, a completion's pull requests and commits", async () => {
    const t = await testApp();
    const created = await dataOf<Issue>(
      t.app.request(
        "/api/issues",
        jsonPost({
          title: "Slow search",
          type: "task",
          status: "todo",
          commits: [{ sha: "abc1234", message: "Index", timestamp: "2026-11-20T11:00:00+01:00" }],
        }),
      ),
      201,
    );
    expect(created.commits[0]?.timestamp).toBe("2026-11-20T10:00:00.000Z");

    const { dispatch, issue } = await claimAndComplete(t, {
      commits: [{ sha: "def5678", message: "Cache", timestamp: "2026-11-28T19:00:00-05:00" }],
      pullRequests: [{ number: 2, title: "x", state: "closed", mergedAt: "2026-11-29T00:00:00Z" }],
    });
    for (const outcome of [dispatch.outcome, (await read<Dispatch>(t, `/api/dispatch/${dispatch.id}`)).outcome]) {
      expect(outcome?.pullRequests[0]?.mergedAt).toBe("2026-11-29T00:00:00.000Z");
      expect(outcome?.commits[0]?.timestamp).toBe("2026-11-29T00:00:00.000Z");
    }
    for (const answered of [issue, await read<Issue>(t, `/api/issues/${issue.id}`)]) {
      expect(answered.pullRequests[0]?.mergedAt).toBe("2026-11-29T00:00:00.000Z");
      expect(answered.commits.map((commit) => commit.timestamp)).toEqual([
        "2026-11-20T10:00:00.000Z",
        "2026-11-29T00:00:00.000Z",
      ]);
    }
  });
});

describe("optional fields of pull requests and commits", () => {
  it("are null when a client leaves them out: on the completion's answer, the dispatch and the issue", async () => {
    const t = await testApp();
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "Flaky", type: "task", status: "todo" })), 201);
    const { dispatch, issue } = await claimAndComplete(t, {
      commits: [{ sha: "abc1234", message: "Fix" }],
      pullRequests: [{ number: 2, title: "x", state: "closed" }],
    });
    const pullRequest = { number: 2, title: "x", url: null, repository: null, state: "closed", mergedAt: null };
    const commit = { sha: "abc1234", message: "Fix", url: null, author: null, timestamp: null };
    for (const outcome of [dispatch.outcome, (await read<Dispatch>(t, `/api/dispatch/${dispatch.id}`)).outcome]) {
      expect(outcome?.pullRequests).toEqual([pullRequest]);
      expect(outcome?.commits).toEqual([commit]);
    }
    for (const answered of [issue, await read<Issue>(t, `/api/issues/${issue.id}`)]) {
      expect(answered.pullRequests).toEqual([pullRequest]);
      expect(answered.commits).toEqual([commit]);
    }
  });

  it("are null on an issue created or patched without them", async () => {
    const t = await testApp();
    const created = await dataOf<Issue>(
      t.app.request(
        "/api/issues",
        jsonPost({ title: "Docs", type: "task", pullRequests: [{ number: 5, title: "y" }] }),
      ),
      201,
    );
    expect(created.pullRequests).toEqual([
      { number: 5, title: "y", url: null, repository: null, state: null, mergedAt: null },
    ]);
    const patched = await dataOf<Issue>(
      t.app.request(`/api/issues/${created.id}`, {
        ...jsonPost({ commits: [{ sha: "0123abc", message: "Docs", author: "ana" }] }),
        method: "PATCH",
      }),
    );
    expect(patched.commits).toEqual([{ sha: "0123abc", message: "Docs", url: null, author: "ana", timestamp: null }]);
  });

  it("read as null on items stored without them", async () => {
    const t = await testApp();
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "Old", type: "task", status: "todo" })), 201);
    const { dispatch, issue } = await claimAndComplete(t, {});
    // As the code before this stored a completion's pull request and commit: the fields given, no others.
    const pullRequests = [{ number: 2, title: "x", state: "closed", repository: null }];
    const commits = [{ sha: "abc1234", message: "Fix" }];
    await t.db.update({
      Key: issueKey(issue.id),
      UpdateExpression: "SET #pullRequests = :pullRequests, #commits = :commits",
      ExpressionAttributeNames: { "#pullRequests": "pullRequests", "#commits": "commits" },
      ExpressionAttributeValues: { ":pullRequests": pullRequests, ":commits": commits },
    });
    await t.db.update({
      Key: dispatchKey(dispatch.id),
      UpdateExpression: "SET #outcome.#pullRequests = :pullRequests, #outcome.#commits = :commits",
      ExpressionAttributeNames: { "#outcome": "outcome", "#pullRequests": "pullRequests", "#commits": "commits" },
      ExpressionAttributeValues: { ":pullRequests": pullRequests, ":commits": commits },
    });
    const pullRequest = { number: 2, title: "x", url: null, repository: null, state: "closed", mergedAt: null };
    const commit = { sha: "abc1234", message: "Fix", url: null, author: null, timestamp: null };
    const stored = await read<Issue>(t, `/api/issues/${issue.id}`);
    expect(stored.pullRequests).toEqual([pullRequest]);
    expect(stored.commits).toEqual([commit]);
    const outcome = (await read<Dispatch>(t, `/api/dispatch/${dispatch.id}`)).outcome;
    expect(outcome?.pullRequests).toEqual([pullRequest]);
    expect(outcome?.commits).toEqual([commit]);
  });
});

describe("times the code host reports", () => {
  it("are kept as the instant in UTC with milliseconds: a review's time, a merge's on the issue, its watch and its dispatch", async () => {
    const t = await testApp();
    await dataOf(t.app.request("/api/issues", jsonPost({ title: "NaN total", type: "task", status: "todo" })), 201);
    const { dispatch, issue } = await claimAndComplete(t, { pullRequests: [PULL_REQUEST] });
    expect(issue.status).toBe("in_review");

    const reviewed = await deliver(t, codehostDelivery("pull_request_review", approved("2026-11-29T09:00:00+09:00")));
    expect(reviewed.issue?.feedback.at(-1)).toMatchObject({ kind: "approved", at: "2026-11-29T00:00:00.000Z" });

    const done = await deliver(t, codehostDelivery("pull_request", merged("2026-11-29T00:00:00Z")));
    expect(done.signal.action).toBe("closed_loop");
    for (const answered of [done.issue, await read<Issue>(t, `/api/issues/${issue.id}`)]) {
      expect(answered?.pullRequests[0]?.mergedAt).toBe("2026-11-29T00:00:00.000Z");
      expect(answered?.verification).toMatchObject({
        mergedAt: "2026-11-29T00:00:00.000Z",
        until: "2026-12-02T00:00:00.000Z",
      });
      expect(answered?.feedback.at(-1)?.at).toBe("2026-11-29T00:00:00.000Z");
    }
    expect((await read<Dispatch>(t, `/api/dispatch/${dispatch.id}`)).outcome?.verification?.mergedAt).toBe(
      "2026-11-29T00:00:00.000Z",
    );
    // The approval is kept as a human review of the prompt behind the pull request, dated by it.
    const reviews = () => read<{ source: string; createdAt: string }[]>(t, `/api/prompts/${dispatch.promptId}/reviews`);
    expect(await reviews()).toEqual([
      expect.objectContaining({ source: "codehost", createdAt: "2026-11-29T00:00:00.000Z" }),
    ]);

    // As the code before this kept it: the review's submitted_at verbatim, on each of its listing entries.
    const doc = DynamoDBDocumentClient.from(t.db.client);
    const { Items = [] } = await doc.send(new ScanCommand({ TableName: t.tableName, ConsistentRead: true }));
    const entries = Items.filter((item) => item.source === "codehost" && item.authorType === "human");
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      await t.db.update({
        Key: { pk: entry.pk, sk: entry.sk },
        UpdateExpression: "SET #createdAt = :sent",
        ExpressionAttributeNames: { "#createdAt": "createdAt" },
        ExpressionAttributeValues: { ":sent": "2026-11-29T09:00:00+09:00" },
      });
    }
    expect(await reviews()).toEqual([expect.objectContaining({ createdAt: "2026-11-29T00:00:00.000Z" })]);
  });
});

describe("times stored as they were sent", () => {
  it("read in UTC with milliseconds, and a watch stored so still charges its dispatch when the problem returns", async () => {
    const t = await testApp();
    const opened = await deliver(t, errortrackerDelivery("issue", errorCreated("920001")));
    const id = (opened.issue as Issue).id;
    await dataOf(t.app.request(`/api/issues/${id}`, { ...jsonPost({ status: "todo" }), method: "PATCH" }));
    const { dispatch } = await claimAndComplete(t, { pullRequests: [PULL_REQUEST] });
    const mergedAt = new Date(Date.now() - 60_000).toISOString();
    await deliver(t, codehostDelivery("pull_request", merged(mergedAt)));
    const watched = (await read<Issue>(t, `/api/issues/${id}`)).verification;
    expect(watched?.status).toBe("pending");

    // As the code before this stored them: the code host's and the agent's times verbatim.
    const asSent = mergedAt.replace(/\.\d{3}Z$/, "Z");
    const readAs = new Date(asSent).toISOString();
    await t.db.update({
      Key: issueKey(id),
      UpdateExpression: "SET #verification.#mergedAt = :mergedAt, #pullRequests = :pullRequests, #feedback = :feedback",
      ExpressionAttributeNames: {
        "#verification": "verification",
        "#mergedAt": "mergedAt",
        "#pullRequests": "pullRequests",
        "#feedback": "feedback",
      },
      ExpressionAttributeValues: {
        ":mergedAt": asSent,
        ":pullRequests": [
          { number: 2, title: "Guard the total", repository: REPOSITORY, state: "merged", mergedAt: asSent },
        ],
        ":feedback": [
          {
            kind: "commented",
            author: "ana",
            body: "Why?",
            url: null,
            at: "2026-11-20T10:00:00+02:00",
            pullRequest: { repository: REPOSITORY, number: 2 },
          },
        ],
      },
    });
    await t.db.update({
      Key: dispatchKey(dispatch.id),
      UpdateExpression: "SET #outcome.#verification.#mergedAt = :mergedAt",
      ExpressionAttributeNames: { "#outcome": "outcome", "#verification": "verification", "#mergedAt": "mergedAt" },
      ExpressionAttributeValues: { ":mergedAt": asSent },
    });
    const stored = await read<Issue>(t, `/api/issues/${id}`);
    expect(stored.verification?.mergedAt).toBe(readAs);
    expect(stored.pullRequests).toEqual([
      { number: 2, title: "Guard the total", url: null, repository: REPOSITORY, state: "merged", mergedAt: readAs },
    ]);
    expect(stored.feedback[0]?.at).toBe("2026-11-20T08:00:00.000Z");
    expect((await read<Dispatch>(t, `/api/dispatch/${dispatch.id}`)).outcome?.verification?.mergedAt).toBe(readAs);

    // The problem is back within the window: the issue's watch and its dispatch's, read alike, match.
    const back = await deliver(t, errortrackerDelivery("issue", errorCreated("920001")));
    expect(back.signal.action).toBe("regressed");
    expect((await read<Dispatch>(t, `/api/dispatch/${dispatch.id}`)).outcome?.verification).toMatchObject({
      status: "regressed",
      mergedAt: readAs,
      signalId: back.signal.id,
    });
  });
});
