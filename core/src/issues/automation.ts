/**
 * @module issues/automation — when a project's triage issue moves to `todo` by itself
 * (docs/api.md#automation), as a pure decision over the issue as a signal leaves it. Pure, no I/O.
 */
import type { AutomationHold } from "./issue-item.js";

/** A project's automation thresholds; `null`: that rule is off. */
export interface AutomationRules {
  acceptAtPriority: number | null;
  acceptAtSignals: number | null;
}

/** What the decision reads of the issue, as the signal leaves it. */
export interface AutomationCandidate {
  status: string;
  priority: number;
  signalCount: number;
}

/**
 * Whether the project's automation accepts `issue` now: it is in `triage` and its priority is at
 * least as urgent as `acceptAtPriority` (1 is the most urgent; 0, none, never is), or it has
 * gathered `acceptAtSignals` signals. After a person moved it back (`hold`), the signals count from
 * where it stood then, and the priority rule holds only for a priority more urgent than it had:
 * the same evidence never pulls it again.
 * @example accepts({ status: "triage", priority: 1, signalCount: 1 }, null, { acceptAtPriority: 1, acceptAtSignals: null }) // true
 */
export function accepts(
  issue: AutomationCandidate,
  hold: AutomationHold | null,
  rules: AutomationRules | null,
): boolean {
  if (!rules || issue.status !== "triage") return false;
  const { acceptAtPriority, acceptAtSignals } = rules;
  const urgent =
    acceptAtPriority !== null &&
    issue.priority !== 0 &&
    issue.priority <= acceptAtPriority &&
    (hold === null || hold.priority === 0 || issue.priority < hold.priority);
  const signals = issue.signalCount - (hold?.signalCount ?? 0);
  const frequent = acceptAtSignals !== null && signals >= acceptAtSignals;
  return urgent || frequent;
}
