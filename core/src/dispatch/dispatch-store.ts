/**
 * @module dispatch/dispatch-store — every write of dispatches: a dispatch with its listing entries
 * and lease entry, an agent's place in a project, finishing one only while it is active, marking
 * what became of its work, and the steps that move its lease and append its activities. Its items:
 * ./dispatch-item.ts; reads: ./dispatch-queries.ts; claims under way: ./claimers.ts; keys:
 * ./keys.ts; the queue: issues/dispatch-queue.ts.
 */

import type { Db, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import type { DispatchEnd } from "../issues/issue-moves.js";
import type { OutcomeCount, OutcomeMark } from "../issues/outcomes.js";
import { type AgentCount, agentCountAdditions } from "../stats/agent-stats.js";
import { countChange, plainAddition } from "../stats/counts.js";
import { usageAdditions } from "../stats/usage-stats.js";
import { armOutcomeAdditions, armOutcomeCountAdditions } from "../templates/experiment-counts.js";
import { versionOutcomeAdditions, versionOutcomeCountAdditions } from "../templates/version-counts.js";
import type { Claimers } from "./claimers.js";
import {
  CLAIMED_VERSION,
  entryOf,
  fromItem,
  isOpen,
  type StopActor,
  type StoredDispatch,
  type VersionedDispatch,
} from "./dispatch-item.js";
import type { DispatchQueries } from "./dispatch-queries.js";
import {
  activityKey,
  agentLoadKey,
  DISPATCH_LISTINGS,
  dispatchKey,
  dispatchListings,
  dispatchSortKey,
  leaseKey,
} from "./keys.js";
import { markOutcome, reportedOutcome } from "./outcome-marks.js";
import type {
  Activity,
  Dispatch,
  DispatchUsage,
  EndedDispatchStatus,
  OpenDispatchStatus,
  ReportedOutcome,
  WaitingFor,
} from "./schemas.js";

/** Dispatches as the dispatch services take them: their writes, their reads, and the claims under way. */
export interface Dispatches {
  store: DispatchStore;
  queries: DispatchQueries;
  claimers: Claimers;
}

/**
 * A step of an open dispatch that does not end it (./dispatch-progress.ts): a heartbeat, an activity
 * (its sequence the dispatch's count + 1), a turn to `waiting` and back, a running usage.
 */
export interface DispatchStep {
  status?: OpenDispatchStatus;
  waitingFor?: WaitingFor | null;
  heartbeatAt?: string;
  leaseExpiresAt?: string;
  usage?: DispatchUsage | null;
  planApproved?: boolean | null;
  /** The activity it appends. */
  activity?: Activity;
  /** Holds only while the lease runs at this time (an agent's step of an active dispatch). */
  leaseRunningAt?: string;
}

/** How a dispatch ends (see {@link DispatchStore.prepareFinish}). */
export interface DispatchFinish {
  /** What its agent reported, on a completion. */
  reported?: ReportedOutcome | null;
  /** What it cost, as its agent last reported it. */
  usage?: DispatchUsage | null;
  /** What already became of its work (a merge finishing the issue while it worked). */
  mark?: OutcomeMark;
  /** Why it was stopped, and who stopped it. */
  stop?: { reason: string; by: StopActor };
}

// Named condition fragments.
/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The dispatch has not ended (active or waiting) and is as it was read. */
const openAtVersion = "#status IN (:active, :waiting) AND #version = :expectedVersion";
/** Its lease has not run out. */
const leaseRunning = "#leaseExpiresAt > :now";
/** The agent holds fewer active dispatches of the project than its limit. */
const belowAgentLimit = "attribute_not_exists(#active) OR #active < :limit";

export class DispatchStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, DISPATCH_LISTINGS);
  }

  async get(id: string): Promise<StoredDispatch | undefined> {
    const item = await this.db.get(dispatchKey(id), { consistent: true });
    return item ? fromItem(item) : undefined;
  }

  /** The writes that record a new active dispatch, its listing entries and its lease entry. */
  prepareCreate(
    dispatch: Dispatch,
    tokenHash: string,
    issueNumber: number,
    promptVersion: StoredDispatch["promptVersion"] = null,
    projectId: string | null = null,
    claimedByKeyId: string | null = null,
  ): TransactItem[] {
    return [
      {
        Put: {
          Item: {
            ...dispatchKey(dispatch.id),
            entity: entityOf("dispatch"),
            version: CLAIMED_VERSION,
            tokenHash,
            issueNumber,
            promptVersion,
            projectId,
            claimedByKeyId,
            ...dispatch,
          },
          ConditionExpression: itemAbsent,
        },
      },
      ...this.listings.additions(
        dispatchListings(dispatch),
        dispatchSortKey(dispatch.id),
        entryOf(dispatch, projectId),
      ),
      { Put: { Item: { ...leaseKey(dispatch.leaseExpiresAt, dispatch.id), dispatchId: dispatch.id } } },
      countChange(`dispatch.status#${dispatch.status}`, 1),
    ];
  }

  /**
   * The write of a claim that counts its dispatch among `agent`'s active ones in project
   * `projectId`; with `limit` (the project's `limits.maxActivePerAgent`) it holds only while the
   * agent has fewer, so concurrent claims never pass the limit. On a failed condition the
   * cancellation returns the count (`active`). A plain update, not a spread count: the condition
   * reads the whole count on one item.
   */
  prepareAgentLoad(projectId: string, agent: string, limit: number | null): TransactItem {
    return {
      Update: {
        Key: agentLoadKey(projectId, agent),
        UpdateExpression: "ADD #active :one",
        ExpressionAttributeNames: { "#active": "active" },
        ExpressionAttributeValues: { ":one": 1, ...(limit === null ? {} : { ":limit": limit }) },
        ...(limit === null
          ? {}
          : { ConditionExpression: belowAgentLimit, ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const }),
      },
    };
  }

  /**
   * The writes that end `current` with `status`: they hold only while it is open (active or
   * waiting) and unchanged, so a dispatch ends once (a second completion, or a completion racing
   * its expiry or a stop, loses). A completion may carry what already became of its work (`mark`:
   * a merge that finished the issue while the agent worked); the end and the mark are counted
   * together. Its usage counts toward the dashboards' sums here, once.
   */
  prepareFinish(
    current: StoredDispatch,
    status: EndedDispatchStatus,
    finishedAt: string,
    { reported = null, usage = current.dispatch.usage, mark, stop }: DispatchFinish = {},
  ): VersionedDispatch & { writes: TransactItem[] } {
    const completed = reported ? reportedOutcome(reported) : null;
    const marked = completed && mark ? markOutcome(completed, mark) : null;
    const outcome = marked?.outcome ?? completed;
    const stopReason = stop?.reason ?? null;
    const dispatch: Dispatch = {
      ...current.dispatch,
      status,
      waitingFor: null,
      finishedAt,
      outcome,
      usage,
      stopReason,
    };
    return {
      dispatch,
      version: current.version + 1,
      writes: [
        {
          Update: {
            Key: dispatchKey(dispatch.id),
            UpdateExpression:
              "SET #status = :status, #waitingFor = :waitingFor, #finishedAt = :finishedAt, #outcome = :outcome, #usage = :usage, #stopReason = :stopReason, #stoppedBy = :stoppedBy, #version = :next",
            ConditionExpression: openAtVersion,
            ExpressionAttributeNames: {
              "#status": "status",
              "#waitingFor": "waitingFor",
              "#finishedAt": "finishedAt",
              "#outcome": "outcome",
              "#usage": "usage",
              "#stopReason": "stopReason",
              "#stoppedBy": "stoppedBy",
              "#version": "version",
            },
            ExpressionAttributeValues: {
              ":status": status,
              ":waitingFor": null,
              ":finishedAt": finishedAt,
              ":outcome": outcome,
              ":usage": usage,
              ":stopReason": stopReason,
              ":stoppedBy": stop?.by ?? null,
              ":active": "active",
              ":waiting": "waiting",
              ":expectedVersion": current.version,
              ":next": current.version + 1,
            },
          },
        },
        ...this.statusWrites(current.dispatch, dispatch, current.projectId),
        { Delete: { Key: leaseKey(current.dispatch.leaseExpiresAt, dispatch.id) } },
        ...(current.promptVersion
          ? versionOutcomeAdditions(
              current.promptVersion.templateId,
              current.promptVersion.versionNumber,
              status === "completed",
              usage,
            )
          : []),
        ...(current.promptVersion?.experiment
          ? armOutcomeAdditions(
              {
                templateId: current.promptVersion.templateId,
                experimentId: current.promptVersion.experiment.id,
                arm: current.promptVersion.experiment.arm,
              },
              status,
              usage,
            )
          : []),
        ...(current.projectId ? [plainAddition(agentLoadKey(current.projectId, dispatch.agent), "active", -1)] : []),
        ...(usage ? usageAdditions(finishedAt, dispatch.agent, current.projectId, usage) : []),
        ...agentCountAdditions(finishedAt, dispatch.agent, [status]),
        // Claims count on the day of the claim, once they end: the claim's own transaction stays as
        // small as it can be; the agents' dashboard adds the claims still active (activeClaims).
        ...agentCountAdditions(dispatch.claimedAt, dispatch.agent, ["claims"]),
        ...(marked ? this.outcomeCountAdditions(current, finishedAt, marked.counted) : []),
      ],
    };
  }

  /**
   * The writes that put `mark` on a dispatch that ended (docs/api.md#outcomes): its outcome, at
   * the version read, and the outcome counts of its template version, experiment arm and agent
   * (on the day of `at`); none when the mark changes nothing (a redelivered review, a watch
   * already ended, a dispatch with no completed outcome).
   */
  prepareMark(current: StoredDispatch, mark: OutcomeMark, at: string): TransactItem[] {
    if (isOpen(current.dispatch.status) || !current.dispatch.outcome) return [];
    const marked = markOutcome(current.dispatch.outcome, mark);
    if (!marked) return [];
    return [
      {
        Update: {
          Key: dispatchKey(current.dispatch.id),
          UpdateExpression: "SET #outcome = :outcome, #version = :next",
          ConditionExpression: "#version = :expectedVersion",
          ExpressionAttributeNames: { "#outcome": "outcome", "#version": "version" },
          ExpressionAttributeValues: {
            ":outcome": marked.outcome,
            ":expectedVersion": current.version,
            ":next": current.version + 1,
          },
        },
      },
      ...this.outcomeCountAdditions(current, at, marked.counted),
    ];
  }

  /** The outcome counts of a dispatch's template version, experiment arm and agent. */
  private outcomeCountAdditions(current: StoredDispatch, at: string, counted: OutcomeCount[]): TransactItem[] {
    if (counted.length === 0) return [];
    const version = current.promptVersion;
    return [
      ...(version ? versionOutcomeCountAdditions(version.templateId, version.versionNumber, counted) : []),
      ...(version?.experiment
        ? armOutcomeCountAdditions(
            { templateId: version.templateId, experimentId: version.experiment.id, arm: version.experiment.arm },
            counted,
          )
        : []),
      ...agentCountAdditions(at, current.dispatch.agent, counted satisfies AgentCount[]),
    ];
  }

  /**
   * The writes that end dispatch `id` as an issue move asks (issues/issue-moves.ts: the issue it works
   * was finished, given back or deleted); none when it is no longer active.
   */
  async prepareEnd(id: string, end: DispatchEnd, at: Date): Promise<TransactItem[]> {
    const current = await this.get(id);
    if (!current || !isOpen(current.dispatch.status)) return [];
    return this.prepareFinish(current, end.status, at.toISOString(), { reported: end.outcome, mark: end.mark }).writes;
  }

  /** The writes that put `mark` on dispatch `id` (see {@link DispatchStore.prepareMark}); none when it is gone. */
  async prepareMarkOf(id: string, mark: OutcomeMark, at: Date): Promise<TransactItem[]> {
    const current = await this.get(id);
    return current ? this.prepareMark(current, mark, at.toISOString()) : [];
  }

  /** The writes of a dispatch's move from `before`'s status to `after`'s: its listing entries and the status counts. */
  private statusWrites(before: Dispatch, after: Dispatch, projectId: string | null): TransactItem[] {
    return [
      ...this.listings.changes(
        dispatchListings(before),
        dispatchListings(after),
        dispatchSortKey(after.id),
        entryOf(after, projectId),
        true,
      ),
      countChange(`dispatch.status#${before.status}`, -1),
      countChange(`dispatch.status#${after.status}`, 1),
    ];
  }

  /**
   * The writes of a step of an open dispatch (see {@link DispatchStep}): its changed fields, held to
   * the version read while it is open (and, with `leaseRunning`, while its lease runs), so steps
   * taken at once take turns; its listing entries and status counts when its status changes; its
   * lease entry when its lease moves; and the activity it appends.
   */
  prepareStep(current: StoredDispatch, step: DispatchStep): VersionedDispatch & { writes: TransactItem[] } {
    const { activity, leaseRunningAt, ...asked } = step;
    const changes = Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== undefined));
    const dispatch: Dispatch = { ...current.dispatch, ...changes };
    const names: Record<string, string> = { "#status": "status", "#version": "version" };
    const values: Record<string, unknown> = {
      ":active": "active",
      ":waiting": "waiting",
      ":expectedVersion": current.version,
      ":next": current.version + 1,
    };
    const sets = ["#version = :next"];
    for (const [field, value] of Object.entries(changes)) {
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      if (field !== "status") sets.push(`#${field} = :${field}`);
    }
    if (changes.status !== undefined) sets.push("#status = :status");
    if (activity) {
      names["#activityCount"] = "activityCount";
      values[":activityCount"] = activity.sequence;
      sets.push("#activityCount = :activityCount");
    }
    if (leaseRunningAt !== undefined) {
      names["#leaseExpiresAt"] = "leaseExpiresAt";
      values[":now"] = leaseRunningAt;
    }
    const writes: TransactItem[] = [
      {
        Update: {
          Key: dispatchKey(dispatch.id),
          UpdateExpression: `SET ${sets.join(", ")}`,
          ConditionExpression: leaseRunningAt === undefined ? openAtVersion : `${openAtVersion} AND ${leaseRunning}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ];
    if (dispatch.leaseExpiresAt !== current.dispatch.leaseExpiresAt) {
      writes.push(
        { Delete: { Key: leaseKey(current.dispatch.leaseExpiresAt, dispatch.id) } },
        { Put: { Item: { ...leaseKey(dispatch.leaseExpiresAt, dispatch.id), dispatchId: dispatch.id } } },
      );
    }
    if (dispatch.status !== current.dispatch.status)
      writes.push(...this.statusWrites(current.dispatch, dispatch, current.projectId));
    if (activity) {
      writes.push({
        Put: {
          Item: { ...activityKey(activity.dispatchId, activity.sequence), entity: entityOf("activity"), ...activity },
          ConditionExpression: itemAbsent,
        },
      });
    }
    return { dispatch, version: current.version + 1, writes };
  }
}
