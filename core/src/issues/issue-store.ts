/**
 * @module issues/issue-store — the owner of issue items: numbers from a sequence and the create
 * transaction, updates at a version with their listings, the dispatch queue and counts following;
 * the reads it extends are ./issue-reads.ts. The item codec is ./issue-item.ts; linking signals to issues (grouping
 * and its folds) is ./signal-links.ts. Keys and access patterns: ./keys.ts.
 */
import type { Db, TransactItem } from "../db/db.js";
import { ListingIndex } from "../db/listing-index.js";
import { retryConflicts, retryRaces } from "../db/retry.js";
import { type Taken, takeNext } from "../db/sequence.js";
import { childPointerWrites, issueCountChanges, todoAtAfter, todoToDone } from "./derived-writes.js";
import type { DispatchQueue } from "./dispatch-queue.js";
import { issueLive, itemAbsent, putAtVersion, versionUnchanged } from "./issue-conditions.js";
import {
  entryFields,
  fromItem,
  type IssueInternals,
  issueItem,
  laterOf,
  type NewIssue,
  NO_DISPATCH_INTERNALS,
  newIssueId,
  type StoredIssue,
} from "./issue-item.js";
import { IssueReads } from "./issue-reads.js";
import {
  ISSUE_LISTINGS,
  ISSUE_PRIORITY_LISTINGS,
  ISSUE_UPDATED_LISTINGS,
  issueCounterKey,
  issueKey,
  issueRef,
  listingName,
  listingsOf,
  padNumber,
  prioritySortKey,
  updatedSortKey,
} from "./keys.js";
import type { Issue } from "./schemas.js";

export class IssueStore extends IssueReads {
  /** Issues by number, per filterable value. */
  private readonly byNumber: ListingIndex;
  /** All issues by priority rank, then number. */
  private readonly byPriority: ListingIndex;
  /** All issues by last update. */
  private readonly byUpdate: ListingIndex;

  constructor(
    db: Db,
    /** The issues a claim may take, kept by every issue write (./dispatch-queue.ts). */
    private readonly queue: DispatchQueue,
  ) {
    super(db);
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
}
