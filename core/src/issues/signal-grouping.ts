/**
 * @module issues/signal-grouping — the commutative writes that link signals to an issue without
 * reading it again: one grouped in place, one left waiting beside a held issue, and the fold of
 * those waiting into it. Pure; the store (./issue-store.ts) and the folds (./signal-folds.ts) send them.
 */
import type { Item, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import type { DispatchQueue } from "./dispatch-queue.js";
import {
  issueLive,
  issueOpen,
  itemAbsent,
  itemExists,
  notQueued,
  PLACE_KEPT_VALUES,
  placeKept,
  versionUnchanged,
} from "./issue-conditions.js";
import {
  laterOf,
  newestFirst,
  RECENT_SIGNALS,
  type RecentSignal,
  recentSignalsMap,
  type StoredIssue,
} from "./issue-item.js";
import { issueKey, pendingSignalKey } from "./keys.js";
import type { Issue } from "./schemas.js";
import { impactChanges } from "./scoring.js";

/**
 * The write that links one more signal to `current` without reading it again: commutative
 * updates (`signalCount` and `version` go up by one, the signal joins the recent ones and those
 * it pushes out of the latest ten leave), so any number of deliveries grouped into one issue
 * at once all land, in any order, with no version to lose. It holds while the issue is live and
 * open, and while one more signal leaves its impact bonus (and so its place in the queue) as it
 * is. Changes of status, priority or impact are not commutative: they go through
 * IssueStore.prepareUpdate (./issue-store.ts). Undefined for an item whose recent signals are not
 * a map, or whose next signal changes its impact bonus.
 */
export function groupingWrites(
  current: StoredIssue,
  signal: RecentSignal,
): { stored: StoredIssue; writes: TransactItem[] } | undefined {
  if (!current.recentSignalsInPlace) return undefined;
  if (movesInQueue(current, 1)) return undefined;
  const recent = recentSignalsChange(current.recentSignals, [signal]);
  const kept = recent.kept;
  const names: Record<string, string> = {
    "#signalCount": "signalCount",
    "#version": "version",
    "#status": "status",
    ...recent.names,
  };
  const values: Record<string, unknown> = {
    ":one": 1,
    ":done": "done",
    ":canceled": "canceled",
    ...PLACE_KEPT_VALUES,
    ...recent.values,
  };
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
          ConditionExpression: `${issueLive} AND ${issueOpen} AND ${placeKept}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ],
  };
}

/**
 * Whether `arriving` more signals move `current`'s place in the queue: it has one (it is in
 * `todo`) and its impact bonus changes.
 */
export function movesInQueue(current: StoredIssue, arriving: number): boolean {
  const count = current.issue.signalCount;
  return current.issue.status === "todo" && impactChanges(count, count + arriving);
}

/**
 * The write that links one more signal to an issue without holding the issue item: the signal
 * waits in the issue's partition until a fold (./signal-folds.ts) adds it to the
 * issue's aggregates. For storms: a delivery that finds the item held by another transaction
 * writes this instead, so deliveries into one issue never refuse each other.
 */
export function pendingSignalWrite(issueId: string, signal: RecentSignal): TransactItem {
  return {
    Put: {
      Item: { ...pendingSignalKey(issueId, signal.id), entity: entityOf("issuesignal"), signal },
      ConditionExpression: itemAbsent,
    },
  };
}

/**
 * The transaction that moves `pending` signal items from beside a merged issue to beside the issue
 * it was merged into (`targetId`), where that issue's fold counts them: each moved once.
 */
export function moveWrites(targetId: string, pending: Item[]): TransactItem[] {
  return pending.flatMap((item): TransactItem[] => [
    { Delete: { Key: { pk: String(item.pk), sk: String(item.sk) }, ConditionExpression: itemExists } },
    pendingSignalWrite(targetId, item.signal as RecentSignal),
  ]);
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
 * still there. A fold that changes the impact bonus of a queued issue also moves its queue entry
 * (`queue`), and then holds only at the version read.
 */
export function foldWrites(current: StoredIssue, pending: Item[], queue: DispatchQueue): TransactItem[] {
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
  const count = current.issue.signalCount + signals.length;
  let condition = issueLive;
  const before = { issue: current.issue, goalActive: current.goalActive };
  const moves = movesInQueue(current, signals.length)
    ? queue.changes(before, { ...before, issue: { ...current.issue, signalCount: count } })
    : [];
  if (moves.length > 0) {
    // Its place moves from where it was read: the fold holds only at that version.
    names["#version"] = "version";
    values[":expectedVersion"] = current.version;
    condition = `${issueLive} AND ${versionUnchanged}`;
  } else if (impactChanges(current.issue.signalCount, count)) {
    // Not queued as read: it holds only while the issue has no place the fold would move.
    names["#status"] = "status";
    values[":todo"] = "todo";
    condition = `${issueLive} AND ${notQueued}`;
  }
  return [
    {
      Update: {
        Key: issueKey(current.issue.id),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...moves,
    ...pending.map(
      (item): TransactItem => ({
        Delete: { Key: { pk: String(item.pk), sk: String(item.sk) }, ConditionExpression: itemExists },
      }),
    ),
  ];
}
