/**
 * @module issues/issue-store — every DynamoDB expression about issues: numbers from a sequence and the
 * create transaction, updates at a version and commutative signal grouping, reads by id and
 * number, and listing pages whose offsets come from maintained (spread) bucket counts.
 * Keys and access patterns: ./keys.ts.
 */
import { ulid } from "ulid";
import { ConditionFailedError, type Db, type Item, type TransactItem, TransactionConflictError } from "../db/db.js";
import { InFlight } from "../db/in-flight.js";
import { ListingIndex } from "../db/listing-index.js";
import { retryConflicts, retryRaces } from "../db/retry.js";
import { type Taken, takeNext } from "../db/sequence.js";
import { countChange, durationBucket } from "../stats/counts.js";
import type { DispatchQueue } from "./dispatch-queue.js";
import {
  CHILD_POINTER_PREFIX,
  childPointerKey,
  ISSUE_ENTITY,
  ISSUE_ID,
  ISSUE_LISTINGS,
  ISSUE_PRIORITY_LISTINGS,
  ISSUE_UPDATED_LISTINGS,
  issueCounterKey,
  issueKey,
  issueNumberIndexKey,
  issueRef,
  listingName,
  listingsOf,
  numberEntryKey,
  PENDING_SIGNAL_PREFIX,
  padNumber,
  parseIssueRef,
  pendingSignalKey,
  prioritySortKey,
  RELATION_EDGE_PREFIX,
  updatedSortKey,
} from "./keys.js";
import type { Issue } from "./schemas.js";

/** An issue plus its version (the `ETag`). */
export interface StoredIssue extends IssueInternals {
  issue: Issue;
  version: number;
  /** Its recent signals are a map that deliveries can add to in place (items of older releases kept a list). */
  recentSignalsInPlace?: boolean;
  /** Read by {@link IssueStore.getForSignal}: signals wait beside it to be folded in (a storm is under way). */
  signalsWaiting?: boolean;
}

/** What an issue item keeps beside its API fields. */
export interface IssueInternals {
  /** Ids of the issues this one blocks (kept with the issue so its moves can update theirs). */
  blocking: string[];
  /** The latest signals linked to it, newest first (the first {@link RECENT_SIGNALS} show on its detail). */
  recentSignals: RecentSignal[];
  /** Its project has an active goal: the score's goal bonus (./scoring.ts). */
  goalActive: boolean;
  /** The dispatch working it now, while `in_progress`. */
  activeDispatchId: string | null;
  /** Its latest dispatch, ended or not (the dashboard's activity follows it). */
  lastDispatchId: string | null;
  /** Dispatches it has had, and how many of them failed (the third failure cancels it). */
  dispatchAttempts: number;
  failedDispatches: number;
  /** When it last entered `todo` (from anything but `in_progress`): the start of its todo-to-done time. */
  todoAt: string | null;
}

/** Internals of an issue that has never been dispatched. */
export const NO_DISPATCH_INTERNALS = {
  goalActive: false,
  activeDispatchId: null,
  lastDispatchId: null,
  dispatchAttempts: 0,
  failedDispatches: 0,
  todoAt: null,
} as const;

/** What an issue keeps of a signal linked to it (the signal without its payload). */
export interface RecentSignal {
  id: string;
  receivedAt: string;
  [field: string]: unknown;
}

/** Signals an issue shows on its detail (docs/api.md#issue-endpoints: the latest 10). */
export const RECENT_SIGNALS = 10;
/** Pending signals one fold takes: with the issue item, half a transaction's limit. */
const FOLDED_AT_ONCE = 49;
/** How long a delivery keeps folding before it leaves its signal to the next fold. */
const FOLD_BUDGET_MS = 5_000;
/**
 * How long a delivery whose signal waits behind others reads again (about one transaction's time
 * at first, then growing to {@link FOLD_WAIT_CAP_MS}, with jitter).
 */
const FOLD_WAIT_MS = 20;
const FOLD_WAIT_CAP_MS = 120;
/** How long the oldest waiting signal may stay the oldest before another delivery folds it. */
const FOLD_STALL_MS = 1_000;

