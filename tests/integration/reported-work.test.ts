/**
 * The pull requests and commits an issue and a dispatch's outcome keep, as the API answers them
 * (docs/api.md#identifiers-and-fields): every timestamp in UTC with milliseconds, whatever offset a
 * client sent it with, and every optional field `null` when absent — in items written before that
 * too, whose attributes are set here as today's code had stored them.
 */
import { describe, expect, it } from "vitest";
import { dispatchKey } from "../../core/src/dispatch/keys.js";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import { issueKey } from "../../core/src/issues/keys.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue };

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
