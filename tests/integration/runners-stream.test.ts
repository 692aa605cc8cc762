/**
 * Hosted runners (docs/api.md#hosted-runners) driven by the table's real change stream, as `npm start` reads it
 * from DynamoDB Local (infra/local/events.ts): an issue that becomes eligible is handed over without a
 * sweep, and a dispatch that completes frees its place and the next issue is handed at once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp } from "../../core/src/index.js";
import { OPEN_GUARD } from "../../core/src/outbound-guard.js";
import { startLocalEvents } from "../../infra/local/events.js";
import { AUTH, dataOf, jsonPost } from "../helpers/app.js";
import { freshTable, testConfig } from "../helpers/db.js";
import { startGitHubStandIn } from "../helpers/github-stand-in.js";

const EXPECTED = { repository: "acme/app", githubToken: "ghp_streamTestToken0123456789", eventType: "kaizen-dispatch" };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("hosted runners on the change stream", () => {
  it("hand over an issue as it becomes eligible, and the next as soon as a dispatch completes", async () => {
    const github = await startGitHubStandIn(EXPECTED);
    const { db, tableName, endpoint } = await freshTable({ stream: true });
    const config = testConfig({
      tableName,
      endpoint,
      githubApiUrl: github.url,
      publicBaseUrl: "https://kaizen.example.com",
    });
    const app = createApp(ALL_FAMILIES, { config, db, outboundGuard: OPEN_GUARD });
    const local = await startLocalEvents({ db, config, outboundGuard: OPEN_GUARD }, () => undefined, {
      runners: { timeoutMs: 2_000 },
    });
    cleanups.push(
      () => github.close(),
      () => local.stop(),
    );
    const runner = await dataOf<{ id: string }>(
      app.request("/api/runners", jsonPost({ name: "ci", kind: "github_actions", ...EXPECTED })),
      201,
    );
    const first = await dataOf<{ identifier: string }>(
      app.request("/api/issues", jsonPost({ title: "First", type: "task", status: "todo" })),
      201,
    );
    const [handed] = await github.waitFor(1);
    expect(handed?.problems).toEqual([]);
    expect(handed?.body.client_payload.issue).toBe(first.identifier);

    // A second issue waits: the runner's one place is taken.
    const second = await dataOf<{ identifier: string }>(
      app.request("/api/issues", jsonPost({ title: "Second", type: "task", status: "todo" })),
      201,
    );
    await local.drained();
    expect(github.received).toHaveLength(1);

    const { dispatchId, token } = handed?.body.client_payload ?? { dispatchId: "", token: "" };
    const completed = await app.request(`/api/dispatch/${dispatchId}/complete`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ result: "done", summary: "Fixed" }),
    });
    expect(completed.status).toBe(200);
    const [, next] = await github.waitFor(2);
    expect(next?.body.client_payload.issue).toBe(second.identifier);
    await local.drained();
    const shown = await dataOf<{ activeDispatches: number }>(
      app.request(`/api/runners/${runner.id}`, { headers: AUTH }),
    );
    expect(shown.activeDispatches).toBe(1);
    expect(github.received).toHaveLength(2);
  });
});
