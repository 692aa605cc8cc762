/**
 * @module issues/issue-item — an issue as its item holds it: the stored issue with its internals,
 * the item written for it (recent signals as a map by id), and the one typed decode of an item
 * back into a stored issue; a new issue's fields with their defaults ({@link newIssue}), for every
 * writer of issues (the API, signals, improvement tasks), and how other items show an issue
 * ({@link summaryItem}). Pure, no I/O; the writes are ./issue-store.ts's.
 */
import { ulid } from "ulid";
import type { Item } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { issueKey, issueNumberIndexKey, issueRef } from "./keys.js";
import type { Issue } from "./schemas.js";
import { storedFeedback, storedWork } from "./stored-work.js";

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
  /** When it last entered `todo` (from anything but `in_progress` or `in_review`): the start of its todo-to-done time. */
  todoAt: string | null;
  /**
   * Where it stood when a person last moved it back to `triage` or `backlog`: its project's
   * automation counts from there (./automation.ts).
   */
  automationHold: AutomationHold | null;
  /** The issue it was merged into (docs/api.md#issue-endpoints): signals left beside it go there. */
  mergedInto: string | null;
  /** The issues merged into it, those merged into them included: their signals are listed with its own. */
  mergedFrom: string[];
}

/** An issue's signal count and priority when a person last moved it back to `triage` or `backlog`. */
export interface AutomationHold {
  signalCount: number;
  priority: number;
}

/** Internals of an issue that has never been dispatched. */
export const NO_DISPATCH_INTERNALS = {
  goalActive: false,
  activeDispatchId: null,
  lastDispatchId: null,
  dispatchAttempts: 0,
  failedDispatches: 0,
  todoAt: null,
  automationHold: null,
  mergedInto: null,
  mergedFrom: [] as string[],
} as const;

/** What an issue keeps of a signal linked to it (the signal without its payload). */
export interface RecentSignal {
  id: string;
  receivedAt: string;
  [field: string]: unknown;
}

/** Signals an issue shows on its detail (docs/api.md#issue-endpoints: the latest 10). */
export const RECENT_SIGNALS = 10;

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

/** What a listing entry keeps of an issue: its id and the fields combined filters check. */
export function entryFields(issue: Issue): Item {
  return {
    id: issue.id,
    ...Object.fromEntries(ENTRY_FIELDS.map((field) => [field, issue[field]])),
    titleLower: issue.title.toLowerCase(),
  };
}

export function issueItem(issue: Issue, version: number, internals: IssueInternals): Item {
  return {
    ...issueKey(issue.id),
    ...issueNumberIndexKey(issue.number),
    entity: entityOf("issue"),
    version,
    blocking: internals.blocking,
    recentSignals: recentSignalsMap(internals.recentSignals),
    goalActive: internals.goalActive,
    activeDispatchId: internals.activeDispatchId,
    lastDispatchId: internals.lastDispatchId,
    dispatchAttempts: internals.dispatchAttempts,
    failedDispatches: internals.failedDispatches,
    todoAt: internals.todoAt,
    automationHold: internals.automationHold,
    mergedInto: internals.mergedInto,
    mergedFrom: internals.mergedFrom,
    ...issue,
  };
}

/**
 * The item form of an issue's recent signals: a map by signal id, so that concurrent deliveries
 * each add their own key and remove the ones they saw fall out of the latest ten.
 */
