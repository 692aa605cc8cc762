/**
 * @module issues/issue-moves — the one place an issue changes: a move takes issues as read, their changes
 * and who asks, and returns every write the change implies, for the caller's one transaction.
 */
import type { Key, TransactItem } from "../db/db.js";
import { ConflictError } from "../errors.js";
import { mergeCountChanges } from "../stats/counts.js";
import type { AutomationHold, IssueInternals, NewIssue, StoredIssue } from "./issue-item.js";
import type { IssueStore } from "./issue-store.js";
import type { OutcomeMark } from "./outcomes.js";
import { reviewLoadChanges } from "./review-load.js";
import type { Issue, StatusMover } from "./schemas.js";
import { completedAtAfter, isOpen, type TransitionActor, transitionRefusal } from "./transitions.js";
import { verificationWatchChanges } from "./verification-watch.js";

/** Who asks: a client's PATCH or DELETE, a signal (a close or reopen event, a merged fix), or the dispatch flow. */
export type Mover = TransitionActor | "delete";

/** How an issue's active dispatch ends when the issue leaves `in_progress` (its status and outcome). */
export interface DispatchEnd {
  status: "completed" | "failed" | "released" | "expired" | "stopped";
  outcome: { summary: string; commits: Issue["commits"]; pullRequests: Issue["pullRequests"] } | null;
  /** What already became of the work it completes with (a merge finishing the issue while it worked). */
  mark?: OutcomeMark;
}

/**
 * What the issues need of dispatches: the writes that end one, handed in by the composition root
 * (the dispatch domain owns those items).
 */
export interface DispatchEnding {
  /** The writes that end dispatch `id` as `end` says while it is still active; none once it ended. */
  prepareEnd(id: string, end: DispatchEnd, at: Date): Promise<TransactItem[]>;
  /**
   * The writes that put `mark` on dispatch `id`, which ended (docs/api.md#outcomes): none when the
   * mark changes nothing, so an event told twice counts once.
   */
  prepareMarkOf(id: string, mark: OutcomeMark, at: Date): Promise<TransactItem[]>;
}

/** One issue's move. */
export interface IssueMove {
  /** The issue as read: every write is conditioned on its version. */
  current: StoredIssue;
  by: Mover;
  /** Field changes; `completedAt` follows a status change here, whatever the caller passed. */
  changes?: Partial<NewIssue>;
  internals?: Partial<IssueInternals>;
  /**
   * How the active dispatch ends if the issue leaves `in_progress` (or is deleted in it): as the
   * dispatch domain already prepared it (a dispatch outcome), or asked of it (released by default).
   */
  dispatchEnd?: { prepared: TransactItem[] } | DispatchEnd;
  /**
   * What the move says became of a dispatch's work (docs/api.md#outcomes): review sent it back,
   * its pull request merged, its watched fix regressed or held. Put on that dispatch in the same
   * transaction — with its end, when the move ends it.
   */
  outcome?: { dispatchId: string; mark: OutcomeMark };
  /**
   * What Kaizen did on its own, for the audit log (docs/security.md#audit-log): a move `by`
   * `automation` that changes the status is recorded as `issue.status <from>→<to>` unless this
   * says more; any other move is recorded only when this is set (a verification's verdict).
   */
  recordAs?: string;
}

/** The audit log's record of Kaizen's own action, in the move's transaction (handed in by the composition root). */
export interface AutomationRecords {
  prepare(action: string, targetId: string, at: Date): TransactItem;
}

/** The issue as the move leaves it (null: deleted) and every write of the move. */
export interface MoveResult {
  moved: (StoredIssue | null)[];
  writes: TransactItem[];
}

const RELEASED: DispatchEnd = { status: "released", outcome: null };

export class IssueMoves {
  constructor(
    private readonly store: IssueStore,
    private readonly dispatches: DispatchEnding,
    private readonly records?: AutomationRecords,
  ) {}

