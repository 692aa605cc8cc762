/**
 * @module runners/handoff-rules — what hosted runners' hand-offs decide without I/O (docs/api.md#hosted-runners):
 * which changes of the table call for a hand-off or end one, which issues a runner takes, how long
 * it backs off after a refusal and when it is switched off.
 */
import type { ChangeRecord } from "../db/changes.js";
import type { Item } from "../db/db.js";
import { entitiesOf } from "../db/item-kinds.js";
import type { Issue } from "../issues/schemas.js";
import { RUNNERS_PARTITION } from "./keys.js";
import type { Runner } from "./schemas.js";

/** Refusals in a row after which a runner is switched off. */
export const DISABLE_AFTER_REFUSALS = 10;
/** The backoff after the first refusal; it doubles with each refusal in a row, up to {@link MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 30_000;
export const MAX_BACKOFF_MS = 30 * 60_000;
/**
 * A hand-off claimed this long ago and still not taken by GitHub was left by a hand-off that died
 * (GitHub has 10 s to answer): the sweep releases its dispatch.
 */
export const STALE_CLAIM_MS = 60_000;

const ISSUE_ENTITIES = new Set(entitiesOf("issue"));
const DISPATCH_ENTITIES = new Set(entitiesOf("dispatch"));
const OPEN = new Set(["active", "waiting"]);

/**
 * The `entity` of every item whose change can move a hand-off (an issue, a dispatch, a runner): the
 * deployed stream's subscription filters on these (infra/handoffs.ts), so no other change invokes the function.
 */
export const HANDOFF_SOURCE_ENTITIES: readonly string[] = [
  ...ISSUE_ENTITIES,
  ...DISPATCH_ENTITIES,
  ...entitiesOf("runner"),
];

/**
 * The wait before the next hand-off after `refusals` refusals in a row: 30 s, 1 min, 2 min … up to 30 min.
 * @example refusalBackoffMs(1) // 30_000; refusalBackoffMs(3) // 120_000
 */
export function refusalBackoffMs(refusals: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, refusals - 1), MAX_BACKOFF_MS);
}

/** Whether an issue item can be claimed: `todo`, nothing open blocks it, not deleted. */
function claimable(item: Item | undefined): boolean {
  return (
    item !== undefined &&
    item.status === "todo" &&
    (!Array.isArray(item.blockedBy) || item.blockedBy.length === 0) &&
    item.deletedAt === undefined
  );
}

/** The issue `change` made eligible for a claim (it was not before), if it did. */
export function newlyEligible(change: ChangeRecord): Pick<Issue, "id" | "projectId" | "type"> | undefined {
  const after = change.newImage;
  if (!after || !ISSUE_ENTITIES.has(String(after.entity)) || !claimable(after) || claimable(change.oldImage)) {
    return undefined;
  }
  return {
    id: String(after.id),
    projectId: typeof after.projectId === "string" ? after.projectId : null,
    type: after.type as Issue["type"],
  };
}

/** The dispatch `change` ended (it left `active` or `waiting`), if it did. */
export function endedDispatch(change: ChangeRecord): string | undefined {
  const before = change.oldImage;
  if (!before || !DISPATCH_ENTITIES.has(String(before.entity)) || !OPEN.has(String(before.status))) return undefined;
  const after = change.newImage;
  return after && OPEN.has(String(after.status)) ? undefined : String(before.id);
}

/** Whether the change made, changed or deleted a runner. */
export function runnerChanged(change: ChangeRecord): boolean {
  return change.keys.pk === RUNNERS_PARTITION;
}

/** Whether `runner` takes issues like `issue` (its filters). */
export function takes(runner: Runner, issue: Pick<Issue, "projectId" | "type">): boolean {
  const { projectId, types } = runner.filters;
  return (projectId === null || issue.projectId === projectId) && (types === null || types.includes(issue.type));
}

/** Whether `runner` may be handed a dispatch at `now`: on, not backing off, with room. */
export function hasRoom(runner: Runner, now: Date): boolean {
  return (
    runner.active &&
    (runner.retryAfter === null || runner.retryAfter <= now.toISOString()) &&
    runner.activeDispatches < runner.concurrency
  );
}
