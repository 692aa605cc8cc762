/** @module catalog/patch — partial updates of catalog records under optimistic concurrency (docs/api.md#concurrency-and-idempotency). */
import type { ConditionFailedError, TransactItem } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import type { RecordStore, Stored } from "./record-store.js";

/** Only a failed condition on the record itself (the first write) is a lost race; others are answers. */
export const lostRace = (error: ConditionFailedError) => error.reasons[0] === "ConditionalCheckFailed";

/**
 * Reads, refuses on an `If-Match` mismatch (`expected`), writes the merged fields under the
 * version read, and on a lost race reads again: concurrent changes of different fields all
 * survive, and of several writers holding the same `If-Match` exactly one wins (the others
 * read the winner's version and get 412). A change that changes nothing writes nothing.
 * `extra` gives the writes that go with the change, for its transaction (a project's source claims).
 * @example await patchRecord(projects, () => getProject(id), { name: "New" }, expectedVersion(c), () => new Date());
 */
export async function patchRecord<T extends { id: string; updatedAt: string }>(
  store: RecordStore<T>,
  read: () => Promise<Stored<T>>,
  changes: Partial<T>,
  expected: ExpectedVersions | undefined,
  now: () => Date,
  extra?: (current: Stored<T>, updated: T) => Promise<TransactItem[]>,
): Promise<Stored<T>> {
  return retryRaces(
    async () => {
      const current = await read();
      checkVersion(expected, current.version);
      const given = Object.entries(changes).filter(([, value]) => value !== undefined);
      if (given.every(([field, value]) => sameValue(current.record[field as keyof T], value))) return current;
      const updated: T = { ...current.record, ...Object.fromEntries(given), updatedAt: now().toISOString() };
      return store.update(current, updated, extra ? await extra(current, updated) : []);
    },
    { isRace: lostRace },
  );
}

/** Field values compare by content: an object field (a project's `limits`) given again unchanged changes nothing. */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === "object" && a !== null && canonical(a) === canonical(b));
}

/** JSON with object keys sorted: the table does not keep a map's key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  );
}