  /** One move; see {@link IssueMoves.prepareAll}. */
  async prepare(move: IssueMove, now: Date): Promise<{ stored: StoredIssue | null; writes: TransactItem[] }> {
    const { moved, writes } = await this.prepareAll([move], now);
    return { stored: moved[0] ?? null, writes };
  }

  /**
   * The writes of several moves made together (a merged pull request closing every issue it
   * names): each issue under the state machine (409 on a refused move) with its listings, queue
   * entries and counts; the end of its active dispatch when it leaves `in_progress`; each issue it
   * blocks gaining or losing it in `blockedBy` (and joining or leaving the queue) when it starts
   * or stops being open; its project's count of issues in review when it enters or leaves review. Every item appears once, counts merged: one transaction can hold it all.
   */
  async prepareAll(moves: IssueMove[], now: Date): Promise<MoveResult> {
    const at = now.toISOString();
    const planned = moves.map((move) => planMove(move, at));
    const blockedByChanges = dependentChanges(planned);
    const movedIds = new Set(planned.map(({ move }) => move.current.issue.id));
    const writes: TransactItem[] = [];
    const moved: (StoredIssue | null)[] = [];
    for (const { move, changes, deleting, leavesWork, hold } of planned) {
      const { current } = move;
      const action = automationAction(move, changes);
      if (action && this.records) writes.push(this.records.prepare(action, current.issue.id, now));
      const endsMarked = leavesWork && move.outcome?.dispatchId === current.activeDispatchId;
      const ending = leavesWork && current.activeDispatchId ? await this.dispatchEnd(move, current, now) : [];
      const marking =
        move.outcome && !endsMarked
          ? await this.dispatches.prepareMarkOf(move.outcome.dispatchId, move.outcome.mark, now)
          : [];
      const watch = verificationWatchChanges(
        current.issue.id,
        current.issue.verification,
        deleting ? undefined : changes.verification === undefined ? current.issue.verification : changes.verification,
      );
      const blockedBy = blockedByChanges.get(current.issue.id);
      if (deleting) {
        writes.push(...this.store.prepareDelete(current, now).writes, ...ending, ...marking, ...watch);
        moved.push(null);
        continue;
      }
      const { stored, writes: issueWrites } = this.store.prepareUpdate(
        current,
        { ...changes, ...(blockedBy ? { blockedBy: blockedBy(current.issue.blockedBy) } : {}) },
        now,
        {
          ...move.internals,
          ...(leavesWork ? { activeDispatchId: null } : {}),
          ...(hold ? { automationHold: hold } : {}),
        },
      );
      writes.push(...issueWrites, ...ending, ...marking, ...watch);
      moved.push(stored);
    }
    const others = [...blockedByChanges.keys()].filter((id) => !movedIds.has(id));
    for (const dependent of others.length > 0 ? await this.store.getMany(others) : []) {
      const change = blockedByChanges.get(dependent.issue.id);
      if (!change) continue;
      const blockedBy = change(dependent.issue.blockedBy);
      if (sameMembers(blockedBy, dependent.issue.blockedBy)) continue;
      writes.push(...this.store.prepareRelationChange(dependent, { blockedBy }).writes);
    }
    writes.push(
      ...reviewLoadChanges(
        planned.map(({ move, changes, deleting }) => {
          const { issue } = move.current;
          const projectId = changes.projectId === undefined ? issue.projectId : changes.projectId;
          return { before: issue, after: deleting ? null : { status: changes.status ?? issue.status, projectId } };
        }),
      ),
    );
    return { moved, writes: oncePerItem(mergeCountChanges(writes)) };
  }

  private async dispatchEnd(move: IssueMove, current: StoredIssue, now: Date): Promise<TransactItem[]> {
    const end = move.dispatchEnd ?? RELEASED;
    if ("prepared" in end) return end.prepared;
    if (!current.activeDispatchId) return [];
    const mark = move.outcome?.dispatchId === current.activeDispatchId ? move.outcome.mark : undefined;
    return this.dispatches.prepareEnd(current.activeDispatchId, mark ? { ...end, mark } : end, now);
  }
}

