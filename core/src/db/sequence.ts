/**
 * @module db/sequence — numbers 1, 2, 3 … taken with one atomic update each, never in a
 * transaction, so any number of writers take them at once without a retry.
 *
 * The sequence item keeps the last number taken and, optionally, the instant it was taken at:
 * a writer whose clock is behind the last instant recorded is given that instant instead, so
 * instants never go back as numbers go up. A number is used by the transaction that follows;
 * if that transaction fails, the number stays unused (a gap), which is the price of taking it
 * outside the transaction: inside, every writer would hold the same item.
 *
 * Each take also records who took the last number (a token of the call). When DynamoDB applied
 * an update and its answer was lost, the SDK sends it again; the resend is refused by that token
 * and the number the first sending took is read from the refusal, so a lost answer takes one
 * number, not two (no gap that later readers of the sequence wait on).
 */
import { randomBytes } from "node:crypto";
import { ConditionFailedError, type Db, type Item, type Key } from "./db.js";

/** A number of a sequence and the instant it was taken at. */
export interface Taken {
  value: number;
  at: string;
}

// Named condition fragments.
/** The instant offered is not before the last one recorded. */
const notBeforeLast = "attribute_not_exists(#lastAt) OR #lastAt <= :at";
/** The last number was not taken by this call (a resend of an update DynamoDB applied). */
const notTakenByThisCall = "attribute_not_exists(lastBy) OR lastBy <> :by";

/** Attribute names of a sequence item. */
export interface SequenceAttributes {
  last: string;
  lastAt: string;
}

/** The number this call took, when a refusal shows the update was applied by an earlier sending of it. */
function takenByThisCall(error: unknown, by: string, attributes: SequenceAttributes): Taken | undefined {
  if (!(error instanceof ConditionFailedError)) return undefined;
  const existing = error.existing as Item | undefined;
  if (existing?.lastBy !== by) return undefined;
  return { value: Number(existing[attributes.last]), at: String(existing[attributes.lastAt]) };
}

/**
 * Takes the next number of the sequence at `key`, taken at `at` (an ISO instant) or, when a
 * number before it was taken at a later instant (another writer's clock, or a request that
 * overtook this one), at that instant. Two calls at most, neither of which can lose a race: the
 * first records `at` only if it is not before the last instant recorded; if it is, the second
 * takes the number unconditionally at the recorded instant (recorded instants only grow).
 * @example const { value, at } = await takeNext(db, counterKey, new Date().toISOString());
 */
export async function takeNext(
  db: Db,
  key: Key,
  at: string,
  attributes: SequenceAttributes = { last: "last", lastAt: "lastAt" },
): Promise<Taken> {
  const names = { "#last": attributes.last, "#lastAt": attributes.lastAt };
  const by = randomBytes(9).toString("base64url");
  try {
    const after = await db.update({
      Key: key,
      UpdateExpression: "ADD #last :one SET #lastAt = :at, lastBy = :by",
      ConditionExpression: `(${notBeforeLast}) AND (${notTakenByThisCall})`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ":one": 1, ":at": at, ":by": by },
      ReturnValues: "ALL_NEW",
    });
    return { value: Number(after?.[attributes.last]), at };
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const taken = takenByThisCall(error, by, attributes);
    if (taken) return taken;
  }
  try {
    const after = await db.update({
      Key: key,
      UpdateExpression: "ADD #last :one SET lastBy = :by",
      ConditionExpression: notTakenByThisCall,
      ExpressionAttributeNames: { "#last": attributes.last },
      ExpressionAttributeValues: { ":one": 1, ":by": by },
      ReturnValues: "ALL_NEW",
    });
    return { value: Number(after?.[attributes.last]), at: String(after?.[attributes.lastAt]) };
  } catch (error) {
    const taken = takenByThisCall(error, by, attributes);
    if (taken) return taken;
    throw error;
  }
}
