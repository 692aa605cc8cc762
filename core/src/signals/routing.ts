/**
 * @module signals/routing — what a signal does to the issues (docs/api.md#what-a-signal-does), as a pure decision
 * over the signal and the issue its fingerprint last opened.
 */

import { type AutomationRules, accepts } from "../issues/automation.js";
import type { AutomationHold, NewIssue } from "../issues/issue-item.js";
import { newIssue } from "../issues/issue-item.js";
import type { IssueStatus, PullRequest, Verification } from "../issues/schemas.js";
import { lifecycleEffect, priorityForSeverity, type ReviewEvent, type Severity, severityAtLeast } from "./rules.js";

export interface RoutedSignal {
  source: string;
  type: string;
  severity: Severity;
  title: string;
  fingerprint: string;
  /** Sent through `POST /api/signals` rather than a webhook receiver. */
  manual: boolean;
  /** The project it routes to (docs/api.md#what-a-signal-does, step 0): its source's owner, or the manual signal's. */
  projectId?: string | null;
  /** The provider's repository, project or product it came from (null for manual signals). */
  sourceKey: string | null;
}

/** The issue the signal's fingerprint points at, as far as routing needs it. */
export interface KnownIssue {
  status: IssueStatus;
  priority: number;
  /** Where a person last held it back (its project's automation counts from there). */
  hold?: AutomationHold | null;
  /** Its merged fix, while watched (docs/api.md#verification). */
  verification?: Verification | null;
}

export type Routing =
  | {
      action: "grouped";
      changes: Partial<NewIssue> & { signalCount: number; lastSignalAt: string };
      /** `automation` when the signal brings the issue to its project's thresholds and it moves to `todo`. */
      by: "signal" | "automation";
    }
  | { action: "opened"; issue: NewIssue }
  | { action: "closed_loop"; pullRequest: PullRequest }
  | { action: "review"; event: ReviewEvent }
  | {
      action: "regressed";
      /** The issue back in `todo`, its verification `regressed` (the signal's id is the ingest's to add). */
      changes: Partial<NewIssue> & { signalCount: number; lastSignalAt: string; verification: Verification };
      by: "signal";
    }
  | { action: "recorded" };

const FINISHED: readonly IssueStatus[] = ["done", "canceled"];

/**
 * Grouped when the fingerprint's issue is open (or a reopen event finds it done); opened when
 * the signal matters (severity ≥ medium, or manual), no open issue has its fingerprint and it
 * is not a close event; recorded otherwise. An issue opened or grouped in `triage` that meets
 * `automation` (its project's) moves to `todo` at once (docs/api.md#automation).
 * @example routeSignal(signal, null, "2026-01-01T00:00:00.000Z") // { action: "opened", issue: … }
 */
export function routeSignal(
  signal: RoutedSignal,
  existing: (KnownIssue & { signalCount: number }) | null,
  receivedAt: string,
  automation: AutomationRules | null = null,
): Routing {
  const effect = lifecycleEffect(signal.source, signal.type);
  const watched = existing?.verification;
  if (
    existing &&
    existing.status === "done" &&
    watched?.status === "pending" &&
    receivedAt < watched.until &&
    effect !== "close"
  ) {
    // The problem a merged fix was meant to end is back within its window: the fix regressed.
    const priority = risenPriority(existing.priority, priorityForSeverity(signal.severity));
    return {
      action: "regressed",
      changes: {
        signalCount: existing.signalCount + 1,
        lastSignalAt: receivedAt,
        ...(priority !== existing.priority ? { priority } : {}),
        status: "todo",
        completedAt: null,
        verification: { ...watched, status: "regressed", regressedAt: receivedAt },
      },
      by: "signal",
    };
  }
  const open = existing !== null && !FINISHED.includes(existing.status);
  const reopening = existing !== null && existing.status === "done" && effect === "reopen";
  if (existing && (open || reopening)) {
    const changes: Partial<NewIssue> & { signalCount: number; lastSignalAt: string } = {
      signalCount: existing.signalCount + 1,
      lastSignalAt: receivedAt,
    };
    const priority = risenPriority(existing.priority, priorityForSeverity(signal.severity));
    if (priority !== existing.priority) changes.priority = priority;
    if (reopening) {
      changes.status = "triage";
      changes.completedAt = null;
    } else if (effect === "close" && (existing.status === "triage" || existing.status === "backlog")) {
      changes.status = "done";
      changes.completedAt = receivedAt;
    }
    const after = {
      status: changes.status ?? existing.status,
      priority: changes.priority ?? existing.priority,
      signalCount: changes.signalCount,
    };
    if (accepts(after, existing.hold ?? null, automation)) {
      return { action: "grouped", changes: { ...changes, status: "todo" }, by: "automation" };
    }
    return { action: "grouped", changes, by: "signal" };
  }
  // A close event with nothing open to close is news of something already finished.
  if (effect !== "close" && (signal.manual || severityAtLeast(signal.severity, "medium"))) {
    const priority = priorityForSeverity(signal.severity);
    const accepted = accepts({ status: "triage", priority, signalCount: 1 }, null, automation);
    return {
      action: "opened",
      issue: newIssue({
        title: signal.title,
        type: "signal",
        priority,
        projectId: signal.projectId ?? null,
        fingerprint: signal.fingerprint,
        signalSource: signal.source,
        signalCount: 1,
        lastSignalAt: receivedAt,
        ...(accepted
          ? { status: "todo", statusChange: { from: "triage", to: "todo", by: "automation", at: receivedAt } }
          : {}),
      }),
    };
  }
  return { action: "recorded" };
}

/** Priority only rises: 1 is the most urgent, 0 means none (below every other). */
export function risenPriority(current: number, incoming: number): number {
  if (current === 0) return incoming;
  return Math.min(current, incoming);
}
