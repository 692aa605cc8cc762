/**
 * @module prompts/keys — items and keys of prompts and their reviews (pure functions, no I/O).
 *
 * Access patterns:
 * - prompt by id ............ GetItem  pk=$kaizen#prompt_1#<id>  sk=$kaizen#prompt_1
 * - prompt lists ............ listings of db/listing-index.ts, entity `prompt`, sort key = the id's ULID,
 *                             buckets of one hour; listings `all`, `template=`, `version=`, `issue=`
 * - review lists ............ listings, entity `review`, sort key = the id's ULID, buckets of one
 *                             hour; listings `prompt=`, `template=`. Reviews never change, so each
 *                             listing entry is the whole review and a page needs no further read.
 * - review numbers .......... UpdateItem  pk=sk=$kaizen#reviewseq_1#<version id> (db/sequence.ts: the
 *                             last number a review of the version took)
 * - review slots ............ Query  pk=$kaizen#reviewslot_1#<version id>  sk > <number, padded>: per
 *                             number, what the version's score needs of its review, or a void (a
 *                             number given up); each written once, folded into the version in order
 */
import { decodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import { keyPrefix } from "../db/item-kinds.js";
import { ulidListingScheme } from "../db/listing-index.js";

const PROMPT_ENTITY = keyPrefix("prompt");
const REVIEW_SEQUENCE_ENTITY = keyPrefix("reviewseq");
const REVIEW_SLOT_ENTITY = keyPrefix("reviewslot");
const HOUR_MS = 3_600_000;

export const PROMPT_ID = /^prm_[0-9A-HJKMNP-TV-Z]{26}$/;

const nextUlid = ulidSource();

/** A new prompt id and the instant it names (its `createdAt`). */
export function newPromptId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `prm_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

export function newReviewId(now = Date.now()): { id: string; createdAt: string } {
  const value = nextUlid(now);
  return { id: `rev_${value}`, createdAt: new Date(decodeTime(value)).toISOString() };
}

export function promptKey(id: string): Key {
  return { pk: `${PROMPT_ENTITY}#${id}`, sk: PROMPT_ENTITY };
}

/** The sequence a version's reviews take their numbers from. */
export function reviewSequenceKey(versionId: string): Key {
  const pk = `${REVIEW_SEQUENCE_ENTITY}#${versionId}`;
  return { pk, sk: pk };
}

/** Review numbers in keys: zero-padded so they sort as numbers. */
export function padReviewSequence(sequence: number): string {
  return String(sequence).padStart(10, "0");
}

/** The partition of a version's review slots. */
export function reviewSlotPartition(versionId: string): string {
  return `${REVIEW_SLOT_ENTITY}#${versionId}`;
}

/** The slot of review number `sequence` of a version. */
export function reviewSlotKey(versionId: string, sequence: number): Key {
  return { pk: reviewSlotPartition(versionId), sk: padReviewSequence(sequence) };
}

/** Sort key of a prompt or review in its listings: the ULID of its id. */
export function ulidSortKey(id: string): string {
  return id.slice(id.indexOf("_") + 1);
}

/** Prompts come with claims, reviews with prompts: an hour per count bucket keeps walks short. */
export const PROMPT_LISTINGS = ulidListingScheme("prompt", HOUR_MS, 8);
export const REVIEW_LISTINGS = ulidListingScheme("review", HOUR_MS, 8);

export function promptListings(prompt: { templateId: string; versionId: string; issueId: string }): string[] {
  return ["all", `template=${prompt.templateId}`, `version=${prompt.versionId}`, `issue=${prompt.issueId}`];
}

export function reviewListings(review: { promptId: string; templateId: string }): string[] {
  return [`prompt=${review.promptId}`, `template=${review.templateId}`];
}
