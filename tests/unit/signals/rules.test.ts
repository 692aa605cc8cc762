import { describe, expect, it } from "vitest";
import {
  isSeverity,
  lifecycleEffect,
  manualFingerprint,
  priorityForSeverity,
  SEVERITIES,
  type Severity,
  severityAtLeast,
} from "../../../core/src/signals/rules.js";

describe("severities", () => {
  it("are ordered from low to critical", () => {
    expect(SEVERITIES).toEqual(["low", "medium", "high", "critical"]);
  });

  it.each<[Severity, number]>([
    ["critical", 1],
    ["high", 2],
    ["medium", 3],
    ["low", 4],
  ])("%s gives a new issue priority %d", (severity, priority) => {
    expect(priorityForSeverity(severity)).toBe(priority);
  });

  it("compares against a floor", () => {
    for (const [i, severity] of SEVERITIES.entries()) {
      for (const [j, floor] of SEVERITIES.entries()) {
        expect(severityAtLeast(severity, floor)).toBe(i >= j);
      }
    }
  });

  it("recognises exactly the four names", () => {
    for (const severity of SEVERITIES) expect(isSeverity(severity)).toBe(true);
    for (const other of ["", "urgent", "High", null, 1, undefined]) expect(isSeverity(other)).toBe(false);
  });
});

describe("lifecycleEffect (docs/api.md#what-a-signal-does rule 2)", () => {
  it.each([
    ["codehost", "issues.closed", "close"],
    ["codehost", "issues.reopened", "reopen"],
    ["errortracker", "issue.resolved", "close"],
    ["errortracker", "metric_alert.resolved", "close"],
    ["errortracker", "issue.unresolved", "reopen"],
    ["codehost", "issues.opened", null],
    ["codehost", "pull_request.closed", null],
    ["codehost", "issue.resolved", null],
    ["errortracker", "issues.closed", null],
    ["errortracker", "issue.archived", null],
    ["errortracker", "metric_alert.critical", null],
    ["analytics", "issues.closed", null],
    ["manual", "issue.resolved", null],
    ["codehost", "toString", null],
  ])("%s %s → %s", (source, type, effect) => {
    expect(lifecycleEffect(source, type)).toBe(effect);
  });
});

describe("manualFingerprint", () => {
  it("is the given fingerprint, else manual:<source>:<type>", () => {
    expect(manualFingerprint("ops", "deploy_failed", "deploy:api")).toBe("deploy:api");
    expect(manualFingerprint("ops", "deploy_failed")).toBe("manual:ops:deploy_failed");
    expect(manualFingerprint("ops", "deploy_failed", null)).toBe("manual:ops:deploy_failed");
    expect(manualFingerprint("ops", "deploy_failed", "")).toBe("manual:ops:deploy_failed");
    expect(manualFingerprint("ops", "deploy_failed", "  ")).toBe("manual:ops:deploy_failed");
  });
});
