/**
 * @module dispatch/dispatch-item — a dispatch and its activities as items: what the API shows,
 * what only the table keeps (the token's hash, the version, the prompt's template version, the
 * project), and reading them back. Written by ./dispatch-store.ts; read there, by
 * ./dispatch-queries.ts, by the token check and by the change stream.
 */
import type { Db, Item } from "../db/db.js";
import type { PromptArm } from "../templates/experiment-counts.js";
import { dispatchKey } from "./keys.js";
import { storedOutcome } from "./outcome-marks.js";
import type { Activity, Dispatch, DispatchStatus, DispatchUsage, OpenDispatchStatus } from "./schemas.js";
import type { TokenDispatch } from "./token.js";

/** The version a claim makes its dispatch at; each step and its end move it on. */
export const CLAIMED_VERSION = 1;

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

/** A dispatch as the API shows it, and its version (its `ETag`, docs/api.md#concurrency-and-idempotency). */
export type VersionedDispatch = Pick<StoredDispatch, "dispatch" | "version">;

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
export const OPEN_STATUSES: readonly OpenDispatchStatus[] = ["active", "waiting"];

/** Whether a dispatch in `status` has not ended: its agent works on it, or waits for a person. */
export function isOpen(status: DispatchStatus): status is OpenDispatchStatus {
  return (OPEN_STATUSES as readonly DispatchStatus[]).includes(status);
}

/** A dispatch's listing entry: what lists filter on, its project included (a key narrowed to projects lists only theirs). */
export function entryOf(dispatch: Dispatch, projectId: string | null): Item {
  return { id: dispatch.id, status: dispatch.status, issueId: dispatch.issueId, agent: dispatch.agent, projectId };
}

/** A dispatch from its item (as DispatchStore wrote it), e.g. an image of the table's change stream. */
export function fromItem(item: Item): StoredDispatch {
  // The item was written from a Dispatch by DispatchStore.
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

export function activityFromItem(item: Item): Activity {
  // The item was written from an Activity by DispatchStore.
  const activity = Object.fromEntries(ACTIVITY_FIELDS.map((field) => [field, item[field] ?? null]));
  return { ...(activity as unknown as Activity), sequence: Number(item.sequence) };
}

/**
 * What a dispatch token check needs of dispatch `id` (./token.ts): a lease that ran out ends the
 * token's use at once, before anything marks it expired. A function of its own, not a method: the
 * HTTP layer of every function checks tokens, and most functions need nothing else of dispatches.
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
