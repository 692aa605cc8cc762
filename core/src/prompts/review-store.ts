/**
 * @module prompts/review-store — every DynamoDB expression about reviews: a review's number (one
 * sequence per version), its slot (what a fold of the version reads) and its listing entries.
 * The counts a fold adds to prompts are the prompt store's; the version's tally, the template
 * store's. Keys: ./keys.ts.
 */
import { ConditionFailedError, type Db, type Item, type TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import { type Taken, takeNext } from "../db/sequence.js";
import { storedTimestamp } from "../http/timestamps.js";
import {
  padReviewSequence,
  REVIEW_LISTINGS,
  reviewListings,
  reviewSequenceKey,
  reviewSlotKey,
  reviewSlotPartition,
  ulidSortKey,
} from "./keys.js";
import type { RatedReview, Review } from "./schemas.js";

/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";

/** Index of the slot in a review's transaction: its failed condition means its number was given up. */
export const SLOT_INDEX = 0;

/**
 * What folding one review number into its version needs: the review's prompt and composite (and
 * its feedback, quoted by an improvement task it opens), or a void when the number was given up.
 * `at`: an instant no earlier than the one each lower number was taken at (the review's number was
 * taken then, or the void written), so a missing number's age is known from the slot after it.
 */
export type ReviewSlot =
  | { sequence: number; at: string; void: false; promptId: string; composite: number; feedback: string | null }
  | { sequence: number; at: string; void: true };

export class ReviewStore {
  private readonly reviews: ListingIndex;

  constructor(private readonly db: Db) {
    this.reviews = new ListingIndex(db, REVIEW_LISTINGS);
  }

  /** The next number of a version's reviews, taken at `at` or later (db/sequence.ts): one update, never in a transaction. */
  takeReviewNumber(versionId: string, at: string): Promise<Taken> {
    return takeNext(this.db, reviewSequenceKey(versionId), at);
  }

  /**
   * Makes a version's review numbers start after `last` unless some were taken already: for a
   * version whose `last` reviews were applied one at a time, before reviews took numbers.
   */
  async startReviewNumbersAfter(versionId: string, last: number): Promise<void> {
    try {
      await this.db.update({
        Key: reviewSequenceKey(versionId),
        UpdateExpression: "SET #last = :last",
        ConditionExpression: itemAbsent,
        ExpressionAttributeNames: { "#last": "last" },
        ExpressionAttributeValues: { ":last": last },
      });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  /**
   * The writes that store `review` under its number, taken at `takenAt`: its slot, first (only if
   * the number was not given up meanwhile: {@link SLOT_INDEX}), and its listing entries.
   */
  prepareReview(review: RatedReview, takenAt: string): TransactItem[] {
    return [
      {
        Put: {
          Item: {
            ...reviewSlotKey(review.versionId, review.sequence),
            entity: entityOf("reviewslot"),
            sequence: review.sequence,
            at: takenAt,
            reviewId: review.id,
            promptId: review.promptId,
            composite: review.composite,
            feedback: review.feedback,
          },
          ConditionExpression: itemAbsent,
        },
      },
      ...this.reviews.additions(reviewListings(review), ulidSortKey(review.id), { ...review }),
    ];
  }

  /**
   * The writes that list a person's code-host review of an agent's pull request among its prompt's
   * and template's reviews: no number and no slot, since it has no ratings to fold.
   */
  prepareHumanReview(review: Review): TransactItem[] {
    return this.reviews.additions(reviewListings(review), ulidSortKey(review.id), { ...review });
  }

  /**
   * Gives review number `sequence` of a version up, at `at`: a void in its slot, unless its review
   * is there already. Whether the void was written.
   */
  async voidReviewNumber(versionId: string, sequence: number, at: string): Promise<boolean> {
    try {
      await this.db.put({
        Item: { ...reviewSlotKey(versionId, sequence), entity: entityOf("reviewslot"), sequence, at, void: true },
        ConditionExpression: itemAbsent,
      });
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }

  /** Up to `limit` slots of a version's reviews numbered after `after`, in number order: one query. */
  async reviewSlotsAfter(versionId: string, after: number, limit: number): Promise<ReviewSlot[]> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk > :after",
      ExpressionAttributeValues: { ":pk": reviewSlotPartition(versionId), ":after": padReviewSequence(after) },
      ConsistentRead: true,
      Limit: limit,
    });
    return (out.Items ?? []).map(slotFromItem);
  }

  /** Writes `writes` in one transaction: a review, or a fold with the writes its owners prepared. */
  async transact(writes: TransactItem[]): Promise<void> {
    await this.db.transactWrite(writes);
  }

  /** A page of the reviews of a prompt (`prompt=<id>`) or a template (`template=<id>`), newest first: two reads. */
  async listReviews(
    listing: string,
    page: { offset: number; limit: number },
  ): Promise<{ reviews: Review[]; total: number }> {
    const { entries, total } = await this.reviews.page(listing, { order: "desc", ...page });
    return { reviews: entries.map(reviewFromEntry), total };
  }
}

function slotFromItem(item: Item): ReviewSlot {
  const sequence = Number(item.sequence);
  const at = String(item.at);
  if (item.void === true) return { sequence, at, void: true };
  return {
    sequence,
    at,
    void: false,
    promptId: String(item.promptId),
    composite: Number(item.composite),
    feedback: (item.feedback as string | null | undefined) ?? null,
  };
}

const REVIEW_FIELDS = [
  "id",
  "promptId",
  "templateId",
  "versionId",
  "versionNumber",
  "source",
  "state",
  "sequence",
  "clarity",
  "completeness",
  "relevance",
  "composite",
  "feedback",
  "authorType",
  "authorName",
  "createdAt",
] as const satisfies readonly (keyof Review)[];

function reviewFromEntry(entry: Item): Review {
  const review = Object.fromEntries(REVIEW_FIELDS.map((field) => [field, entry[field] ?? null]));
  // Reviews stored before code-host reviews were kept are rated reviews posted to the API.
  review.source ??= "api";
  // A code-host review is dated by the provider's submitted_at, kept as sent before provider times were normalised.
  review.createdAt = storedTimestamp(review.createdAt);
  for (const field of ["versionNumber", "sequence", "clarity", "completeness", "relevance", "composite"] as const) {
    if (review[field] !== null) review[field] = Number(review[field]);
  }
  // The entry was written from a Review by this store.
  return review as unknown as Review;
}
