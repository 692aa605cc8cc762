/**
 * @module console/dispatch-text — a dispatch in words, as the issue page shows it
 * (docs/api.md#dispatch): what its agent reported its work cost, that cost against its budget,
 * what it waits for, who wrote an activity. Plain functions, so the unit tests read them without a
 * browser.
 */
import type { Schema } from "../../client/client.js";

type Dispatch = Schema<"Dispatch">;
type Activity = Schema<"Activity">;

/** Where a stopped dispatch's issue may go (docs/api.md#stopping-a-dispatch), the API's default first. */
export const STOP_THEN = ["todo", "backlog", "canceled"] as const;
export type StopThen = (typeof STOP_THEN)[number];

/** Whether an agent still works the dispatch: active, or waiting for a person. */
export function isOpen(dispatch: Pick<Dispatch, "status">): boolean {
  return dispatch.status === "active" || dispatch.status === "waiting";
}

/** US dollars: cents, or two significant digits below a cent (so $0.004 is not "$0.00"). */
export function dollars(amount: number): string {
  return amount === 0 || amount >= 0.01 ? `$${amount.toFixed(2)}` : `$${amount.toPrecision(2)}`;
}

/** What an agent reported its work cost, in words: only the parts it reported. */
export function usageText(usage: NonNullable<Dispatch["usage"]>): string {
  return [
    usage.inputTokens === null ? null : `${usage.inputTokens.toLocaleString()} tokens in`,
    usage.outputTokens === null ? null : `${usage.outputTokens.toLocaleString()} tokens out`,
    usage.costUsd === null ? null : `$${usage.costUsd.toFixed(2)}`,
    usage.model,
  ]
    .filter((part) => part !== null)
    .join(", ");
}

/**
 * The running cost against the dispatch's budget (its project's `limits.maxCostPerDispatchUsd` at
 * the claim): past it, Kaizen stops the dispatch (docs/api.md#budget-per-dispatch).
 * @example costText({ usage: { costUsd: 0.5, … }, costBudgetUsd: 2 }) // "$0.50 of its $2.00 budget (25 %)"
 */
export function costText(dispatch: Pick<Dispatch, "usage" | "costBudgetUsd">): string {
  const cost = dispatch.usage?.costUsd ?? null;
  const budget = dispatch.costBudgetUsd;
  if (budget === null) return cost === null ? "none reported, no budget" : `${dollars(cost)}, no budget`;
  if (cost === null) return `none reported of its ${dollars(budget)} budget`;
  return `${dollars(cost)} of its ${dollars(budget)} budget (${Math.round((cost / budget) * 100)} %)`;
}

/** What an open dispatch waits for, in words; null while its agent works. */
export function waitingText(dispatch: Pick<Dispatch, "status" | "waitingFor">): string | null {
  if (dispatch.status !== "waiting") return null;
  return dispatch.waitingFor === "approval" ? "waits for approval of its plan" : "waits for an answer";
}

/** Whether its plan was approved, for a dispatch whose project asked for plan approval; null otherwise. */
export function planText(dispatch: Pick<Dispatch, "planApproved">): string | null {
  if (dispatch.planApproved === null) return null;
  return dispatch.planApproved ? "Plan approved." : "Plan not approved yet: it may not complete as done before.";
}

/** Who wrote an activity: its agent by name, or a person (a person's answer carries no name). */
export function authorText(activity: Pick<Activity, "authorType" | "authorName">): { name: string; kind: string } {
  return activity.authorType === "human"
    ? { name: activity.authorName ?? "operator", kind: "person" }
    : { name: activity.authorName ?? "agent", kind: "agent" };
}

/** An activity's type as shown, with a person's decision on a plan. */
export function typeText(activity: Pick<Activity, "type" | "data">): string {
  const decision = activity.data?.decision;
  if (activity.type === "message" && (decision === "approved" || decision === "rejected")) return `plan ${decision}`;
  return activity.type;
}

/** The latest activity of `type`: the question a dispatch waits on, or the plan. */
export function latest<A extends Pick<Activity, "type">>(activities: readonly A[], type: Activity["type"]): A | null {
  for (let index = activities.length - 1; index >= 0; index--) {
    const activity = activities[index];
    if (activity?.type === type) return activity;
  }
  return null;
}
