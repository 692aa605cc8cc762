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
import { ConditionFailedError, type Db, type Key } from "./client.js";

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
 * Takes the next number of the sequence at `key`, recording `at` (an ISO instant) or, when the
 * last recorded instant is later, that one.
 * @example const { value, at } = await takeNext(db, counterKey, new Date().toISOString());
 */
export async function takeNext(
  db: Db,
  key: Key,
  at: string,
  attributes: SequenceAttributes = { last: "last", lastAt: "lastAt" },
): Promise<Taken> {
  let offered = at;
  for (;;) {
    try {
      const after = await db.update({
        Key: key,
        UpdateExpression: "ADD #last :one SET #lastAt = :at",
        ConditionExpression: notBeforeLast,
        ExpressionAttributeNames: { "#last": attributes.last, "#lastAt": attributes.lastAt },
        ExpressionAttributeValues: { ":one": 1, ":at": offered },
        ReturnValues: "ALL_NEW",
      });
      return { value: Number(after?.[attributes.last]), at: offered };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      // Another writer recorded a later instant: take ours at that instant (the condition then
      // holds unless yet another writer moves it on).
      const last = lastInstant(error.existing, attributes.lastAt);
      if (last === undefined || last <= offered) throw error;
      offered = last;
    }
  }
}

function lastInstant(existing: unknown, attribute: string): string | undefined {
  if (typeof existing !== "object" || existing === null) return undefined;
  const value = (existing as Record<string, unknown>)[attribute];
  if (typeof value === "string") return value;
  // An item the SDK left in its wire form.
  const wire = value as { S?: unknown } | undefined;
  return typeof wire?.S === "string" ? wire.S : undefined;
}
