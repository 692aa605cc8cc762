/**
 * @module dispatch/keys — items and keys of dispatches and their leases (pure functions, no I/O).
 *
 * Access patterns:
 * - dispatch by id ........... GetItem  pk=$kaizen#dispatch_1#<id>  sk=$kaizen#dispatch_1
 * - leases run out by now .... Query    pk=$kaizen#lease_1  sk < <now ISO>  (one entry per active
 *                              dispatch, sorted by when its lease ends; a claim expires what it finds)
 * - lists .................... listings of db/listing-index.ts, entity `dispatch`, sort key = the id's ULID,
 *                              buckets of one hour; listings `all`, `status=`, `issue=`, `agent=`
 * - the queue ................ issues/dispatch-queue.ts (kept by issue moves)
 * - claimers in flight ....... Query    pk=$kaizen#claimers_1#<queue listing>  sk < <claimer id>
 *                              (one entry per claim under way on that listing, sorted by when it
 *                              began; the claim's transaction deletes its own, and one that never
 *                              got that far lapses)
 * - a dispatch's activities .. Query    pk=$kaizen#activity_1#<dispatchId>  sk > <padded sequence>
 *                              (oldest first; the dispatch item counts them, so sequences have no gaps)
 * - an agent's active dispatches in a project ...
 *                              GetItem  pk=$kaizen#agentload_1#<projectId>  sk=<encoded agent>
 *                              (attribute `active`: a claim of an issue of the project adds 1, the
 *                              dispatch's end takes it away; the claim's condition holds the
 *                              project's `limits.maxActivePerAgent`)
 */
import { createHash } from "node:crypto";
import { decodeTime, encodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";
import { ulidListingScheme } from "../db/listing-index.js";
import { encodeAgent } from "../stats/usage-stats.js";

const DISPATCH_ENTITY = keyPrefix("dispatch");
const LEASE_PARTITION = keyPrefix("lease");
const CLAIMERS_ENTITY = keyPrefix("claimers");
const AGENT_LOAD_ENTITY = keyPrefix("agentload");
const ACTIVITY_ENTITY = keyPrefix("activity");
const HOUR_MS = 3_600_000;

export const DISPATCH_ID = /^dsp_[0-9A-HJKMNP-TV-Z]{26}$/;

const nextUlid = ulidSource();
/** Apart from dispatch ids: those follow the service's clock, claimers the machine's. */
const nextClaimerUlid = ulidSource();
const nextActivityUlid = ulidSource();

/** A new dispatch id and the instant it names (its `claimedAt`). */
export function newDispatchId(now = Date.now()): { id: string; claimedAt: string } {
  const value = nextUlid(now);
  return { id: `dsp_${value}`, claimedAt: new Date(decodeTime(value)).toISOString() };
}

export function dispatchKey(id: string): Key {
  return { pk: `${DISPATCH_ENTITY}#${id}`, sk: DISPATCH_ENTITY };
}

/** A new activity id: a ULID of `now`, so ids sort as activities were made. */
export function newActivityId(now = Date.now()): string {
  return `act_${nextActivityUlid(now)}`;
}

/** The partition of a dispatch's activities. */
export function activityPartition(dispatchId: string): string {
  return `${ACTIVITY_ENTITY}#${dispatchId}`;
}

/** A sequence as activities' sort keys hold it: 10 digits, so they sort as numbers. */
export function padActivitySequence(sequence: number): string {
  return String(sequence).padStart(10, "0");
}

/** Activity number `sequence` of dispatch `dispatchId`. */
export function activityKey(dispatchId: string, sequence: number): Key {
  return { pk: activityPartition(dispatchId), sk: padActivitySequence(sequence) };
}

/** A new claimer id: a ULID, so claimers sort by when they began. */
export function newClaimerId(now = Date.now()): string {
  return nextClaimerUlid(now);
}

/** The least claimer id of a claimer that began at `since` or later. */
export function claimerIdFloor(since: Date): string {
  return `${encodeTime(since.getTime(), 10)}${"0".repeat(16)}`;
}

/** The partition of the claimers under way on one queue listing (issues/dispatch-queue.ts). */
export function claimersPartition(listing: string): string {
  return `${CLAIMERS_ENTITY}#${listing}`;
}

/** The entry of one claim under way on `listing`. */
export function claimerKey(listing: string, claimerId: string): Key {
  return { pk: claimersPartition(listing), sk: claimerId };
}

/** The count of `agent`'s active dispatches of issues of project `projectId` (claimed while in it). */
export function agentLoadKey(projectId: string, agent: string): Key {
  return { pk: `${AGENT_LOAD_ENTITY}#${projectId}`, sk: encodeAgent(agent) };
}

/** The entry that says when a dispatch's lease ends. */
export function leaseKey(leaseExpiresAt: string, dispatchId: string): Key {
  return { pk: LEASE_PARTITION, sk: `${leaseExpiresAt}#${dispatchId}` };
}

export const LEASE_PARTITION_KEY = LEASE_PARTITION;

export const DISPATCH_LISTINGS = ulidListingScheme("dispatch", HOUR_MS, 8);

export function dispatchSortKey(id: string): string {
  return id.slice("dsp_".length);
}

/** Agent names can be long and free-form: listings name them by a short hash. */
export function agentListing(agent: string): string {
  return `agent=${createHash("sha256").update(agent).digest("hex").slice(0, 32)}`;
}

export function dispatchListings(dispatch: { status: string; issueId: string; agent: string }): string[] {
  return ["all", `status=${dispatch.status}`, `issue=${dispatch.issueId}`, agentListing(dispatch.agent)];
}
