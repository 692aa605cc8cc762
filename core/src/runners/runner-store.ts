/**
 * @module runners/runner-store — every DynamoDB expression about hosted runners: at most {@link MAX_RUNNERS}
 * (a count raised under condition in each create's transaction), changed at a version, their GitHub
 * token kept in an item of its own that no read of a runner touches, their run of refusals counted
 * until it switches them off, and their hand-offs (the dispatches each holds) held to their
 * concurrency by the claim's own transaction. Keys: ./keys.ts.
 */
import { ConditionFailedError, type Db, type Item, type TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { retryConflicts } from "../db/retry.js";
import { ConflictError } from "../errors.js";
import {
  LOADS_PARTITION,
  RUNNERS_PARTITION,
  runnerCountKey,
  runnerKey,
  runnerLoadKey,
  runnerTokenKey,
} from "./keys.js";
import { MAX_RUNNERS, type Runner } from "./schemas.js";

/** A runner's fields as stored: all it shows but what is counted or derived at each read. */
export type RunnerFields = Omit<Runner, "activeDispatches" | "githubTokenConfigured">;

/** Where one hand-off stands: claimed (GitHub not yet told) or handed (GitHub took it). */
export interface HandOff {
  dispatchId: string;
  state: "claimed" | "handed";
  /** When it entered that state. */
  at: string;
}

export interface StoredRunner {
  runner: Runner;
  version: number;
  /** Its dispatches that have not ended, oldest first. */
  handOffs: HandOff[];
}

/** What a change of a runner's record of refusals sets (./handoffs.ts decides it). */
export interface RefusalRecord {
  lastError: string;
  at: Date;
  retryAfter: Date;
  /** Set when this refusal switches the runner off. */
  disabledReason: string | null;
}

const FIELDS = [
  "id",
  "name",
  "kind",
  "repository",
  "eventType",
  "concurrency",
  "filters",
  "agent",
  "active",
  "lastError",
  "lastErrorAt",
  "failures",
  "retryAfter",
  "disabledReason",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof RunnerFields)[];

const itemAbsent = "attribute_not_exists(pk)";
const atVersion = "attribute_exists(pk) AND #version = :version";
/** A runner that takes a hand-off now: on, at the concurrency the hand-off read, not backing off. */
const takesHandOffs =
  "#active = :true AND #concurrency = :concurrency AND (attribute_not_exists(#retryAfter) OR #retryAfter <= :now)";
/** A runner's hand-offs with room for one more. */
const hasRoom = "attribute_exists(pk) AND size(#live) < :concurrency";
const holds = "attribute_exists(#live.#dispatch)";

export class RunnerStore {
  constructor(private readonly db: Db) {}

  /** Writes a new runner and its token, 409 when there are {@link MAX_RUNNERS} already. */
  async create(fields: RunnerFields, githubToken: string): Promise<StoredRunner> {
    try {
      // The count is one item every create writes: a create that meets another on it sends again.
      await retryConflicts(() =>
        this.db.transactWrite([
          { Put: { Item: { ...runnerKey(fields.id), ...itemOf(fields, 1) }, ConditionExpression: itemAbsent } },
          { Put: { Item: { ...runnerTokenKey(fields.id), githubToken } } },
          { Put: { Item: { ...runnerLoadKey(fields.id), live: {} } } },
          {
            Update: {
              Key: runnerCountKey(),
              UpdateExpression: "SET #n = if_not_exists(#n, :zero) + :one",
              ConditionExpression: "attribute_not_exists(#n) OR #n < :max",
              ExpressionAttributeNames: { "#n": "count" },
              ExpressionAttributeValues: { ":zero": 0, ":one": 1, ":max": MAX_RUNNERS },
            },
          },
        ]),
      );
    } catch (error) {
      if (error instanceof ConditionFailedError && error.reasons[3] === "ConditionalCheckFailed") {
        throw new ConflictError(`There are ${MAX_RUNNERS} runners already; delete one first`);
      }
      throw error;
    }
    return { runner: shown(fields, []), version: 1, handOffs: [] };
  }

  /** The runner and its hand-offs, in one call (a get by id costs one, docs/contributing.md#budgets). */
  async get(id: string): Promise<StoredRunner | undefined> {
    const items = await this.db.batchGet([runnerKey(id), runnerLoadKey(id)], { consistent: true });
    const item = items.find((found) => found.pk === runnerKey(id).pk);
    const load = items.find((found) => found.pk === runnerLoadKey(id).pk);
    return item ? fromItem(item, load) : undefined;
  }

  /** Every runner, oldest first (two queries: there are at most {@link MAX_RUNNERS}). */
  async all(): Promise<StoredRunner[]> {
    const [items, loads] = await Promise.all([
      this.db.queryPartition(RUNNERS_PARTITION),
      this.db.queryPartition(LOADS_PARTITION),
    ]);
    const loadOf = new Map(loads.map((load) => [String(load.sk), load]));
    return items
      .map((item) => fromItem(item, loadOf.get(String(item.sk))))
      .sort((a, b) => a.runner.id.localeCompare(b.runner.id));
  }

  /** The GitHub token of runner `id`, for its hand-offs: the one read that sees it. */
  async githubTokenOf(id: string): Promise<string | undefined> {
    const item = await this.db.get(runnerTokenKey(id), { consistent: true });
    return typeof item?.githubToken === "string" ? item.githubToken : undefined;
  }

  /** Replaces `current` with `updated` (and the token, when given) if it is still at its version; 409 otherwise. */
  async replace(current: StoredRunner, updated: RunnerFields, githubToken?: string): Promise<StoredRunner> {
    const version = current.version + 1;
    try {
      await this.db.transactWrite([
        {
          Put: {
            Item: { ...runnerKey(updated.id), ...itemOf(updated, version) },
            ConditionExpression: atVersion,
            ExpressionAttributeNames: { "#version": "version" },
            ExpressionAttributeValues: { ":version": current.version },
          },
        },
        ...(githubToken === undefined ? [] : [{ Put: { Item: { ...runnerTokenKey(updated.id), githubToken } } }]),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailedError) {
        throw new ConflictError(`Runner ${updated.id} changed meanwhile; read it again`);
      }
      throw error;
    }
    return { runner: shown(updated, current.handOffs), version, handOffs: current.handOffs };
  }

  /**
   * Deletes `current` (if still at its version), its token and its record of hand-offs, and frees
   * its place among the {@link MAX_RUNNERS}. Its dispatches go on; their ends free nothing any more.
   */
  async delete(current: StoredRunner): Promise<void> {
    const { id } = current.runner;
    try {
      await retryConflicts(() =>
        this.db.transactWrite([
          {
            Delete: {
              Key: runnerKey(id),
              ConditionExpression: atVersion,
              ExpressionAttributeNames: { "#version": "version" },
              ExpressionAttributeValues: { ":version": current.version },
            },
          },
          { Delete: { Key: runnerTokenKey(id) } },
          { Delete: { Key: runnerLoadKey(id) } },
          {
            Update: {
              Key: runnerCountKey(),
              UpdateExpression: "ADD #n :minusOne",
              ExpressionAttributeNames: { "#n": "count" },
              ExpressionAttributeValues: { ":minusOne": -1 },
            },
          },
        ]),
      );
    } catch (error) {
      if (error instanceof ConditionFailedError && error.reasons[0] === "ConditionalCheckFailed") {
        throw new ConflictError(`Runner ${id} changed meanwhile; read it again`);
      }
      throw error;
    }
  }

  /**
   * The writes that make `dispatchId` one of `runner`'s hand-offs, for the claim's own transaction:
   * they hold only while the runner is on, at the concurrency read, not backing off, and holds
   * fewer dispatches than its concurrency. So claims made at once for one runner, from any number of
   * instances, never leave it more dispatches than its concurrency.
   */
  prepareTake(runner: Runner, dispatchId: string, now: Date): TransactItem[] {
    const at = now.toISOString();
    return [
      {
        ConditionCheck: {
          Key: runnerKey(runner.id),
          ConditionExpression: takesHandOffs,
          ExpressionAttributeNames: {
            "#active": "active",
            "#concurrency": "concurrency",
            "#retryAfter": "retryAfter",
          },
          ExpressionAttributeValues: { ":true": true, ":concurrency": runner.concurrency, ":now": at },
        },
      },
      {
        Update: {
          Key: runnerLoadKey(runner.id),
          UpdateExpression: "SET #live.#dispatch = :handOff",
          ConditionExpression: hasRoom,
          ExpressionAttributeNames: { "#live": "live", "#dispatch": dispatchId },
          ExpressionAttributeValues: { ":handOff": { state: "claimed", at }, ":concurrency": runner.concurrency },
        },
      },
    ];
  }

  /** Marks hand-off `dispatchId` of runner `id` as taken by GitHub (nothing when it ended meanwhile). */
  async markHanded(id: string, dispatchId: string, now: Date): Promise<void> {
    await this.ignoringGone(
      this.db.update({
        Key: runnerLoadKey(id),
        UpdateExpression: "SET #live.#dispatch = :handOff",
        ConditionExpression: holds,
        ExpressionAttributeNames: { "#live": "live", "#dispatch": dispatchId },
        ExpressionAttributeValues: { ":handOff": { state: "handed", at: now.toISOString() } },
      }),
    );
  }

  /** Frees the place of `dispatchId` among runner `id`'s hand-offs; whether this call did (once, whoever asks). */
  async free(id: string, dispatchId: string): Promise<boolean> {
    return this.ignoringGone(
      this.db.update({
        Key: runnerLoadKey(id),
        UpdateExpression: "REMOVE #live.#dispatch",
        ConditionExpression: holds,
        ExpressionAttributeNames: { "#live": "live", "#dispatch": dispatchId },
      }),
    );
  }

  /**
   * Counts one more refusal on `current` (read just before; a race reads again), with the error, the
   * backoff and, when it switches the runner off, why; `audit` rides in the same transaction.
   */
  async recordRefusal(current: StoredRunner, refusal: RefusalRecord, audit: TransactItem[]): Promise<void> {
    const at = refusal.at.toISOString();
    const off = refusal.disabledReason !== null;
    await this.db.transactWrite([
      {
        Update: {
          Key: runnerKey(current.runner.id),
          UpdateExpression:
            "SET #failures = :failures, #lastError = :error, #lastErrorAt = :at, #retryAfter = :retryAfter, #updatedAt = :at, #version = :next" +
            (off ? ", #active = :false, #disabledReason = :reason" : ""),
          ConditionExpression: atVersion,
          ExpressionAttributeNames: {
            "#failures": "failures",
            "#lastError": "lastError",
            "#lastErrorAt": "lastErrorAt",
            "#retryAfter": "retryAfter",
            "#updatedAt": "updatedAt",
            "#version": "version",
            ...(off ? { "#active": "active", "#disabledReason": "disabledReason" } : {}),
          },
          ExpressionAttributeValues: {
            ":failures": current.runner.failures + 1,
            ":error": refusal.lastError,
            ":at": at,
            ":retryAfter": refusal.retryAfter.toISOString(),
            ":version": current.version,
            ":next": current.version + 1,
            ...(off ? { ":false": false, ":reason": refusal.disabledReason } : {}),
          },
        },
      },
      ...audit,
    ]);
  }

  /** Ends a run of refusals: the count back to 0 and no backoff (no write when there was none). */
  async recordSuccess(current: Runner, now: Date): Promise<void> {
    if (current.failures === 0 && current.retryAfter === null) return;
    await this.ignoringGone(
      this.db.update({
        Key: runnerKey(current.id),
        UpdateExpression: "SET #failures = :zero, #updatedAt = :now REMOVE #retryAfter ADD #version :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: {
          "#failures": "failures",
          "#retryAfter": "retryAfter",
          "#updatedAt": "updatedAt",
          "#version": "version",
        },
        ExpressionAttributeValues: { ":zero": 0, ":one": 1, ":now": now.toISOString() },
      }),
    );
  }

  /** Whether `write` went through; false when its condition found the item changed or gone. */
  private async ignoringGone(write: Promise<unknown>): Promise<boolean> {
    try {
      await write;
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }
}

function itemOf(fields: RunnerFields, version: number): Item {
  // No backoff is stored as no attribute: the hand-off's condition reads its absence.
  const { retryAfter, ...rest } = fields;
  return { entity: entityOf("runner"), ...rest, ...(retryAfter === null ? {} : { retryAfter }), version };
}

function shown(fields: RunnerFields, handOffs: HandOff[]): Runner {
  return { ...fields, githubTokenConfigured: true, activeDispatches: handOffs.length };
}

function handOffsOf(load: Item | undefined): HandOff[] {
  const live = (load?.live ?? {}) as Record<string, { state?: string; at?: string }>;
  return Object.entries(live)
    .map(([dispatchId, entry]) => ({
      dispatchId,
      state: entry.state === "handed" ? ("handed" as const) : ("claimed" as const),
      at: String(entry.at ?? ""),
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
}

function fromItem(item: Item, load: Item | undefined): StoredRunner {
  // The item was written from a Runner's fields by this store.
  const fields = Object.fromEntries(FIELDS.map((field) => [field, item[field] ?? null])) as unknown as RunnerFields;
  const filters = (item.filters ?? {}) as { projectId?: string | null; types?: RunnerFields["filters"]["types"] };
  fields.filters = { projectId: filters.projectId ?? null, types: filters.types ? [...filters.types] : null };
  fields.concurrency = Number(item.concurrency ?? 1);
  fields.failures = Number(item.failures ?? 0);
  const handOffs = handOffsOf(load);
  return { runner: shown(fields, handOffs), version: Number(item.version ?? 1), handOffs };
}
