/**
 * @module signals/issue-effect — what a routed signal does on the issues' side (docs/api.md#what-a-signal-does):
 * a grouping or a regression links it to its issue (through the issue rules' commutative writes), an
 * opening makes the issue with it as its first signal and points the fingerprint at it. The writes go
 * into the signal's own transaction (./signal-ingest.ts).
 */
import type { SourceRouting } from "../catalog/source-store.js";
import type { TransactItem } from "../db/db.js";
import type { StoredIssue } from "../issues/issue-item.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { Issue } from "../issues/schemas.js";
import type { SignalLinks } from "../issues/signal-links.js";
import type { Routing } from "./routing.js";
import type { SignalHead, SignalStore } from "./signal-store.js";

/** What a signal does to the issues: the writes for its transaction and the issue as left. */
export interface IssueEffect {
  issue: Issue | null;
  writes: TransactItem[];
  /** The writes that replace `writes` while another transaction holds the issue item. */
  whenHeld?: TransactItem[];
  /** Signals already wait beside the issue (a storm): `whenHeld` from the start. */
  held?: boolean;
  /** What follows once the writes are in (a human review's improvement task); its failure is logged, not answered. */
  after?: () => Promise<void>;
}

/** What the effect is computed with: the issues' owner and links (the ingest's), and the signals' owner for the fingerprint's pointer. */
export interface IssueSide {
  issues: { store: Pick<IssueStore, "takeNumber" | "prepareCreate">; links: Pick<SignalLinks, "linkSignal"> };
  signals: Pick<SignalStore, "pointFingerprint">;
}

/** The routed signal: its head, the issue its fingerprint points at (read), and that pointer's value. */
export interface RoutedStep {
  fingerprint: string;
  routing: Routing;
  current: StoredIssue | undefined;
  signal: SignalHead;
  pointer: string | null;
  /** The routing of the signal's project, as read for it (its goal bonus goes on an issue it opens). */
  project: SourceRouting | null;
}

/** What the routing does on the issues' side: writes for the signal's transaction, and the issue as left. */
export async function issueEffect(
  { issues, signals }: IssueSide,
  { fingerprint, routing, current, signal, pointer, project }: RoutedStep,
): Promise<IssueEffect> {
  if ((routing.action === "grouped" || routing.action === "regressed") && current) {
    const regressed =
      routing.action === "regressed" ? { ...routing.changes.verification, signalId: signal.id } : undefined;
    const changes = regressed ? { ...routing.changes, verification: regressed } : routing.changes;
    // The regression is charged to the dispatch whose pull request merged (docs/api.md#verification).
    const outcome =
      regressed?.dispatchId && regressed.regressedAt
        ? {
            dispatchId: regressed.dispatchId,
            mark: {
              kind: "regressed" as const,
              mergedAt: regressed.mergedAt,
              regressedAt: regressed.regressedAt,
              signalId: signal.id,
            },
          }
        : undefined;
    const { stored, writes, whenHeld, fold } = await issues.links.linkSignal(
      current,
      changes,
      signal,
      routing.by,
      outcome,
    );
    const held = current.signalsWaiting === true || fold === true;
    return { issue: stored.issue, writes, ...(whenHeld ? { whenHeld, held } : {}) };
  }
  if (routing.action === "opened" && signal.issueId) {
    // The next number, then the issue with this signal its first, in the signal's own transaction.
    const taken = await issues.store.takeNumber(new Date(signal.receivedAt));
    const { stored, writes } = issues.store.prepareCreate(routing.issue, taken, signal.issueId, {
      recentSignals: [signal],
      // Its project's goal bonus, as the signal's routing knows it (docs/api.md#score).
      goalActive: project?.projectId === routing.issue.projectId ? project.goalActive : false,
    });
    return { issue: stored.issue, writes: [...writes, signals.pointFingerprint(fingerprint, signal.issueId, pointer)] };
  }
  return { issue: null, writes: [] };
}