function foldWait(waits: number): number {
  return Math.min(FOLD_WAIT_MS * 1.5 ** (waits - 1), FOLD_WAIT_CAP_MS) * (0.5 + Math.random());
}

/** What one fold did: the issue is gone, or these signals were folded. */
interface FoldRound {
  gone: boolean;
  folded: string[];
}

/** An issue with everything its partition holds: its children and relation edges. */
export interface IssueAggregate {
  stored: StoredIssue;
  children: IssueSummaryItem[];
  /** Relation edge items, as ./relation-store.ts wrote them. */
  relationEdges: Item[];
}

/** What a parent's partition keeps of each child. */
export type IssueSummaryItem = Pick<Issue, "id" | "number" | "identifier" | "title" | "type" | "status" | "priority">;

/** Fields a caller chooses when creating an issue; the store assigns id, number and times. */
export type NewIssue = Omit<Issue, "id" | "number" | "identifier" | "createdAt" | "updatedAt">;

/** Fields copied onto listing entries so filters are checked without reading issues. */
const ENTRY_FIELDS = [
  "number",
  "status",
  "type",
  "priority",
  "projectId",
  "labels",
  "parentId",
  "fingerprint",
] as const;

// Named condition fragments.
/** The issue id is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The item is still there (a pending signal not yet folded). */
const itemExists = "attribute_exists(pk)";
/** The issue has not been deleted. */
const issueLive = "attribute_not_exists(deletedAt)";
/** The issue is neither done nor canceled. */
const issueOpen = "NOT (#status IN (:done, :canceled))";
/** The issue is as it was read. */
const versionUnchanged = "#version = :expectedVersion";

export class IssueStore {
  /** Issues by number, per filterable value. */
  private readonly byNumber: ListingIndex;
  /** All issues by priority rank, then number. */
  private readonly byPriority: ListingIndex;
  /** All issues by last update. */
  private readonly byUpdate: ListingIndex;

  /** Folds of pending signals running in this process, by issue. */
  private readonly folds = new InFlight();

  constructor(
    private readonly db: Db,
    /** The issues a claim may take, kept by every issue write (./dispatch-queue.ts). */
    private readonly queue: DispatchQueue,
  ) {
    this.byNumber = new ListingIndex(db, ISSUE_LISTINGS);
    this.byPriority = new ListingIndex(db, ISSUE_PRIORITY_LISTINGS);
    this.byUpdate = new ListingIndex(db, ISSUE_UPDATED_LISTINGS);
  }

  /**
   * Writes a new issue: takes the next `number` (db/sequence.ts), then writes it in one
   * transaction with its listing entries and counts; see {@link IssueStore.prepareCreate}. A
   * failed check leaves the number unused.
   */
  async create(
    fields: NewIssue,
    now: () => Date = () => new Date(),
    checks: TransactItem[] = [],
    internals: Partial<IssueInternals> = {},
  ): Promise<StoredIssue> {
    const id = newIssueId();
    const taken = await this.takeNumber(now());
    const { stored, writes } = this.prepareCreate(fields, taken, id, internals);
    // Only transaction conflicts are retried (the items a create writes are its own); a failed
    // check is the caller's answer.
    await retryConflicts(() => this.db.transactWrite([...writes, ...checks]));
    return stored;
  }

  /**
   * The next issue number and its `createdAt`: never before the previous issue's, so number
   * order is creation order.
   */
  takeNumber(now: Date): Promise<Taken> {
    return takeNext(this.db, issueCounterKey(), now.toISOString(), { last: "lastNumber", lastAt: "lastCreatedAt" });
  }

  /**
   * The writes that create an issue with the number and `createdAt` of `taken`: the issue, its
   * listing entries and counts. Callers add them to a transaction of their own.
   */
  prepareCreate(fields: NewIssue, taken: Taken, id = newIssueId(), internals: Partial<IssueInternals> = {}) {
    const { value: number, at: createdAt } = taken;
    const issue: Issue = { ...fields, id, number, identifier: issueRef(number), createdAt, updatedAt: createdAt };
    const item = issueItem(issue, 1, {
      blocking: [],
      recentSignals: [],
      ...NO_DISPATCH_INTERNALS,
      todoAt: issue.status === "todo" ? createdAt : null,
      ...internals,
    });
    const entry = entryFields(issue);
    const writes: TransactItem[] = [
      { Put: { Item: item, ConditionExpression: itemAbsent } },
      ...this.queue.changes(null, fromItem(item)),
      ...issueCountChanges(null, issue),
      ...this.byNumber.additions(listingsOf(issue).map(listingName), padNumber(number), entry),
      ...this.byPriority.additions(["all"], prioritySortKey(issue.priority, number), entry),
      ...this.byUpdate.additions(["all"], updatedSortKey(issue.updatedAt, number), entry),
      ...childPointerWrites(null, issue),
    ];
    return { stored: fromItem(item), writes };
  }

