import { describe, expect, it } from "vitest";
import type { IssueStatus } from "../../../core/src/issues/schemas.js";
import { type RoutedSignal, risenPriority, routeSignal } from "../../../core/src/signals/routing.js";

const AT = "2026-03-04T05:06:07.000Z";
const signal = (overrides: Partial<RoutedSignal> = {}): RoutedSignal => ({
  source: "codehost",
  type: "issues.edited",
  severity: "medium",
  title: "Checkout crashes",
  fingerprint: "codehost:issue:o/r#1",
  manual: false,
  sourceKey: "o/r",
  ...overrides,
});
const existing = (status: IssueStatus, priority = 3, signalCount = 1) => ({ status, priority, signalCount });

describe("routeSignal", () => {
  it("opens a triage signal issue for severity ≥ medium with no issue, from the signal's facts", () => {
    for (const severity of ["medium", "high", "critical"] as const) {
      const routing = routeSignal(signal({ severity }), null, AT);
      expect(routing.action).toBe("opened");
      if (routing.action !== "opened") continue;
      expect(routing.issue).toMatchObject({
        title: "Checkout crashes",
        type: "signal",
        status: "triage",
        priority: { medium: 3, high: 2, critical: 1 }[severity],
        fingerprint: "codehost:issue:o/r#1",
        signalSource: "codehost",
        signalCount: 1,
        lastSignalAt: AT,
        completedAt: null,
      });
    }
  });

  it("records low severity with no open issue, and opens for any manual signal", () => {
    expect(routeSignal(signal({ severity: "low", type: "push" }), null, AT)).toEqual({ action: "recorded" });
    const manual = routeSignal(signal({ severity: "low", manual: true, source: "ops", projectId: "prj_X" }), null, AT);
    expect(manual).toMatchObject({ action: "opened", issue: { priority: 4, projectId: "prj_X", signalSource: "ops" } });
  });

  it("groups into an open issue of any status but done and canceled", () => {
    for (const status of ["triage", "backlog", "todo", "in_progress"] as const) {
      expect(routeSignal(signal({ severity: "low" }), existing(status, 3, 4), AT)).toEqual({
        action: "grouped",
        changes: { signalCount: 5, lastSignalAt: AT },
        by: "signal",
      });
    }
  });

  it("raises priority, never lowers it", () => {
    expect(routeSignal(signal({ severity: "critical" }), existing("todo", 3), AT)).toMatchObject({
      changes: { priority: 1 },
    });
    const milder = routeSignal(signal({ severity: "low" }), existing("todo", 2), AT);
    expect(milder.action === "grouped" && "priority" in milder.changes).toBe(false);
    expect(routeSignal(signal({ severity: "low" }), existing("todo", 0), AT)).toMatchObject({
      changes: { priority: 4 },
    });
  });

  it("closes a grouped triage or backlog issue on a close event, and nothing further along", () => {
    const close = signal({ type: "issues.closed" });
    for (const status of ["triage", "backlog"] as const) {
      expect(routeSignal(close, existing(status), AT)).toMatchObject({
        action: "grouped",
        changes: { status: "done", completedAt: AT },
      });
    }
    for (const status of ["todo", "in_progress"] as const) {
      const routing = routeSignal(close, existing(status), AT);
      expect(routing.action === "grouped" && "status" in routing.changes).toBe(false);
    }
    const resolved = signal({ source: "errortracker", type: "issue.resolved", severity: "high" });
    expect(routeSignal(resolved, existing("triage"), AT)).toMatchObject({ changes: { status: "done" } });
  });

  it("reopens a done issue on a reopen event, and not a canceled one", () => {
    const reopen = signal({ type: "issues.reopened" });
    expect(routeSignal(reopen, existing("done", 3, 2), AT)).toEqual({
      action: "grouped",
      changes: { signalCount: 3, lastSignalAt: AT, status: "triage", completedAt: null },
      by: "signal",
    });
    expect(routeSignal(reopen, existing("canceled"), AT).action).toBe("opened");
  });

  it("opens a new issue when the fingerprint's issue is finished and the event does not reopen it", () => {
    expect(routeSignal(signal({ severity: "high" }), existing("done"), AT).action).toBe("opened");
    expect(routeSignal(signal({ severity: "low" }), existing("canceled"), AT).action).toBe("recorded");
  });

  it("records a close event with nothing open to close instead of opening an issue", () => {
    expect(routeSignal(signal({ type: "issues.closed" }), null, AT)).toEqual({ action: "recorded" });
    expect(routeSignal(signal({ type: "issues.closed" }), existing("done"), AT)).toEqual({ action: "recorded" });
    const resolved = signal({ source: "errortracker", type: "metric_alert.resolved", severity: "low" });
    expect(routeSignal(resolved, null, AT)).toEqual({ action: "recorded" });
  });
});

