/**
 * @module db/sequence — numbers 1, 2, 3 … taken with one atomic update each, never in a
 * transaction, so any number of writers take them at once without a retry.
 *
 * The sequence item keeps the last number taken and, optionally, the instant it was taken at:
 * a writer whose clock is behind the last instant recorded is given that instant instead, so
 * instants never go back as numbers go up. A number is used by the transaction that follows;
 * if that transaction fails, the number stays unused (a gap), which is the price of taking it
 * outside the transaction: inside, every writer would hold the same item.
 */
import { ConditionFailedError, type Db, type Key } from "./db.js";

/** A number of a sequence and the instant it was taken at. */
export interface Taken {
  value: number;
  at: string;
}

// Named condition fragments.
/** The instant offered is not before the last one recorded. */
const notBeforeLast = "attribute_not_exists(#lastAt) OR #lastAt <= :at";

/** Attribute names of a sequence item. */
export interface SequenceAttributes {
  last: string;
  lastAt: string;
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
  try {
    const after = await db.update({
      Key: key,
      UpdateExpression: "ADD #last :one SET #lastAt = :at",
      ConditionExpression: notBeforeLast,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ":one": 1, ":at": at },
      ReturnValues: "ALL_NEW",
    });
    return { value: Number(after?.[attributes.last]), at };
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
  const after = await db.update({
    Key: key,
    UpdateExpression: "ADD #last :one",
    ExpressionAttributeNames: { "#last": attributes.last },
    ExpressionAttributeValues: { ":one": 1 },
    ReturnValues: "ALL_NEW",
  });
  return { value: Number(after?.[attributes.last]), at: String(after?.[attributes.lastAt]) };
}
