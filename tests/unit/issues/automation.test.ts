import { describe, expect, it } from "vitest";
import { accepts } from "../../../core/src/issues/automation.js";

const triage = (priority: number, signalCount = 1) => ({ status: "triage", priority, signalCount });
const rules = (acceptAtPriority: number | null, acceptAtSignals: number | null) => ({
  acceptAtPriority,
  acceptAtSignals,
});

describe("accepts (docs/api.md#automation)", () => {
  it("takes a triage issue at least as urgent as acceptAtPriority, never one of no priority", () => {
    expect(accepts(triage(1), null, rules(2, null))).toBe(true);
    expect(accepts(triage(2), null, rules(2, null))).toBe(true);
    expect(accepts(triage(3), null, rules(2, null))).toBe(false);
    expect(accepts(triage(0), null, rules(4, null))).toBe(false);
  });

  it("takes a triage issue that gathered acceptAtSignals signals", () => {
    expect(accepts(triage(4, 4), null, rules(null, 5))).toBe(false);
    expect(accepts(triage(4, 5), null, rules(null, 5))).toBe(true);
    expect(accepts(triage(4, 500), null, rules(null, 5))).toBe(true);
  });

  it("takes nothing without rules, and nothing outside triage", () => {
    expect(accepts(triage(1, 1000), null, null)).toBe(false);
    expect(accepts(triage(1, 1000), null, rules(null, null))).toBe(false);
    for (const status of ["backlog", "todo", "in_progress", "in_review", "done", "canceled"]) {
      expect(accepts({ status, priority: 1, signalCount: 1000 }, null, rules(4, 2)), status).toBe(false);
    }
  });

  it("after a person held it back, counts signals from there and wants a more urgent priority", () => {
    const hold = { signalCount: 6, priority: 2 };
    expect(accepts(triage(2, 7), hold, rules(2, 5))).toBe(false);
    expect(accepts(triage(2, 10), hold, rules(2, 5))).toBe(false);
    expect(accepts(triage(2, 11), hold, rules(2, 5))).toBe(true);
    expect(accepts(triage(1, 7), hold, rules(2, 5))).toBe(true);
    // Held back with no priority: any priority that meets the rule is news.
    expect(accepts(triage(2, 7), { signalCount: 6, priority: 0 }, rules(2, null))).toBe(true);
  });
});
