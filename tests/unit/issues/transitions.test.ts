import { describe, expect, it } from "vitest";
import { ISSUE_STATUSES } from "../../../core/src/issues/schemas.js";
import { completedAtAfter, isOpen, transitionRefusal } from "../../../core/src/issues/transitions.js";
import { PATCH_MOVES } from "../../helpers/issue-states.js";

const PAIRS = ISSUE_STATUSES.flatMap((from) => ISSUE_STATUSES.map((to) => [from, to] as const));

describe("issue transitions", () => {
  it("cover all 49 from/to pairs", () => {
    expect(PAIRS).toHaveLength(49);
  });

  it.each(PAIRS)("PATCH %s → %s", (from, to) => {
    const refusal = transitionRefusal(from, to, "patch");
    if (from === to || PATCH_MOVES[from].includes(to)) expect(refusal).toBeNull();
    else expect(refusal).toBe(`Cannot move issue from ${from} to ${to}`);
  });

  it.each(PAIRS)("dispatch %s → %s", (from, to) => {
    const allowed =
      from === to ||
      PATCH_MOVES[from].includes(to) ||
      (from === "todo" && to === "in_progress") ||
      (from === "in_progress" && to === "in_review") ||
      // A stopped dispatch may send its issue to the backlog.
      (from === "in_progress" && to === "backlog");
    expect(transitionRefusal(from, to, "dispatch") === null).toBe(allowed);
  });

  it.each(PAIRS)("signal %s → %s: also finishes any open issue", (from, to) => {
    const allowed =
      from === to || PATCH_MOVES[from].includes(to) || (to === "done" && from !== "done" && from !== "canceled");
    expect(transitionRefusal(from, to, "signal") === null).toBe(allowed);
  });

  it("sets completedAt on entering done or canceled and clears it on leaving", () => {
    const now = "2026-01-02T03:04:05.000Z";
    expect(completedAtAfter("triage", "done", null, now)).toBe(now);
    expect(completedAtAfter("in_progress", "canceled", null, now)).toBe(now);
    expect(completedAtAfter("done", "triage", "2025-01-01T00:00:00.000Z", now)).toBeNull();
    expect(completedAtAfter("canceled", "backlog", "2025-01-01T00:00:00.000Z", now)).toBeNull();
    expect(completedAtAfter("done", "done", "2025-01-01T00:00:00.000Z", now)).toBe("2025-01-01T00:00:00.000Z");
    expect(completedAtAfter("triage", "todo", null, now)).toBeNull();
  });

  it("calls done and canceled finished, everything else open", () => {
    expect(ISSUE_STATUSES.filter(isOpen)).toEqual(["triage", "backlog", "todo", "in_progress", "in_review"]);
  });
});