describe("routeSignal on a done issue whose merged fix is watched (docs/api.md#verification)", () => {
  const watched = {
    status: "pending" as const,
    mergedAt: "2026-03-04T00:00:00.000Z",
    until: "2026-03-07T00:00:00.000Z",
    regressedAt: null,
    signalId: null,
    dispatchId: "dsp_01JD0000000000000000000001",
  };
  const done = { ...existing("done", 3, 4), verification: watched };

  it("calls the problem's return within the window a regression: back to todo, the watch regressed", () => {
    for (const type of ["issues.edited", "issues.reopened"]) {
      expect(routeSignal(signal({ type, severity: "high" }), done, AT)).toEqual({
        action: "regressed",
        changes: {
          signalCount: 5,
          lastSignalAt: AT,
          priority: 2,
          status: "todo",
          completedAt: null,
          verification: { ...watched, status: "regressed", regressedAt: AT },
        },
        by: "signal",
      });
    }
  });

  it("is no regression for a close event, after the window, or once the watch ended", () => {
    expect(routeSignal(signal({ type: "issues.closed" }), done, AT).action).toBe("recorded");
    expect(routeSignal(signal(), done, watched.until).action).toBe("opened");
    for (const status of ["verified", "regressed"] as const) {
      expect(routeSignal(signal(), { ...done, verification: { ...watched, status } }, AT).action).toBe("opened");
    }
    expect(routeSignal(signal(), { ...done, status: "canceled" as const }, AT).action).toBe("opened");
  });
});

describe("risenPriority", () => {
  it.each([
    [0, 4, 4],
    [0, 1, 1],
    [3, 1, 1],
    [1, 3, 1],
    [2, 2, 2],
    [4, 3, 3],
  ])("from %i with %i gives %i", (current, incoming, expected) => {
    expect(risenPriority(current, incoming)).toBe(expected);
  });
});

describe("routeSignal with its project's automation (docs/api.md#automation)", () => {
  const automation = { acceptAtPriority: 2, acceptAtSignals: 3 };

  it("opens an issue straight in todo, by automation, when it meets a threshold", () => {
    const routed = routeSignal(signal({ severity: "high", type: "issues.opened" }), null, AT, automation);
    expect(routed).toMatchObject({
      action: "opened",
      issue: { status: "todo", priority: 2, statusChange: { from: "triage", to: "todo", by: "automation", at: AT } },
    });
    const mild = routeSignal(signal({ severity: "medium", type: "issues.opened" }), null, AT, automation);
    expect(mild).toMatchObject({ action: "opened", issue: { status: "triage", statusChange: null } });
  });

  it("moves a grouped triage issue to todo on the signal that reaches the count, and nothing further along", () => {
    expect(routeSignal(signal(), existing("triage", 3, 1), AT, automation)).toMatchObject({ by: "signal" });
    expect(routeSignal(signal(), existing("triage", 3, 2), AT, automation)).toEqual({
      action: "grouped",
      changes: { signalCount: 3, lastSignalAt: AT, status: "todo" },
      by: "automation",
    });
    expect(routeSignal(signal(), existing("backlog", 3, 9), AT, automation)).toMatchObject({ by: "signal" });
  });

  it("moves one whose priority the signal raises to the threshold", () => {
    expect(routeSignal(signal({ severity: "critical" }), existing("triage", 3, 1), AT, automation)).toMatchObject({
      changes: { priority: 1, status: "todo" },
      by: "automation",
    });
  });

  it("leaves alone one a person held back at that count", () => {
    const held = { ...existing("triage", 3, 4), hold: { signalCount: 4, priority: 3 } };
    expect(routeSignal(signal(), held, AT, automation)).toMatchObject({ by: "signal" });
  });
});
