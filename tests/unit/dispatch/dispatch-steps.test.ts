/** What a step of an open dispatch changes (core/src/dispatch/dispatch-steps.ts): pure functions. */
import { describe, expect, it } from "vitest";
import {
  agentActivityStep,
  budgetStopReason,
  MAX_WAITING_SECONDS,
  resumeStep,
  runningUsage,
} from "../../../core/src/dispatch/dispatch-steps.js";
import type { Dispatch } from "../../../core/src/dispatch/schemas.js";
import { activeDispatch } from "../../helpers/dispatches.js";

const NOW = new Date("2026-11-28T10:00:00.000Z");
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

const active: Dispatch = activeDispatch({
  leaseSeconds: 600,
  claimedAt: "2026-11-28T09:00:00.000Z",
  leaseExpiresAt: "2026-11-28T10:05:00.000Z",
});

describe("agentActivityStep", () => {
  it("is a heartbeat on an active dispatch, whatever the kind, when nothing makes it wait", () => {
    for (const type of ["thought", "action", "response", "error", "plan"] as const) {
      expect(agentActivityStep(active, type, NOW), type).toEqual({
        heartbeatAt: NOW.toISOString(),
        leaseExpiresAt: later(600),
      });
    }
  });

  it("makes a question wait for input, its lease paused for the longest wait", () => {
    expect(agentActivityStep(active, "elicitation", NOW)).toEqual({
      status: "waiting",
      waitingFor: "input",
      heartbeatAt: NOW.toISOString(),
      leaseExpiresAt: later(MAX_WAITING_SECONDS),
    });
    expect(MAX_WAITING_SECONDS).toBe(7 * 24 * 3600);
  });

  it("makes a plan wait for approval only where plans need one, and un-approves an approved plan", () => {
    const guarded = { ...active, planApproved: true };
    expect(agentActivityStep(guarded, "plan", NOW)).toEqual({
      status: "waiting",
      waitingFor: "approval",
      planApproved: false,
      heartbeatAt: NOW.toISOString(),
      leaseExpiresAt: later(MAX_WAITING_SECONDS),
    });
  });

  it("keeps a waiting dispatch's deadline from when it began to wait, and leaves a wait for approval so", () => {
    const waiting = { ...active, status: "waiting" as const, waitingFor: "approval" as const, planApproved: false };
    expect(agentActivityStep(waiting, "thought", NOW)).toEqual({});
    expect(agentActivityStep(waiting, "elicitation", NOW)).toMatchObject({
      waitingFor: "approval",
      leaseExpiresAt: waiting.leaseExpiresAt,
    });
    const asking = { ...active, status: "waiting" as const, waitingFor: "input" as const, planApproved: false };
    expect(agentActivityStep(asking, "plan", NOW)).toMatchObject({
      waitingFor: "approval",
      leaseExpiresAt: asking.leaseExpiresAt,
    });
  });

  it("resumes with a fresh lease of the dispatch's length", () => {
    expect(resumeStep(active, NOW)).toEqual({ status: "active", waitingFor: null, leaseExpiresAt: later(600) });
  });
});

describe("runningUsage", () => {
  it("keeps the highest of each figure and the model last named; nothing reported keeps what was", () => {
    const kept = { inputTokens: 100, outputTokens: null, costUsd: 2, model: "m1" };
    expect(runningUsage(kept, undefined)).toBe(kept);
    expect(runningUsage(null, { costUsd: 1 })).toEqual({
      inputTokens: null,
      outputTokens: null,
      costUsd: 1,
      model: null,
    });
    expect(runningUsage(kept, { inputTokens: 50, outputTokens: 7, costUsd: 2.5, model: "m2" })).toEqual({
      inputTokens: 100,
      outputTokens: 7,
      costUsd: 2.5,
      model: "m2",
    });
    expect(runningUsage(kept, { costUsd: 1.5 })).toEqual(kept);
  });
});

describe("budgetStopReason", () => {
  it("names the cost and the budget once the cost passes it, and nothing at or below it or without one", () => {
    const budgeted = { ...active, costBudgetUsd: 5 };
    const usage = (costUsd: number | null) => ({ inputTokens: null, outputTokens: null, costUsd, model: null });
    expect(budgetStopReason(budgeted, usage(5))).toBeNull();
    expect(budgetStopReason(budgeted, usage(null))).toBeNull();
    expect(budgetStopReason(budgeted, null)).toBeNull();
    expect(budgetStopReason(active, usage(1000))).toBeNull();
    expect(budgetStopReason(budgeted, usage(5.01))).toBe(
      "Cost budget passed: $5.01 reported, the project's limit is $5 per dispatch (limits.maxCostPerDispatchUsd)",
    );
  });
});
