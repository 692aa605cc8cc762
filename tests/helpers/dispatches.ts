/** A dispatch as the API shows it, for tests of what reads one (pure functions, clients). */
import type { Dispatch } from "../../core/src/dispatch/schemas.js";

/**
 * An active dispatch just claimed, with `fields` in place of its defaults.
 * @example activeDispatch({ status: "waiting", waitingFor: "input" })
 */
export function activeDispatch(fields: Partial<Dispatch> = {}): Dispatch {
  return {
    id: "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V30",
    issueId: "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V31",
    agent: "agent-1",
    status: "active",
    waitingFor: null,
    promptId: null,
    attempt: 1,
    leaseSeconds: 1800,
    claimedAt: "2026-11-25T14:00:00.000Z",
    heartbeatAt: null,
    leaseExpiresAt: "2026-11-25T14:30:00.000Z",
    finishedAt: null,
    outcome: null,
    usage: null,
    stopReason: null,
    planApproved: null,
    costBudgetUsd: null,
    ...fields,
  };
}