  /**
   * The writes that change `current` by `changes`, under the condition that nobody changed it
   * since it was read (its version), with its listing entries following its fields and order.
   */
  prepareUpdate(current: StoredIssue, changes: Partial<NewIssue>, now: Date, internals: Partial<IssueInternals> = {}) {
    const updated: Issue = {
      ...current.issue,
      ...changes,
      updatedAt: laterOf(now.toISOString(), current.issue.updatedAt),
    };
    const version = current.version + 1;
    const todoAt = todoAtAfter(current, updated.status, now);
    const item = issueItem(updated, version, { ...current, todoAt, ...internals });
    const stored = fromItem(item);
    const before = entryFields(current.issue);
    const after = entryFields(updated);
    const number = updated.number;
    const writes: TransactItem[] = [
      putAtVersion(item, current.version),
      ...this.byNumber.changes(
        listingsOf(current.issue).map(listingName),
        listingsOf(updated).map(listingName),
        padNumber(number),
        after,
        JSON.stringify(before) !== JSON.stringify(after),
      ),
      ...this.byPriority.moves(
        "all",
        prioritySortKey(current.issue.priority, number),
        prioritySortKey(updated.priority, number),
        after,
      ),
      ...this.byUpdate.moves(
        "all",
        updatedSortKey(current.issue.updatedAt, number),
        updatedSortKey(updated.updatedAt, number),
        after,
      ),
      ...childPointerWrites(current.issue, updated),
      ...this.queue.changes(current, stored),
      ...issueCountChanges(current.issue, updated),
      ...todoToDone(current, updated.status, now),
    ];
    return { stored, writes };
  }

