/**
 * @module db/ids — the one way a process makes time-ordered ids (ULIDs) of a kind.
 *
 * Ids made in the same millisecond sort in the order they were made (a monotonic ULID), and a
 * clock that steps back a little (a host's correction) gets the instant of the previous id, so
 * ids and the times read from them never go backwards together within a process. A clock that
 * steps back further than that is another clock (a restored host, a clock set apart): ids follow
 * it from there, since rules read the time an id names (a dispatch's `claimedAt`, the day an
 * audit record is kept in, a listing's bucket) and an id nudged past it by hours would misplace
 * them. Across processes (Lambda instances) ids are ordered by their clocks alone.
 */
import { decodeTime, monotonicFactory } from "ulid";

/** How far back a clock may step and still be ridden over: ids keep the previous instant. */
export const RIDDEN_STEP_BACK_MS = 60_000;

/**
 * A source of ULIDs for one kind of id. `riddenStepBackMs` is how far back the clock may step
 * before ids follow it; 0 when an id must always name its own instant.
 * @example const nextUlid = ulidSource(); nextUlid(Date.now()) // "01KB…"
 */
export function ulidSource(riddenStepBackMs = RIDDEN_STEP_BACK_MS): (now: number) => string {
  let next = monotonicFactory();
  let latest = Number.NEGATIVE_INFINITY;
  return (now) => {
    if (now < latest - riddenStepBackMs) {
      next = monotonicFactory();
      latest = now;
    } else {
      latest = Math.max(latest, now);
    }
    return next(now);
  };
}

/** A Kaizen id: a kind's prefix, `_`, and a ULID. */
const KAIZEN_ID = /^[a-z]{3}_([0-9A-HJKMNP-TV-Z]{26})$/;

/**
 * The instant (epoch ms) a Kaizen id (`<prefix>_<ULID>`) was made at, which its ULID names; undefined
 * for anything else.
 * @example timeOfId("iss_01ARZ3NDEKTSV4RRFFQ69G5FAV") // 1469918176385
 */
export function timeOfId(id: string): number | undefined {
  const ulid = KAIZEN_ID.exec(id)?.[1];
  return ulid === undefined ? undefined : decodeTime(ulid);
}
