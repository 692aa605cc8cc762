/**
 * The pull requests and commits an issue and a dispatch's outcome keep, as the API answers them
 * (docs/api.md#identifiers-and-fields): every timestamp in UTC with milliseconds, whatever offset a
 * client sent it with.
 */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
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
