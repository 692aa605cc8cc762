/**
 * @module issues/issue-store — the owner of issue items: numbers from a sequence and the create
 * transaction, updates at a version with their listings, the dispatch queue and counts following,
 * reads by id and number. The item codec is ./issue-item.ts; linking signals to issues (grouping
 * and its folds) is ./signal-links.ts. Keys and access patterns: ./keys.ts.
 */
import type { Db, Item, TransactItem } from "../db/db.js";
import { ListingIndex } from "../db/listing-index.js";
import { retryConflicts, retryRaces } from "../db/retry.js";
import { type Taken, takeNext } from "../db/sequence.js";
import { childPointerWrites, issueCountChanges, todoAtAfter, todoToDone } from "./derived-writes.js";
import type { DispatchQueue } from "./dispatch-queue.js";
import { issueLive, itemAbsent, putAtVersion, versionUnchanged } from "./issue-conditions.js";
import {
  entryFields,
  fromItem,
  type IssueAggregate,
  type IssueInternals,
  issueItem,
  laterOf,
  type NewIssue,
  NO_DISPATCH_INTERNALS,
  newIssueId,
  type StoredIssue,
  summaryItem,
} from "./issue-item.js";
import {
  CHILD_POINTER_PREFIX,
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
  prioritySortKey,
  RELATION_EDGE_PREFIX,
  updatedSortKey,
} from "./keys.js";
import type { Issue } from "./schemas.js";

export class IssueStore {
  /** Issues by number, per filterable value. */
  private readonly byNumber: ListingIndex;
  /** All issues by priority rank, then number. */
  private readonly byPriority: ListingIndex;
  /** All issues by last update. */
  private readonly byUpdate: ListingIndex;

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

  /** Whether `ref` names an issue that was deleted (a live or unknown one: false). */
  async isDeleted(ref: string): Promise<boolean> {
    const number = parseIssueRef(ref);
    if (number !== undefined) return Boolean((await this.indexedByNumber(number))?.deletedAt);
    if (!ISSUE_ID.test(ref)) return false;
    const item = await this.db.get(issueKey(ref), { consistent: true });
    return Boolean(item?.deletedAt);
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
    const indexed = await this.indexedByNumber(number);
    if (indexed) return indexed.deletedAt ? undefined : fromItem(indexed);
    const entry = await this.db.get(numberEntryKey(number), { consistent: true });
    return typeof entry?.id === "string" ? this.get(entry.id) : undefined;
  }

  /** The item the number index holds for `number` (deleted ones too), if it has caught up with it. */
  private async indexedByNumber(number: number): Promise<Item | undefined> {
    const { gsi1pk, gsi1sk } = issueNumberIndexKey(number);
    const out = await this.db.query({
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
      ExpressionAttributeValues: { ":pk": gsi1pk, ":sk": gsi1sk },
      Limit: 1,
    });
    return out.Items?.[0];
  }
}
