/**
 * @module runners/keys — items and keys of hosted runners (pure functions, no I/O).
 *
 * Access patterns:
 * - every runner ............ Query   pk=$kaizen#runner_1                 (at most 20: one partition)
 * - runner by id ............ GetItem pk=$kaizen#runner_1       sk=<id>
 * - how many there are ...... GetItem pk=$kaizen#runners_1      sk=count  (checked by each create)
 * - a runner's GitHub token . GetItem pk=$kaizen#runnertoken_1#<id> sk=token (read by the hand-off only)
 * - every runner's hand-offs  Query   pk=$kaizen#runnerload_1             (one item per runner: its
 *                             dispatches that have not ended, a map held to the runner's concurrency)
 */
import { decodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";

const RUNNER_ENTITY = keyPrefix("runner");
const RUNNERS_COUNT_ENTITY = keyPrefix("runners");
const TOKEN_ENTITY = keyPrefix("runnertoken");
const LOAD_ENTITY = keyPrefix("runnerload");

const nextUlid = ulidSource();

/** A new runner id and the instant it names (its `createdAt`). */
export function newRunnerId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `run_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

/** The partition holding every runner. */
export const RUNNERS_PARTITION = RUNNER_ENTITY;
/** The partition holding every runner's hand-offs. */
export const LOADS_PARTITION = LOAD_ENTITY;

export function runnerKey(id: string): Key {
  return { pk: RUNNER_ENTITY, sk: id };
}

/** The count of runners, which a create raises under the condition that it stays within the maximum. */
export function runnerCountKey(): Key {
  return { pk: RUNNERS_COUNT_ENTITY, sk: "count" };
}

/** Where a runner's GitHub token is kept: apart from the runner, so no read of a runner can carry it. */
export function runnerTokenKey(id: string): Key {
  return { pk: `${TOKEN_ENTITY}#${id}`, sk: "token" };
}

/** A runner's hand-offs: the dispatches it holds, by id. */
export function runnerLoadKey(id: string): Key {
  return { pk: LOAD_ENTITY, sk: id };
}
