/**
 * @module issues/derived-writes — the writes that follow an issue's fields wherever it is written:
 * the dashboard's counts by status and type, the todo-to-done histogram, and the child summary in
 * the parent's partition. Pure; ./issue-store.ts adds them to each issue write.
 */
import type { TransactItem } from "../db/db.js";
import { countChange, durationBucket } from "../stats/counts.js";
import { type StoredIssue, summaryItem } from "./issue-item.js";
import { childPointerKey } from "./keys.js";
import type { Issue } from "./schemas.js";

/** The dashboard's issue counts by status and type, following an issue from `before` to `after` (null: absent). */
export function issueCountChanges(before: Issue | null, after: Issue | null): TransactItem[] {
  const writes: TransactItem[] = [];
  for (const field of ["status", "type"] as const) {
    if (before?.[field] === after?.[field]) continue;
    if (before) writes.push(countChange(`issue.${field}#${before[field]}`, -1));
    if (after) writes.push(countChange(`issue.${field}#${after[field]}`, 1));
  }
  return writes;
}

/**
 * When an issue enters `todo` from anything but `in_progress` or `in_review` (a claim given back,
 * or work review sent back, keeps its start), its todo-to-done time starts; it ends on `done` or
 * `canceled`.
 */
export function todoAtAfter(current: StoredIssue, status: Issue["status"], now: Date): string | null {
  const from = current.issue.status;
  if (status === from) return current.todoAt;
  if (status === "todo" && from !== "in_progress" && from !== "in_review") return now.toISOString();
  if (status === "done" || status === "canceled") return null;
  return current.todoAt;
}

/** An issue reaching `done` after entering `todo` adds its duration to the dashboard's histogram. */
export function todoToDone(current: StoredIssue, status: Issue["status"], now: Date): TransactItem[] {
  if (status !== "done" || current.issue.status === "done" || !current.todoAt) return [];
  const seconds = Math.max(0, (now.getTime() - Date.parse(current.todoAt)) / 1000);
  return [countChange(`todo-to-done#${durationBucket(seconds)}`, 1)];
}

/** The child's summary in its parent's partition follows its parent, fields and deletion. */
export function childPointerWrites(before: Issue | null, after: Issue | null): TransactItem[] {
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
