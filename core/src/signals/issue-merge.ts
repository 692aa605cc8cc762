/**
 * @module signals/issue-merge — folding a duplicate issue into the one that stays
 * (docs/api.md#merging-duplicates): in one transaction the source is canceled with a `duplicate`
 * relation to the target, the target takes its fingerprints, signals, latest signals and priority,
 * and every fingerprint that pointed at the source points at the target, so later signals of
 * either group there. A signal grouped into the source meanwhile makes the merge read again;
 * one left waiting beside the source is moved on to the target by its fold (issues/signal-folds.ts).
 */
import { ulid } from "ulid";
import { retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError } from "../errors.js";
import type { StoredIssue } from "../issues/issue-item.js";
import { laterOf, newestFirst, RECENT_SIGNALS } from "../issues/issue-item.js";
import type { IssueMoves } from "../issues/issue-moves.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { RelationStore } from "../issues/relation-store.js";
import { relationsFromEdges } from "../issues/relation-store.js";
import type { Issue } from "../issues/schemas.js";
import { risenPriority } from "./routing.js";
import type { SignalStore } from "./signal-store.js";

/** Most fingerprints one issue gathers by merges: the merge moves each one's pointer in its transaction. */
export const MAX_FINGERPRINTS = 40;
/** Most issues merged into one (their signals are listed with its own). */
export const MAX_MERGED = 100;

/** Statuses an issue being worked or reviewed is in: neither end of a merge may be. */
const AT_WORK: readonly Issue["status"][] = ["in_progress", "in_review"];

/** The issues' side of a merge: finding both ends, their moves, their relation. */
export interface MergeIssues {
  store: IssueStore;
  moves: IssueMoves;
  relations: RelationStore;
}

export class IssueMerge {
  constructor(
    private readonly issues: MergeIssues,
    /** The fingerprints' pointers, which the merge moves from the source to the target. */
    private readonly signals: SignalStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Merges `sourceRef` into `intoRef` and returns the target as it stays. 404 for an unknown
   * source or target; 409 with the reason for an issue merged into itself, a target that is done,
   * canceled or deleted, a source already finished, or either end at work.
   */
  async merge(sourceRef: string, intoRef: string): Promise<StoredIssue> {
    const relationId = `rel_${ulid()}`;
    return retryRaces(async () => {
      const [source, target] = await Promise.all([
        this.issues.store.require(sourceRef),
        this.issues.store.require(intoRef).catch(async (error: unknown) => {
          if (error instanceof NotFoundError && (await this.issues.store.isDeleted(intoRef))) {
            throw new ConflictError(`Cannot merge into ${intoRef}: it is deleted`);
          }
          throw error;
        }),
      ]);
      refuse(source.issue, target.issue);
      const fingerprints = [...new Set([...target.issue.fingerprints, ...source.issue.fingerprints])];
      const mergedFrom = [...new Set([...target.mergedFrom, source.issue.id, ...source.mergedFrom])];
      if (fingerprints.length > MAX_FINGERPRINTS || mergedFrom.length > MAX_MERGED) {
        throw new ConflictError(
          `Cannot merge ${source.issue.identifier} into ${target.issue.identifier}: an issue gathers at most ${MAX_FINGERPRINTS} fingerprints and ${MAX_MERGED} merged issues`,
        );
      }
      const [pointers, aggregate] = await Promise.all([
        this.signals.pointersOf(source.issue.fingerprints),
        this.issues.store.getAggregate(source.issue.id),
      ]);
      const at = this.now();
      const { moved, writes } = await this.issues.moves.prepareAll(
        [
          { current: source, by: "patch", changes: { status: "canceled" }, internals: { mergedInto: target.issue.id } },
          {
            current: target,
            by: "patch",
            changes: {
              fingerprints,
              signalCount: target.issue.signalCount + source.issue.signalCount,
              lastSignalAt: laterSignal(target.issue.lastSignalAt, source.issue.lastSignalAt),
              priority: risenPriority(target.issue.priority, source.issue.priority),
            },
            internals: {
              mergedFrom,
              recentSignals: newestFirst([...target.recentSignals, ...source.recentSignals]).slice(0, RECENT_SIGNALS),
            },
          },
        ],
        at,
      );
      const related = relationsFromEdges(aggregate?.relationEdges ?? [], source.issue.id).some(
        (relation) => relation.type === "duplicate" && relation.relatedIssueId === target.issue.id,
      );
      if (!related) {
        writes.push(
          ...this.issues.relations.prepareCreate({
            id: relationId,
            type: "duplicate",
            issueId: source.issue.id,
            relatedIssueId: target.issue.id,
            createdAt: at.toISOString(),
          }),
        );
      }
      for (const fingerprint of source.issue.fingerprints) {
        if (pointers.get(fingerprint) === source.issue.id) {
          writes.push(this.signals.pointFingerprint(fingerprint, target.issue.id, source.issue.id));
        }
      }
      await this.issues.store.transact(writes);
      const stayed = moved[1];
      if (!stayed) throw new Error("A merge never deletes the issue that stays");
      return stayed;
    });
  }
}

/** The 409 a merge of `source` into `target` gets, if any. */
function refuse(source: Issue, target: Issue): void {
  const into = `Cannot merge ${source.identifier} into ${target.identifier}`;
  if (source.id === target.id) throw new ConflictError(`Cannot merge ${source.identifier} into itself`);
  if (target.status === "done" || target.status === "canceled") {
    throw new ConflictError(`${into}: ${target.identifier} is ${target.status}`);
  }
  for (const end of [source, target]) {
    if (AT_WORK.includes(end.status)) throw new ConflictError(`${into}: ${end.identifier} is ${end.status}`);
  }
  if (source.status === "done" || source.status === "canceled") {
    throw new ConflictError(`${into}: ${source.identifier} is already ${source.status}`);
  }
}

function laterSignal(a: string | null, b: string | null): string | null {
  return a && b ? laterOf(a, b) : (a ?? b);
}
