/**
 * A dispatch in the issue page's words (console/src/dispatch-text.ts): its cost against its budget
 * or none, what it waits for, its plan's approval, who wrote an activity and a person's decision
 * on a plan.
 */
import { describe, expect, it } from "vitest";
import {
  authorText,
  costText,
  dollars,
  isOpen,
  latest,
  planText,
  typeText,
  waitingText,
} from "../../../console/src/dispatch-text.js";

const usage = (costUsd: number | null) => ({ inputTokens: null, outputTokens: null, costUsd, model: null });

describe("a dispatch in words", () => {
  it("says its running cost against its budget, or that it has none", () => {
    expect(costText({ usage: usage(0.5), costBudgetUsd: 2 })).toBe("$0.50 of its $2.00 budget (25 %)");
    expect(costText({ usage: usage(2.5), costBudgetUsd: 2 })).toBe("$2.50 of its $2.00 budget (125 %)");
    expect(costText({ usage: null, costBudgetUsd: 2 })).toBe("none reported of its $2.00 budget");
    expect(costText({ usage: usage(null), costBudgetUsd: null })).toBe("none reported, no budget");
    expect(costText({ usage: usage(1.234), costBudgetUsd: null })).toBe("$1.23, no budget");
    expect(dollars(0.004)).toBe("$0.0040");
    expect(dollars(0)).toBe("$0.00");
  });

  it("says what an open dispatch waits for and whether its plan was approved", () => {
    expect(isOpen({ status: "active" })).toBe(true);
    expect(isOpen({ status: "waiting" })).toBe(true);
    expect(isOpen({ status: "stopped" })).toBe(false);
    expect(waitingText({ status: "waiting", waitingFor: "input" })).toBe("waits for an answer");
    expect(waitingText({ status: "waiting", waitingFor: "approval" })).toBe("waits for approval of its plan");
    expect(waitingText({ status: "active", waitingFor: null })).toBeNull();
    expect(planText({ planApproved: null })).toBeNull();
    expect(planText({ planApproved: true })).toBe("Plan approved.");
    expect(planText({ planApproved: false })).toMatch(/^Plan not approved yet/);
  });

  it("names an activity's author and type, a person's decision on a plan included", () => {
    expect(authorText({ authorType: "agent", authorName: "a1" })).toEqual({ name: "a1", kind: "agent" });
    expect(authorText({ authorType: "human", authorName: null })).toEqual({ name: "operator", kind: "person" });
    expect(typeText({ type: "message", data: { decision: "approved" } })).toBe("plan approved");
    expect(typeText({ type: "message", data: null })).toBe("message");
    expect(typeText({ type: "elicitation", data: { decision: "approved" } })).toBe("elicitation");
    const activities = [{ type: "plan" as const }, { type: "thought" as const }, { type: "plan" as const, n: 3 }];
    expect(latest(activities, "plan")).toBe(activities[2]);
    expect(latest(activities, "elicitation")).toBeNull();
  });
});
