/**
 * @module dispatch/dispatch-steps — what a step of an open dispatch changes, as pure functions
 * (docs/api.md#activities): an agent's activity (a heartbeat, a question that
 * makes it wait for input, a plan that makes it wait for approval), a person's answer, the running
 * usage its agent reports and the budget it is held to. ./dispatch-progress.ts and ./dispatch-endings.ts write what they say.
 */
import type { DispatchStep } from "./dispatch-store.js";
import type { ActivityType, Dispatch, DispatchUsage, UsageInput } from "./schemas.js";

/** Longest a dispatch waits for a person before it expires (docs/api.md#questions-and-answers). */
export const MAX_WAITING_SECONDS = 7 * 24 * 3600;

/** The 409 of a `done` completion before the dispatch's latest plan was approved (docs/api.md#plan-approval). */
export const PLAN_APPROVAL_REQUIRED = "Plan approval required: post a plan activity and wait for approval";

/** The 409 message of every call of a stopped dispatch's token (docs/api.md#stopping-a-dispatch). */
export function stoppedMessage(reason: string | null): string {
  return `Dispatch was stopped: ${reason ?? "no reason given"}`;
}

type StepChanges = Omit<DispatchStep, "activity" | "leaseRunningAt" | "usage">;

const at = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

/**
 * What an agent's activity of `type` does to `dispatch` at `now`. A question (`elicitation`) makes it
 * wait for input, and a `plan` on a dispatch whose plan needs approval makes it wait for approval
 * (its plan not approved until a person says so): its lease pauses, and it expires only when it
 * waited {@link MAX_WAITING_SECONDS}, counted from when it began to wait. Anything else on an active
 * dispatch is a heartbeat (its lease runs its length from now); on a waiting one it changes nothing.
 * A question while it waits for approval leaves it waiting for approval: the approval answers both.
 * @example agentActivityStep(active, "elicitation", now) // { status: "waiting", waitingFor: "input", … }
 */
export function agentActivityStep(dispatch: Dispatch, type: ActivityType, now: Date): StepChanges {
  const waitsFor =
    type === "plan" && dispatch.planApproved !== null
      ? "approval"
      : type === "elicitation"
        ? dispatch.waitingFor === "approval"
          ? "approval"
          : "input"
        : null;
  if (waitsFor) {
    return {
      status: "waiting",
      waitingFor: waitsFor,
      heartbeatAt: now.toISOString(),
      leaseExpiresAt: dispatch.status === "waiting" ? dispatch.leaseExpiresAt : at(now, MAX_WAITING_SECONDS),
      ...(type === "plan" ? { planApproved: false } : {}),
    };
  }
  return heartbeatStep(dispatch, now);
}

/** A heartbeat at `now`: an active dispatch's lease runs its length from now; a waiting one's stays paused. */
export function heartbeatStep(dispatch: Dispatch, now: Date): StepChanges {
  if (dispatch.status === "waiting") return {};
  return { heartbeatAt: now.toISOString(), leaseExpiresAt: at(now, dispatch.leaseSeconds) };
}

/** A person's answer that sets the dispatch to work again: active, its lease its length from `now`. */
export function resumeStep(dispatch: Dispatch, now: Date): StepChanges {
  return { status: "active", waitingFor: null, leaseExpiresAt: at(now, dispatch.leaseSeconds) };
}

/**
 * The dispatch's usage once its agent reported `reported`: each figure is a running total, so a
 * lower one than already kept is ignored; the model is the one last named.
 * @example runningUsage({ costUsd: 2, … }, { costUsd: 1.5 }).costUsd // 2
 */
export function runningUsage(kept: DispatchUsage | null, reported: UsageInput | undefined): DispatchUsage | null {
  if (!reported) return kept;
  const higher = (was: number | null | undefined, now: number | undefined) =>
    now === undefined ? (was ?? null) : was === null || was === undefined ? now : Math.max(was, now);
  return {
    inputTokens: higher(kept?.inputTokens, reported.inputTokens),
    outputTokens: higher(kept?.outputTokens, reported.outputTokens),
    costUsd: higher(kept?.costUsd, reported.costUsd),
    model: reported.model ?? kept?.model ?? null,
  };
}

/** Whether two usages say the same. */
export function sameUsage(a: DispatchUsage | null, b: DispatchUsage | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Why the dispatch must stop for its cost (docs/api.md#budget-per-dispatch): its reported cost
 * passed its budget (`costBudgetUsd`, its project's `limits.maxCostPerDispatchUsd` at the claim);
 * null while it is within it, or has no budget.
 * @example budgetStopReason({ costBudgetUsd: 5, … }, { costUsd: 5.2, … }) // "Cost budget passed: …"
 */
export function budgetStopReason(dispatch: Dispatch, usage: DispatchUsage | null): string | null {
  const budget = dispatch.costBudgetUsd;
  const cost = usage?.costUsd ?? null;
  if (budget === null || cost === null || cost <= budget) return null;
  return `Cost budget passed: $${cost} reported, the project's limit is $${budget} per dispatch (limits.maxCostPerDispatchUsd)`;
}
