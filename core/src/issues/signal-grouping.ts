/**
 * @module issues/signal-grouping — the commutative writes that link signals to an issue without
 * reading it again: one grouped in place, one left waiting beside a held issue, and the fold of
 * those waiting into it. Pure; the store (./issue-store.ts) and the folds (./signal-folds.ts) send them.
 */
import type { Item, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { issueLive, issueOpen, itemAbsent, itemExists } from "./issue-conditions.js";
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

/**
 * The write that links one more signal to `current` without reading it again: commutative
 * updates (`signalCount` and `version` go up by one, the signal joins the recent ones and those
 * it pushes out of the latest ten leave), so any number of deliveries grouped into one issue
 * at once all land, in any order, with no version to lose. It holds while the issue is live and
 * open. Changes of status or priority are not commutative: they go through
 * IssueStore.prepareUpdate (./issue-store.ts). Undefined for an item whose recent signals are not a map.
 */
export function groupingWrites(
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
export function foldWrites(current: StoredIssue, pending: Item[]): TransactItem[] {
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