  /**
   * The write that links one more signal to `current` without reading it again: commutative
   * updates (`signalCount` and `version` go up by one, the signal joins the recent ones and those
   * it pushes out of the latest ten leave), so any number of deliveries grouped into one issue
   * at once all land, in any order, with no version to lose. It holds while the issue is live and
   * open. Changes of status or priority are not commutative: they go through
   * {@link IssueStore.prepareUpdate}. Undefined for an item whose recent signals are not a map.
   */
  prepareGrouping(
    current: StoredIssue,
    signal: RecentSignal,
  ): { stored: StoredIssue; writes: TransactItem[] } | undefined {
    if (!current.recentSignalsInPlace) return undefined;
    const recent = recentSignalsChange(current.recentSignals, [signal]);
    const kept = recent.kept;
    const names: Record<string, string> = {
      "#signalCount": "signalCount",
      "#version": "version",
      "#status": "status",
      ...recent.names,
    };
    const values: Record<string, unknown> = { ":one": 1, ":done": "done", ":canceled": "canceled", ...recent.values };
    const expression = [
      "ADD #signalCount :one, #version :one",
      ...(recent.sets.length > 0 ? [`SET ${recent.sets.join(", ")}`] : []),
      ...(recent.removals.length > 0 ? [`REMOVE ${recent.removals.join(", ")}`] : []),
    ].join(" ");
    const issue: Issue = {
      ...current.issue,
      signalCount: current.issue.signalCount + 1,
      lastSignalAt: current.issue.lastSignalAt
        ? laterOf(current.issue.lastSignalAt, signal.receivedAt)
        : signal.receivedAt,
    };
    return {
      stored: { ...current, issue, version: current.version + 1, recentSignals: kept },
      writes: [
        {
          Update: {
            Key: issueKey(current.issue.id),
            UpdateExpression: expression,
            ConditionExpression: `${issueLive} AND ${issueOpen}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
      ],
    };
  }

  /**
   * The write that links one more signal to an issue without holding the issue item: the signal
   * waits in the issue's partition until {@link IssueStore.foldPendingSignals} adds it to the
   * issue's aggregates. For storms: a delivery that finds the item held by another transaction
   * writes this instead, so deliveries into one issue never refuse each other.
   */
  preparePendingSignal(issueId: string, signal: RecentSignal): TransactItem {
    return {
      Put: {
        Item: { ...pendingSignalKey(issueId, signal.id), entity: "issuesignal", signal },
        ConditionExpression: itemAbsent,
      },
    };
  }

  /**
   * Folds the signals waiting in the issue's partition into its item until the signal `signalId`
   * is folded: `signalCount` and `version` go up by their number, they join the latest ten, and
   * their items are deleted under the condition that they still exist, so each is counted once
   * however many fold at once. Folds take turns without meeting, across processes too: the
   * delivery whose signal is the oldest waiting folds (everything waiting by then, up to a
   * transaction's worth), and the others read where the oldest stands until theirs is folded or
   * is the oldest. One whose oldest has not moved for {@link FOLD_STALL_MS} (its delivery died)
   * folds in its place, and goes on folding until its own is in. In one process, a fold of the issue under way is joined. Resolves true
   * once the signal is folded, false when the issue is gone or `budgetMs` passed (the signal stays
   * waiting and the next fold takes it).
   */
  async foldPendingSignals(issueId: string, signalId: string, budgetMs = FOLD_BUDGET_MS): Promise<boolean> {
    const deadline = Date.now() + budgetMs;
    const own = pendingSignalKey(issueId, signalId).sk;
    let stall = { oldest: "", since: Date.now() };
    // Once it has folded, a delivery goes on folding until its own signal is in.
    let folding = false;
    for (let waits = 0; ; ) {
      const joined = this.folds.pending(issueId) as Promise<FoldRound> | undefined;
      if (joined) {
        const round = await joined.catch(() => undefined);
        if (round?.folded.includes(signalId)) return true;
      }
      const oldest = await this.oldestPendingSignal(issueId);
      // Waiting signals sort by id: none at or before this one means it was folded.
      if (oldest === undefined || oldest > own) return true;
      if (oldest !== stall.oldest) stall = { oldest, since: Date.now() };
      if (folding || oldest === own || Date.now() - stall.since >= FOLD_STALL_MS) {
        try {
          const round = await this.folds.run(issueId, () => this.foldRound(issueId));
          if (round.gone) return false;
          if (round.folded.includes(signalId)) return true;
          // Folded the oldest transaction's worth, not this one yet: it folds the next as well.
          folding = round.folded.length > 0;
          waits = 0;
          continue;
        } catch (error) {
          if (!(error instanceof TransactionConflictError || error instanceof ConditionFailedError)) throw error;
        }
      }
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, foldWait(++waits)));
    }
  }

  /** The sort key of the issue's oldest waiting signal, or undefined when none waits. */
  private async oldestPendingSignal(issueId: string): Promise<string | undefined> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": issueKey(issueId).pk, ":sk": PENDING_SIGNAL_PREFIX },
      ConsistentRead: true,
      Limit: 1,
      ProjectionExpression: "sk",
    });
    const sk = out.Items?.[0]?.sk;
    return sk === undefined ? undefined : String(sk);
  }

  /** One fold: reads the issue and its oldest waiting signals, and folds those it read into it. */
  private async foldRound(issueId: string): Promise<FoldRound> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": issueKey(issueId).pk, ":sk": ISSUE_ENTITY },
      ConsistentRead: true,
      Limit: FOLDED_AT_ONCE + 1,
    });
    const [head, ...rest] = out.Items ?? [];
    if (!head || head.sk !== ISSUE_ENTITY || head.deletedAt) return { gone: true, folded: [] };
    const pending = rest.filter((item) => String(item.sk).startsWith(PENDING_SIGNAL_PREFIX));
    if (pending.length === 0) return { gone: false, folded: [] };
    await this.db.transactWrite(foldWrites(fromItem(head), pending));
    return { gone: false, folded: pending.map((item) => String((item.signal as RecentSignal).id)) };
  }

  /**
   * The writes that soft-delete `current`: it is marked deleted (under its version) and leaves
   * every listing, so no list or count sees it again.
   */
  prepareDelete(current: StoredIssue, now: Date) {
    const { issue } = current;
    const item = { ...issueItem(issue, current.version + 1, current), deletedAt: now.toISOString() };
    const writes: TransactItem[] = [
      putAtVersion(item, current.version),
      ...this.byNumber.removals(listingsOf(issue).map(listingName), padNumber(issue.number)),
      ...this.byPriority.removals(["all"], prioritySortKey(issue.priority, issue.number)),
      ...this.byUpdate.removals(["all"], updatedSortKey(issue.updatedAt, issue.number)),
      ...childPointerWrites(issue, null),
      ...this.queue.changes(current, null),
      ...issueCountChanges(issue, null),
    ];
    return { writes };
  }

  /**
   * Gives every live issue of a project the goal bonus `goalActive` (its project gained or lost an
   * active goal): each changed issue is rewritten at its version, its queue entry moved, its
   * fields and `updatedAt` untouched. A lost race reads that issue again.
   */
  async setGoalBonus(projectId: string, goalActive: boolean): Promise<number> {
    const { entries } = await this.byNumber.walk(listingName({ field: "project", value: projectId }), [], {
      order: "asc",
      offset: 0,
      limit: Number.MAX_SAFE_INTEGER,
    });
    let changed = 0;
    for (const entry of entries) {
      const id = String(entry.id);
      changed += await retryRaces(async () => {
        const current = await this.get(id);
        if (!current || current.goalActive === goalActive || current.issue.projectId !== projectId) return 0;
        const next = { ...current, goalActive, version: current.version + 1 };
        await this.db.transactWrite([
          {
            Update: {
              Key: issueKey(id),
              UpdateExpression: "SET #goalActive = :goalActive, #version = :next",
              ConditionExpression: `${issueLive} AND ${versionUnchanged}`,
              ExpressionAttributeNames: { "#goalActive": "goalActive", "#version": "version" },
              ExpressionAttributeValues: {
                ":goalActive": goalActive,
                ":next": next.version,
                ":expectedVersion": current.version,
              },
            },
          },
          ...this.queue.changes(current, next),
        ]);
        return 1;
      });
    }
    return changed;
  }

  /** Runs writes prepared by this store (and others) as one transaction. */
  async transact(writes: TransactItem[]): Promise<void> {
    await this.db.transactWrite(writes);
  }

  /**
   * Writes that set what blocks an issue and what it blocks, at the version read, without
   * touching its fields, `updatedAt` or listings (these are derived from relations).
   */
  prepareRelationChange(
    current: StoredIssue,
    change: { blockedBy?: string[]; blocking?: string[] },
  ): { stored: StoredIssue; writes: TransactItem[] } {
    const issue = { ...current.issue, blockedBy: change.blockedBy ?? current.issue.blockedBy };
    const blocking = change.blocking ?? current.blocking;
    const stored = { ...current, issue, version: current.version + 1, blocking };
    return {
      stored,
      writes: [
        ...this.queue.changes(current, stored),
        {
          Update: {
            Key: issueKey(issue.id),
            UpdateExpression: "SET #blockedBy = :blockedBy, #blocking = :blocking, #version = :nextVersion",
            ConditionExpression: `${issueLive} AND ${versionUnchanged}`,
            ExpressionAttributeNames: { "#blockedBy": "blockedBy", "#blocking": "blocking", "#version": "version" },
            ExpressionAttributeValues: {
              ":blockedBy": issue.blockedBy,
              ":blocking": blocking,
              ":nextVersion": stored.version,
              ":expectedVersion": current.version,
            },
          },
        },
      ],
    };
  }

  /** A live issue by id (deleted ones read as absent). */
  async get(id: string): Promise<StoredIssue | undefined> {
    const item = await this.db.get(issueKey(id), { consistent: true });
    return item && !item.deletedAt ? fromItem(item) : undefined;
  }

  /**
   * A live issue as a signal to be linked to it finds it: one query reads the item and the first
   * signal waiting beside it, so that `signalsWaiting` says whether a storm is being folded into it.
   */
  async getForSignal(id: string): Promise<StoredIssue | undefined> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": issueKey(id).pk, ":sk": ISSUE_ENTITY },
      ConsistentRead: true,
      Limit: 2,
    });
    const [head, next] = out.Items ?? [];
    if (!head || head.sk !== ISSUE_ENTITY || head.deletedAt) return undefined;
    return { ...fromItem(head), signalsWaiting: String(next?.sk ?? "").startsWith(PENDING_SIGNAL_PREFIX) };
  }

  /**
   * An issue with its children and relation edges: they share its partition, so this is one
   * query (more only past 1 MB). Deleted issues read as absent.
   */
  async getAggregate(id: string): Promise<IssueAggregate | undefined> {
    const items = await this.db.queryPartition(issueKey(id).pk);
    const head = items.find((item) => item.sk === issueKey(id).sk);
    if (!head || head.deletedAt) return undefined;
    return {
      stored: fromItem(head),
      children: items
        .filter((item) => String(item.sk).startsWith(CHILD_POINTER_PREFIX))
        .map((item) => summaryItem(item as unknown as Issue)),
      relationEdges: items.filter((item) => String(item.sk).startsWith(RELATION_EDGE_PREFIX)),
    };
  }

  /** Live issues by id, in the order asked, in one call per hundred. */
  async getMany(ids: string[]): Promise<StoredIssue[]> {
    const items = await this.db.batchGet(ids.map(issueKey), { consistent: true });
    return items.filter((item) => !item.deletedAt).map(fromItem);
  }

  /** By `iss_…` id or `KZN-<number>`; undefined for anything else, or nothing found (deleted included). */
  async getByRef(ref: string): Promise<StoredIssue | undefined> {
    const number = parseIssueRef(ref);
    if (number !== undefined) return this.getByNumber(number);
    return ISSUE_ID.test(ref) ? this.get(ref) : undefined;
  }

  /** By `number`: one index query, or the strongly consistent listing entry while the index lags. */
  async getByNumber(number: number): Promise<StoredIssue | undefined> {
    const { gsi1pk, gsi1sk } = issueNumberIndexKey(number);
    const out = await this.db.query({
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
      ExpressionAttributeValues: { ":pk": gsi1pk, ":sk": gsi1sk },
      Limit: 1,
    });
    const indexed = out.Items?.[0];
    if (indexed) return indexed.deletedAt ? undefined : fromItem(indexed);
    const entry = await this.db.get(numberEntryKey(number), { consistent: true });
    return typeof entry?.id === "string" ? this.get(entry.id) : undefined;
  }
}

/** What a listing entry keeps of an issue: its id and the fields combined filters check. */
function entryFields(issue: Issue): Item {
  return {
    id: issue.id,
    ...Object.fromEntries(ENTRY_FIELDS.map((field) => [field, issue[field]])),
    titleLower: issue.title.toLowerCase(),
  };
}

function issueItem(issue: Issue, version: number, internals: IssueInternals): Item {
  return {
    ...issueKey(issue.id),
    ...issueNumberIndexKey(issue.number),
    entity: "issue",
    version,
    blocking: internals.blocking,
    recentSignals: recentSignalsMap(internals.recentSignals),
    goalActive: internals.goalActive,
    activeDispatchId: internals.activeDispatchId,
    lastDispatchId: internals.lastDispatchId,
    dispatchAttempts: internals.dispatchAttempts,
    failedDispatches: internals.failedDispatches,
    todoAt: internals.todoAt,
    ...issue,
  };
}

/**
 * The item form of an issue's recent signals: a map by signal id, so that concurrent deliveries
 * each add their own key and remove the ones they saw fall out of the latest ten.
 */
function recentSignalsMap(recent: RecentSignal[]): Record<string, RecentSignal> {
  return Object.fromEntries(
    newestFirst(recent)
      .slice(0, RECENT_SIGNALS)
      .map((signal) => [signal.id, signal]),
  );
}

/** Recent signals as an item holds them (a map, or the list older items kept), newest first. */
function recentSignalsOf(stored: unknown): RecentSignal[] {
  const values = Array.isArray(stored)
    ? stored
    : typeof stored === "object" && stored !== null
      ? Object.values(stored)
      : [];
  return newestFirst(values.filter((value): value is RecentSignal => typeof value?.id === "string"));
}

/** Signal ids are `sig_` + ULID, so they order as the instants they were received at. */
function newestFirst(signals: RecentSignal[]): RecentSignal[] {
  return [...signals].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The dashboard's issue counts by status and type, following an issue from `before` to `after` (null: absent). */
function issueCountChanges(before: Issue | null, after: Issue | null): TransactItem[] {
  const writes: TransactItem[] = [];
  for (const field of ["status", "type"] as const) {
    if (before?.[field] === after?.[field]) continue;
    if (before) writes.push(countChange(`issue.${field}#${before[field]}`, -1));
    if (after) writes.push(countChange(`issue.${field}#${after[field]}`, 1));
  }
  return writes;
}

/**
 * When an issue enters `todo` from anything but `in_progress` (a claim given back keeps its
 * start), its todo-to-done time starts; it ends on `done` or `canceled`.
 */
function todoAtAfter(current: StoredIssue, status: Issue["status"], now: Date): string | null {
  const from = current.issue.status;
  if (status === from) return current.todoAt;
  if (status === "todo" && from !== "in_progress") return now.toISOString();
  if (status === "done" || status === "canceled") return null;
  return current.todoAt;
}

/** An issue reaching `done` after entering `todo` adds its duration to the dashboard's histogram. */
function todoToDone(current: StoredIssue, status: Issue["status"], now: Date): TransactItem[] {
  if (status !== "done" || current.issue.status === "done" || !current.todoAt) return [];
  const seconds = Math.max(0, (now.getTime() - Date.parse(current.todoAt)) / 1000);
  return [countChange(`todo-to-done#${durationBucket(seconds)}`, 1)];
}

/**
 * How `arriving` signals change an issue's recent-signals map (`recent`, newest first): the
 * latest ten kept, and the paths that set those joining and remove those pushed out. A signal
 * older than the ten kept neither joins nor pushes one out: then the map is left alone.
 */
function recentSignalsChange(recent: RecentSignal[], arriving: RecentSignal[]) {
  const kept = newestFirst([...arriving, ...recent]).slice(0, RECENT_SIGNALS);
  const joining = arriving.filter((signal) => kept.includes(signal));
  const leaving = recent.filter((old) => !kept.includes(old));
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (joining.length > 0 || leaving.length > 0) names["#recent"] = "recentSignals";
  const sets = joining.map((signal, i) => {
    names[`#joining${i}`] = signal.id;
    values[`:joining${i}`] = signal;
    return `#recent.#joining${i} = :joining${i}`;
  });
  const removals = leaving.map((old, i) => {
    names[`#leaving${i}`] = old.id;
    return `#recent.#leaving${i}`;
  });
  return { kept, names, values, sets, removals };
}

/**
 * The transaction that folds `pending` signal items into `current`: commutative additions to the
 * issue item (at any version, while it is live) and the deletion of each pending item that is
 * still there.
 */
function foldWrites(current: StoredIssue, pending: Item[]): TransactItem[] {
  const signals = pending.map((item) => item.signal as RecentSignal);
  const names: Record<string, string> = { "#signalCount": "signalCount", "#version": "version" };
  const values: Record<string, unknown> = { ":count": signals.length };
  const sets: string[] = [];
  const removals: string[] = [];
  if (current.recentSignalsInPlace) {
    const recent = recentSignalsChange(current.recentSignals, signals);
    Object.assign(names, recent.names);
    Object.assign(values, recent.values);
    sets.push(...recent.sets);
    removals.push(...recent.removals);
  } else {
    // An item of an older release keeps a list: the fold writes the map whole.
    names["#recent"] = "recentSignals";
    values[":recent"] = recentSignalsMap(newestFirst([...signals, ...current.recentSignals]));
    sets.push("#recent = :recent");
  }
  const expression = [
    "ADD #signalCount :count, #version :one",
    ...(sets.length > 0 ? [`SET ${sets.join(", ")}`] : []),
    ...(removals.length > 0 ? [`REMOVE ${removals.join(", ")}`] : []),
  ].join(" ");
  values[":one"] = 1;
  return [
    {
      Update: {
        Key: issueKey(current.issue.id),
        UpdateExpression: expression,
        ConditionExpression: issueLive,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...pending.map(
      (item): TransactItem => ({
        Delete: { Key: { pk: String(item.pk), sk: String(item.sk) }, ConditionExpression: itemExists },
      }),
    ),
  ];
}

/** Replaces an issue item only if it is still at `version` (nobody wrote it since it was read). */
function putAtVersion(item: Item, version: number): TransactItem {
  return {
    Put: {
      Item: item,
      ConditionExpression: versionUnchanged,
      ExpressionAttributeNames: { "#version": "version" },
      ExpressionAttributeValues: { ":expectedVersion": version },
    },
  };
}

/** The child's summary in its parent's partition follows its parent, fields and deletion. */
function childPointerWrites(before: Issue | null, after: Issue | null): TransactItem[] {
  const writes: TransactItem[] = [];
  const moved = before?.parentId !== after?.parentId;
  if (before?.parentId && (moved || !after)) {
    writes.push({ Delete: { Key: childPointerKey(before.parentId, before.number) } });
  }
  if (after?.parentId) {
    const changed = !before || JSON.stringify(summaryItem(before)) !== JSON.stringify(summaryItem(after));
    if (moved || changed) {
      writes.push({ Put: { Item: { ...childPointerKey(after.parentId, after.number), ...summaryItem(after) } } });
    }
  }
  return writes;
}

function summaryItem(issue: Issue): IssueSummaryItem {
  const { id, number, title, type, status, priority } = issue;
  return { id, number, identifier: issueRef(number), title, type, status, priority };
}

/** The stored issue an item holds. */
export function fromItem(item: Item): StoredIssue {
  const recentSignals = recentSignalsOf(item.recentSignals);
  const storedLastSignalAt = (item.lastSignalAt as string | null | undefined) ?? null;
  // Deliveries grouped in place do not write lastSignalAt: the newest recent signal says it.
  const newest = recentSignals[0]?.receivedAt ?? null;
  const issue: Issue = {
    id: String(item.id),
    number: Number(item.number),
    identifier: issueRef(Number(item.number)),
    title: String(item.title),
    description: (item.description as string | null | undefined) ?? null,
    type: item.type as Issue["type"],
    status: item.status as Issue["status"],
    priority: Number(item.priority ?? 0),
    parentId: (item.parentId as string | null | undefined) ?? null,
    projectId: (item.projectId as string | null | undefined) ?? null,
    labels: (item.labels as string[] | undefined) ?? [],
    fingerprint: (item.fingerprint as string | null | undefined) ?? null,
    signalSource: (item.signalSource as string | null | undefined) ?? null,
    signalCount: Number(item.signalCount ?? 0),
    lastSignalAt: storedLastSignalAt && newest ? laterOf(storedLastSignalAt, newest) : (storedLastSignalAt ?? newest),
    hypothesis: (item.hypothesis as Issue["hypothesis"] | undefined) ?? null,
    agentSummary: (item.agentSummary as string | null | undefined) ?? null,
    commits: (item.commits as Issue["commits"] | undefined) ?? [],
    pullRequests: (item.pullRequests as Issue["pullRequests"] | undefined) ?? [],
    blockedBy: (item.blockedBy as string[] | undefined) ?? [],
    completedAt: (item.completedAt as string | null | undefined) ?? null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
  return {
    issue,
    version: Number(item.version ?? 1),
    blocking: Array.isArray(item.blocking) ? item.blocking.map(String) : [],
    recentSignals,
    recentSignalsInPlace: !Array.isArray(item.recentSignals),
    goalActive: item.goalActive === true,
    activeDispatchId: (item.activeDispatchId as string | null | undefined) ?? null,
    lastDispatchId: (item.lastDispatchId as string | null | undefined) ?? null,
    dispatchAttempts: Number(item.dispatchAttempts ?? 0),
    failedDispatches: Number(item.failedDispatches ?? 0),
    todoAt: (item.todoAt as string | null | undefined) ?? null,
  };
}

/** The later of two ISO timestamps (an update never moves `updatedAt` back). */
function laterOf(a: string, b: string): string {
  // ISO strings of one format order as the instants they name.
  return a > b ? a : b;
}

export function newIssueId(): string {
  return `iss_${ulid()}`;
}
