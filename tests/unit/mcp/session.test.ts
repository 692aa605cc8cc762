import { describe, expect, it } from "vitest";
import { KaizenApiError } from "../../../client/client.js";
import { McpSession, SessionError } from "../../../client/mcp/mcp-session.js";
import { createMcpServer, errorResult } from "../../../client/mcp/server.js";

const URL = "http://127.0.0.1:9";
const KEY = `kaizen_${"ab".repeat(32)}`;
const TOKEN = `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`;
const claim = {
  dispatch: {
    id: "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V30",
    issueId: "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V31",
    agent: "agent",
    status: "active" as const,
    promptId: "prm_01J2ZQ5K8Y3M4N6P7R9S0T1V32",
    attempt: 1,
    leaseSeconds: 1800,
    claimedAt: "2026-01-01T00:00:00.000Z",
    heartbeatAt: null,
    leaseExpiresAt: "2026-01-01T00:30:00.000Z",
    finishedAt: null,
    outcome: null,
    usage: null,
    stopReason: null,
    waitingFor: null,
    planApproved: null,
    costBudgetUsd: null,
    token: `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V30_${"1".repeat(64)}`,
  },
  // Only the fields the session reads; the rest of an issue does not matter here.
  issue: { id: "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V31", identifier: "KZN-7" } as never,
  prompt: null,
};

describe("McpSession", () => {
  it("takes its dispatch from the token, so the agent need not name it", () => {
    const session = new McpSession({ url: URL, apiKey: undefined, dispatchToken: TOKEN });
    expect(session.dispatchId()).toBe("dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2W");
    expect(session.dispatchId("dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2X")).toBe("dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2X");
  });

  it("refuses a token that is not a dispatch token", () => {
    expect(() => new McpSession({ url: URL, apiKey: KEY, dispatchToken: "kaizen_not-a-token" })).toThrow(SessionError);
  });

  it("has nothing to default to before a claim, and the claim's dispatch, issue and prompt after it", async () => {
    const session = new McpSession({ url: URL, apiKey: KEY, dispatchToken: undefined });
    expect(() => session.dispatchId()).toThrow("No dispatch in this session");
    await expect(session.issueId()).rejects.toThrow("pass issueId");
    session.adopt(claim);
    expect(session.dispatchId()).toBe(claim.dispatch.id);
    expect(await session.issueId()).toBe(claim.dispatch.issueId);
    expect(await session.promptId()).toBe(claim.dispatch.promptId);
    expect(session.current).toMatchObject({ token: claim.dispatch.token, identifier: "KZN-7", ended: false });
  });

  it("says so when the dispatch has no prompt to review", async () => {
    const session = new McpSession({ url: URL, apiKey: KEY, dispatchToken: undefined });
    session.adopt({ ...claim, dispatch: { ...claim.dispatch, promptId: null } });
    await expect(session.promptId()).rejects.toThrow("has no prompt to review");
  });

  it("marks a held dispatch ended from an answer that shows it finished", () => {
    const session = new McpSession({ url: URL, apiKey: KEY, dispatchToken: undefined });
    session.adopt(claim);
    session.remember({ ...claim.dispatch, status: "completed" });
    expect(session.current?.ended).toBe(true);
  });

  it("keeps a waiting dispatch open, so its token still serves it, and a stopped one ended", () => {
    const session = new McpSession({ url: URL, apiKey: KEY, dispatchToken: undefined });
    session.adopt(claim);
    session.remember({ ...claim.dispatch, status: "waiting", waitingFor: "input" });
    expect(session.current?.ended).toBe(false);
    session.remember({ ...claim.dispatch, status: "stopped", stopReason: "Wrong approach" });
    expect(session.current?.ended).toBe(true);
  });
});

describe("createMcpServer", () => {
  it("refuses to serve without a credential", () => {
    expect(() => createMcpServer({ url: URL, apiKey: undefined, dispatchToken: undefined })).toThrow(
      "No credential: set KAIZEN_API_KEY",
    );
  });
});

describe("errorResult", () => {
  it("carries the API's status, message and field details", () => {
    const result = errorResult(
      new KaizenApiError({
        status: 400,
        error: "Validation failed",
        details: [{ path: "title", message: "must be 1..500 characters" }],
        method: "POST",
        url: `${URL}/api/issues`,
        requestId: "req-1",
      }),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: "text", text: "Kaizen API 400: Validation failed\n- title: must be 1..500 characters\n(request req-1)" },
    ]);
    expect(result.structuredContent).toEqual({
      status: 400,
      error: "Validation failed",
      details: [{ path: "title", message: "must be 1..500 characters" }],
    });
  });

  it("says when the service cannot be reached, and passes other failures' messages on", () => {
    const unreachable = errorResult(
      new KaizenApiError({
        status: 0,
        error: "cannot reach http://127.0.0.1:9",
        method: "GET",
        url: `${URL}/api/issues`,
      }),
    );
    expect(unreachable.content).toEqual([
      { type: "text", text: "Kaizen API unreachable: cannot reach http://127.0.0.1:9" },
    ]);
    const session = errorResult(new SessionError("No dispatch in this session to default to"));
    expect(session).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "No dispatch in this session to default to" }],
    });
  });
});
