/**
 * @module dispatch/dispatch-store — every DynamoDB expression about dispatches: a dispatch with its listing
 * entries and lease entry, finishing one only while it is active, heartbeats that move its lease,
 * and the leases that ran out. Keys: ./keys.ts; the queue: issues/dispatch-queue.ts.
 */

import { decodeTime } from "ulid";
import type { Db, Item, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { type EntryFilter, ListingIndex } from "../db/listing-index.js";
import type { DispatchEnd } from "../issues/issue-moves.js";
import type { OutcomeCount, OutcomeMark } from "../issues/outcomes.js";
import { type AgentCount, agentCountAdditions } from "../stats/agent-stats.js";
import { countChange, plainAddition } from "../stats/counts.js";
import { usageAdditions } from "../stats/usage-stats.js";
import { armOutcomeAdditions, armOutcomeCountAdditions, type PromptArm } from "../templates/experiment-counts.js";
import { versionOutcomeAdditions, versionOutcomeCountAdditions } from "../templates/version-counts.js";
import {
  activityKey,
  activityPartition,
  agentListing,
  agentLoadKey,
  claimerIdFloor,
  claimerKey,
  claimersPartition,
  DISPATCH_LISTINGS,
  dispatchKey,
  dispatchListings,
  dispatchSortKey,
  LEASE_PARTITION_KEY,
  leaseKey,
  padActivitySequence,
} from "./keys.js";
import { markOutcome, reportedOutcome, storedOutcome } from "./outcome-marks.js";
import type {
  Activity,
  Dispatch,
  DispatchStatus,
  DispatchUsage,
  EndedDispatchStatus,
  OpenDispatchStatus,
  ReportedOutcome,
  WaitingFor,
} from "./schemas.js";
import type { TokenDispatch } from "./token.js";

/** A dispatch as stored: what the API shows, the hash of its token, and its version. */
export interface StoredDispatch {
  dispatch: Dispatch;
  tokenHash: string;
  issueNumber: number;
  version: number;
  /**
   * The template version its prompt was rendered from, whose completion rate its end counts
   * toward, and the experiment arm it was rendered in, whose figures its end counts toward.
   */
  promptVersion: { templateId: string; versionNumber: number; experiment?: PromptArm | null } | null;
  /**
   * The project its issue was in when it was claimed (null: none, or claimed before this was kept):
   * its end frees the agent's place there and its usage counts toward that project's day.
   */
  projectId: string | null;
  /** How many activities it has (docs/api.md#activities): the last one's sequence. */
  activityCount: number;
  /** Who stopped it, once `stopped`. */
  stoppedBy: StopActor | null;
  /** The API key of its own that claimed it (null: the root key); that key may work on it. */
  claimedByKeyId: string | null;
}

/**
 * A step of an open dispatch that does not end it (./dispatch-endings.ts): a heartbeat, an activity
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

const DISPATCH_FIELDS = [
  "id",
  "issueId",
  "agent",
  "status",
  "promptId",
  "attempt",
  "leaseSeconds",
  "claimedAt",
  "heartbeatAt",
  "leaseExpiresAt",
  "finishedAt",
  "outcome",
  "usage",
  "stopReason",
  "waitingFor",
  "planApproved",
  "costBudgetUsd",
] as const satisfies readonly (keyof Dispatch)[];

// Named condition fragments.
/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** How long a claimer entry left behind stays before DynamoDB's TTL removes it (it counts for nothing long before). */
const CLAIMER_KEPT_SECONDS = 3_600;
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

  /**
   * Enters a claim under way on queue listing `listing`. Claimers count the ones that began before
   * them ({@link claimersAhead}) and each goes that many places down the queue, so claims made at
   * once take different issues without taking turns and without trying one issue after another.
   */
  async enterClaimer(listing: string, claimerId: string, now: Date): Promise<void> {
    await this.db.put({
      Item: {
        ...claimerKey(listing, claimerId),
        expiresAt: Math.ceil(now.getTime() / 1000) + CLAIMER_KEPT_SECONDS,
      },
    });
  }

  /**
   * How many claims on `listing` began after `since` and before `claimerId`, not ended yet (one
   * read). A claimer's id is a ULID, so its key says when it began: one older than `since` gave
   * up or died, and counts for nothing. A claimer that began before `since` itself (a claim whose
   * transactions took long) has none ahead that still count: 0, without a read.
   */
  async claimersAhead(listing: string, claimerId: string, since: Date): Promise<number> {
    const floor = claimerIdFloor(since);
    if (floor > claimerId) return 0;
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :since AND :me",
      ExpressionAttributeValues: {
        ":pk": claimersPartition(listing),
        ":since": floor,
        ":me": claimerId,
      },
      ConsistentRead: true,
      Select: "COUNT",
    });
    // BETWEEN includes the claimer's own entry.
    return Math.max(0, (out.Count ?? 0) - 1);
  }

  /** The write that ends a claimer's entry, in its claim's transaction. */
  claimerEnd(listing: string, claimerId: string): TransactItem {
    return { Delete: { Key: claimerKey(listing, claimerId) } };
  }

  /** Ends a claimer's entry when its claim took nothing. */
  async leaveClaimers(listing: string, claimerId: string): Promise<void> {
    await this.db.delete(claimerKey(listing, claimerId));
  }

  async getMany(ids: string[]): Promise<StoredDispatch[]> {
    const items = await this.db.batchGet(ids.map(dispatchKey), { consistent: true });
    return items.map(fromItem);
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
            version: 1,
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
  ): { dispatch: Dispatch; writes: TransactItem[] } {
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
  prepareStep(current: StoredDispatch, step: DispatchStep): { dispatch: Dispatch; writes: TransactItem[] } {
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
    return { dispatch, writes };
  }

  /** Up to `limit` activities of a dispatch after sequence `after`, oldest first: one query. */
  async activitiesAfter(dispatchId: string, after: number, limit: number): Promise<Activity[]> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk > :after",
      ExpressionAttributeValues: { ":pk": activityPartition(dispatchId), ":after": padActivitySequence(after) },
      ConsistentRead: true,
      Limit: limit,
    });
    return (out.Items ?? []).map(activityFromItem);
  }

  /** Dispatches whose lease ended before `now`, oldest first (at most `limit`). */
  async leasesEndedBy(now: string, limit: number): Promise<string[]> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk < :now",
      ExpressionAttributeValues: { ":pk": LEASE_PARTITION_KEY, ":now": now },
      ConsistentRead: true,
      Limit: limit,
    });
    return (out.Items ?? []).map((item) => String(item.dispatchId));
  }

  /** A page of dispatches, newest first, from the narrowest listing the filters name. */
  async list(
    filters: { status?: string; issueId?: string; agent?: string },
    page: { offset: number; limit: number },
    projectIds: readonly string[] | null = null,
  ) {
    const named: [keyof typeof filters, string][] = [];
    if (filters.issueId) named.push(["issueId", `issue=${filters.issueId}`]);
    if (filters.agent) named.push(["agent", agentListing(filters.agent)]);
    if (filters.status) named.push(["status", `status=${filters.status}`]);
    const [first, ...rest] = named;
    const entryFilters: EntryFilter[] = rest.map(([field]) => ({
      attribute: field,
      value: String(filters[field]),
      match: "equals",
    }));
    if (projectIds) entryFilters.push({ attribute: "projectId", values: [...projectIds], match: "in" });
    const request = { order: "desc" as const, ...page };
    const listing = first?.[1] ?? "all";
    const { entries, total } =
      entryFilters.length === 0
        ? await this.listings.page(listing, request)
        : await this.listings.walk(listing, entryFilters, request);
    const dispatches = await this.getMany(entries.map((entry) => String(entry.id)));
    return { dispatches: dispatches.map(({ dispatch }) => dispatch), total };
  }

  /**
   * The agent and claim time of every open dispatch (active or waiting), from the `status=` listings'
   * entries alone (no dispatch is read): as many reads as pages of open dispatches.
   */
  async activeClaims(): Promise<{ agent: string; claimedAt: string }[]> {
    const walks = await Promise.all(
      OPEN_STATUSES.map((status) =>
        this.listings.walk(`status=${status}`, [], { order: "asc", offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      ),
    );
    return walks
      .flatMap(({ entries }) => entries)
      .map((entry) => ({
        agent: String(entry.agent),
        claimedAt: new Date(decodeTime(String(entry.id).slice("dsp_".length))).toISOString(),
      }));
  }

  /** Every dispatch of an issue, oldest first (an issue has a few). */
  async ofIssue(issueId: string): Promise<Dispatch[]> {
    const { entries } = await this.listings.walk(`issue=${issueId}`, [], {
      order: "asc",
      offset: 0,
      limit: Number.MAX_SAFE_INTEGER,
    });
    return (await this.getMany(entries.map((entry) => String(entry.id)))).map(({ dispatch }) => dispatch);
  }
}

/** A dispatch's usage as stored, its fields in the API's order (a stored map keeps none). */
function storedUsage(value: unknown): DispatchUsage | null {
  if (typeof value !== "object" || value === null) return null;
  const usage = value as Partial<Record<keyof DispatchUsage, unknown>>;
  const numberOrNull = (figure: unknown) => (typeof figure === "number" ? figure : null);
  return {
    inputTokens: numberOrNull(usage.inputTokens),
    outputTokens: numberOrNull(usage.outputTokens),
    costUsd: numberOrNull(usage.costUsd),
    model: typeof usage.model === "string" ? usage.model : null,
  };
}

/** Who stopped a dispatch: a person through the API, or Kaizen itself (its budget). */
export type StopActor = "api" | "automation";

/** The statuses of a dispatch that has not ended. */
const OPEN_STATUSES: readonly OpenDispatchStatus[] = ["active", "waiting"];

/** Whether a dispatch in `status` has not ended: its agent works on it, or waits for a person. */
export function isOpen(status: DispatchStatus): status is OpenDispatchStatus {
  return (OPEN_STATUSES as readonly DispatchStatus[]).includes(status);
}

/** A dispatch's listing entry: what lists filter on, its project included (a key narrowed to projects lists only theirs). */
function entryOf(dispatch: Dispatch, projectId: string | null): Item {
  return { id: dispatch.id, status: dispatch.status, issueId: dispatch.issueId, agent: dispatch.agent, projectId };
}

/** A dispatch from its item (as this store wrote it), e.g. an image of the table's change stream. */
export function fromItem(item: Item): StoredDispatch {
  // The item was written from a Dispatch by this store.
  const dispatch = Object.fromEntries(
    DISPATCH_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as Dispatch;
  return {
    dispatch: {
      ...dispatch,
      attempt: Number(item.attempt),
      leaseSeconds: Number(item.leaseSeconds),
      outcome: storedOutcome(item.outcome),
      usage: storedUsage(item.usage),
    },
    tokenHash: String(item.tokenHash ?? ""),
    issueNumber: Number(item.issueNumber ?? 0),
    version: Number(item.version ?? 1),
    promptVersion: (item.promptVersion as StoredDispatch["promptVersion"] | undefined) ?? null,
    projectId: typeof item.projectId === "string" ? item.projectId : null,
    activityCount: Number(item.activityCount ?? 0),
    stoppedBy: item.stoppedBy === "automation" ? "automation" : item.stoppedBy === "api" ? "api" : null,
    claimedByKeyId: typeof item.claimedByKeyId === "string" ? item.claimedByKeyId : null,
  };
}

const ACTIVITY_FIELDS = [
  "id",
  "dispatchId",
  "issueId",
  "sequence",
  "type",
  "body",
  "data",
  "authorType",
  "authorName",
  "createdAt",
] as const satisfies readonly (keyof Activity)[];

function activityFromItem(item: Item): Activity {
  // The item was written from an Activity by this store.
  const activity = Object.fromEntries(ACTIVITY_FIELDS.map((field) => [field, item[field] ?? null]));
  return { ...(activity as unknown as Activity), sequence: Number(item.sequence) };
}

/**
 * What a dispatch token check needs of dispatch `id` (./token.ts): a lease that ran out ends the
 * token's use at once, before anything marks it expired. A function of its own, not a method: the
 * HTTP layer of every function checks tokens, and most functions need nothing else of this store.
 */
export async function tokenDispatchOf(db: Db, id: string, now: Date): Promise<TokenDispatch | undefined> {
  const item = await db.get(dispatchKey(id), { consistent: true });
  if (!item) return undefined;
  const stored = fromItem(item);
  const { dispatch, tokenHash, issueNumber } = stored;
  const leaseOver = isOpen(dispatch.status) && dispatch.leaseExpiresAt <= now.toISOString();
  return {
    id: dispatch.id,
    issueId: dispatch.issueId,
    issueNumber,
    promptId: dispatch.promptId,
    status: leaseOver ? "expired" : dispatch.status,
    tokenHash,
    claimedByKeyId: stored.claimedByKeyId,
    read: stored,
  };
}