export function recentSignalsMap(recent: RecentSignal[]): Record<string, RecentSignal> {
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
export function newestFirst(signals: RecentSignal[]): RecentSignal[] {
  return [...signals].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/**
 * How other items and answers show an issue (a child in its parent's partition, a parent, a
 * dashboard row): the identifier from the number, so an item of any release reads the same.
 */
export function summaryItem(issue: Issue): IssueSummaryItem {
  const { id, number, title, type, status, priority } = issue;
  return { id, number, identifier: issueRef(number), title, type, status, priority };
}

/**
 * An issue item as read: every field the service writes, optional where items of older releases
 * may lack it. The one place an item's attributes get their types; {@link fromItem} fills the gaps.
 */
type IssueItem = Partial<Omit<Issue, "identifier">> &
  Partial<Omit<IssueInternals, "recentSignals">> & {
    id: string;
    number: number;
    title: string;
    createdAt: string;
    updatedAt: string;
    version?: number;
    /** A map by signal id (a list in items of older releases). */
    recentSignals?: unknown;
    deletedAt?: string;
  };

/** The stored issue an item holds. */
export function fromItem(raw: Item): StoredIssue {
  // The item was written by issueItem (or an older release of it): its attributes are typed once here.
  const item = raw as IssueItem;
  const recentSignals = recentSignalsOf(item.recentSignals);
  const storedLastSignalAt = item.lastSignalAt ?? null;
  // Deliveries grouped in place do not write lastSignalAt: the newest recent signal says it.
  const newest = recentSignals[0]?.receivedAt ?? null;
  const issue: Issue = {
    id: String(item.id),
    number: Number(item.number),
    identifier: issueRef(Number(item.number)),
    title: String(item.title),
    description: item.description ?? null,
    type: item.type as Issue["type"],
    status: item.status as Issue["status"],
    priority: Number(item.priority ?? 0),
    parentId: item.parentId ?? null,
    projectId: item.projectId ?? null,
    labels: item.labels ?? [],
    fingerprint: item.fingerprint ?? null,
    signalSource: item.signalSource ?? null,
    // Issues stored before merges existed group by their own fingerprint only.
    fingerprints: item.fingerprints ?? (item.fingerprint ? [item.fingerprint] : []),
    signalCount: Number(item.signalCount ?? 0),
    lastSignalAt: storedLastSignalAt && newest ? laterOf(storedLastSignalAt, newest) : (storedLastSignalAt ?? newest),
    hypothesis: item.hypothesis ?? null,
    agentSummary: item.agentSummary ?? null,
    // Commits, pull requests, verification and feedback as the API answers them, whatever release
    // wrote the item (./stored-work.ts).
    ...storedWork(item),
    blockedBy: item.blockedBy ?? [],
    reviewRounds: Number(item.reviewRounds ?? 0),
    feedback: storedFeedback(item.feedback),
    statusChange: item.statusChange ?? null,
    completedAt: item.completedAt ?? null,
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
    activeDispatchId: item.activeDispatchId ?? null,
    lastDispatchId: item.lastDispatchId ?? null,
    dispatchAttempts: Number(item.dispatchAttempts ?? 0),
    failedDispatches: Number(item.failedDispatches ?? 0),
    todoAt: item.todoAt ?? null,
    automationHold: item.automationHold ?? null,
    mergedInto: item.mergedInto ?? null,
    mergedFrom: Array.isArray(item.mergedFrom) ? item.mergedFrom.map(String) : [],
  };
}

/** The later of two ISO timestamps (an update never moves `updatedAt` back). */
export function laterOf(a: string, b: string): string {
  // ISO strings of one format order as the instants they name.
  return a > b ? a : b;
}

export function newIssueId(): string {
  return `iss_${ulid()}`;
}

/**
 * A complete set of new-issue fields: the given ones over the defaults of docs/api.md#issues (status
 * `triage`, priority 0, empty lists, nulls), with `completedAt` set for a finished status.
 * @example newIssue({ title: "Checkout fails", type: "signal" })
 */
export function newIssue(fields: Partial<NewIssue> & Pick<NewIssue, "title" | "type">): NewIssue {
  const status = fields.status ?? "triage";
  return {
    description: null,
    priority: 0,
    parentId: null,
    projectId: null,
    labels: [],
    fingerprint: null,
    signalSource: null,
    fingerprints: fields.fingerprint ? [fields.fingerprint] : [],
    signalCount: 0,
    lastSignalAt: null,
    hypothesis: null,
    agentSummary: null,
    commits: [],
    pullRequests: [],
    blockedBy: [],
    reviewRounds: 0,
    feedback: [],
    verification: null,
    statusChange: null,
    completedAt: status === "done" || status === "canceled" ? new Date().toISOString() : null,
    ...withoutUndefined(fields),
    title: fields.title,
    type: fields.type,
    status,
  };
}

function withoutUndefined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