/** What the audit log says of a move Kaizen made on its own; undefined for any other. */
function automationAction(move: IssueMove, changes: Partial<NewIssue>): string | undefined {
  if (move.recordAs) return move.recordAs;
  const { status } = move.current.issue;
  if (move.by !== "automation" || changes.status === undefined || changes.status === status) return undefined;
  return `issue.status ${status}→${changes.status}`;
}

interface PlannedMove {
  move: IssueMove;
  changes: Partial<NewIssue>;
  deleting: boolean;
  /** The issue leaves `in_progress` (or is deleted in it): its active dispatch ends. */
  leavesWork: boolean;
  wasOpen: boolean;
  nowOpen: boolean;
  /** A person moved it back to `triage` or `backlog`: where its project's automation counts from. */
  hold?: AutomationHold;
}

/** How an issue's `statusChange` names who moved it. */
const STATUS_MOVER: Record<TransitionActor, StatusMover> = {
  patch: "api",
  dispatch: "dispatch",
  signal: "signal",
  automation: "automation",
};

/** Checks a move against the state machine and settles what it changes. */
function planMove(move: IssueMove, at: string): PlannedMove {
  const { issue } = move.current;
  const deleting = move.by === "delete";
  const changes: Partial<NewIssue> = { ...move.changes };
  delete changes.completedAt;
  delete changes.statusChange;
  const to = changes.status ?? issue.status;
  if (to !== issue.status) {
    const refusal = deleting ? null : transitionRefusal(issue.status, to, move.by as TransitionActor);
    if (refusal) throw new ConflictError(refusal);
    changes.completedAt = completedAtAfter(issue.status, to, issue.completedAt, at);
    if (!deleting) changes.statusChange = { from: issue.status, to, by: STATUS_MOVER[move.by as TransitionActor], at };
  } else {
    delete changes.status;
  }
  const heldBack = move.by === "patch" && to !== issue.status && (to === "triage" || to === "backlog");
  return {
    move,
    changes,
    ...(heldBack ? { hold: { signalCount: issue.signalCount, priority: changes.priority ?? issue.priority } } : {}),
    deleting,
    leavesWork: issue.status === "in_progress" && (deleting || to !== "in_progress"),
    wasOpen: isOpen(issue.status),
    nowOpen: !deleting && isOpen(to),
  };
}

/**
 * For each issue a moving blocker blocks, how its `blockedBy` changes: a blocker that stops being
 * open (finished or deleted) leaves it, one that opens again joins it.
 */
function dependentChanges(planned: PlannedMove[]): Map<string, (blockedBy: string[]) => string[]> {
  const changes = new Map<string, (blockedBy: string[]) => string[]>();
  for (const { move, wasOpen, nowOpen } of planned) {
    if (wasOpen === nowOpen) continue;
    const blocker = move.current.issue.id;
    for (const dependent of move.current.blocking) {
      const before = changes.get(dependent) ?? ((blockedBy: string[]) => blockedBy);
      changes.set(dependent, (blockedBy) => {
        const without = before(blockedBy).filter((id) => id !== blocker);
        return nowOpen ? [...without, blocker] : without;
      });
    }
  }
  return changes;
}

function sameMembers(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

/** The writes, refusing any item written twice (DynamoDB refuses such a transaction as a whole). */
function oncePerItem(writes: TransactItem[]): TransactItem[] {
  const seen = new Set<string>();
  for (const write of writes) {
    const key = keyOf(write);
    if (!key) continue;
    const id = `${key.pk}\u0000${key.sk}`;
    if (seen.has(id)) throw new Error(`An issue move writes ${key.pk} ${key.sk} twice`);
    seen.add(id);
  }
  return writes;
}

function keyOf(write: TransactItem): Key | undefined {
  const key =
    write.Put?.Item ?? write.Update?.Key ?? write.Delete?.Key ?? write.ConditionCheck?.Key ?? write.SpreadAdd?.Key;
  return key ? { pk: String(key.pk), sk: String(key.sk) } : undefined;
}
