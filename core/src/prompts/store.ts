/**
 * @module prompts/store — every DynamoDB expression about prompts and reviews: a prompt with its
 * listing entries and its version's usage count; a review with its number, its slot and its
 * listing entries; and the counts a fold of reviews adds to their prompts. Keys: ./keys.ts.
 */
import { ConditionFailedError, type Db, type Item, type TransactItem } from "../db/client.js";
import { type EntryFilter, ListingIndex } from "../db/listing.js";
import { type Taken, takeNext } from "../db/sequence.js";
import type { TemplateStore } from "../templates/store.js";
import {
  PROMPT_LISTINGS,
  padReviewSequence,
  promptKey,
  promptListings,
  REVIEW_LISTINGS,
  reviewListings,
  reviewSequenceKey,
  reviewSlotKey,
  reviewSlotPartition,
  ulidSortKey,
} from "./keys.js";
import type { Prompt, Review } from "./schemas.js";

const PROMPT_FIELDS = [
  "id",
  "issueId",
  "dispatchId",
  "templateId",
  "versionId",
  "versionNumber",
  "text",
  "createdAt",
  "reviewCount",
] as const satisfies readonly (keyof Prompt)[];

// Named condition fragments.
/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The item exists. */
const itemExists = "attribute_exists(pk)";

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

export class PromptStore {
  private readonly prompts: ListingIndex;
  private readonly reviews: ListingIndex;

  constructor(
    private readonly db: Db,
    private readonly templates: TemplateStore,
  ) {
    this.prompts = new ListingIndex(db, PROMPT_LISTINGS);
    this.reviews = new ListingIndex(db, REVIEW_LISTINGS);
  }

  /**
   * The writes that record `prompt`: the prompt, its listing entries, and one more use of its
   * version (a spread count, so a burst of claims on one version does not take turns).
   */
  prepareCreate(prompt: Prompt): TransactItem[] {
    return [
      { Put: { Item: { ...promptKey(prompt.id), entity: "prompt", ...prompt }, ConditionExpression: itemAbsent } },
      ...this.prompts.additions(promptListings(prompt), ulidSortKey(prompt.id), entryOf(prompt)),
      this.templates.usageAddition(prompt.templateId, prompt.versionNumber),
    ];
  }

  async get(id: string): Promise<Prompt | undefined> {
    const item = await this.db.get(promptKey(id), { consistent: true });
    return item ? promptFromItem(item) : undefined;
  }

  /** A page of prompts, newest first, from the narrowest listing the filters name (the rest walk it). */
  async list(
    filters: { templateId?: string; versionId?: string; issueId?: string },
    page: { offset: number; limit: number },
  ) {
    const named: [string, string][] = [
      ["issueId", filters.issueId ? `issue=${filters.issueId}` : ""],
      ["versionId", filters.versionId ? `version=${filters.versionId}` : ""],
      ["templateId", filters.templateId ? `template=${filters.templateId}` : ""],
    ];
    const given = named.filter(([, listing]) => listing !== "");
    const [first, ...rest] = given;
    const listing = first?.[1] ?? "all";
    const entryFilters: EntryFilter[] = rest.map(([attribute]) => ({
      attribute,
      value: String(filters[attribute as keyof typeof filters]),
      match: "equals",
    }));
    const request = { order: "desc" as const, ...page };
    const { entries, total } =
      entryFilters.length === 0
        ? await this.prompts.page(listing, request)
        : await this.prompts.walk(listing, entryFilters, request);
    const items = await this.db.batchGet(
      entries.map((entry) => promptKey(String(entry.id))),
      { consistent: true },
    );
    return { prompts: items.map(promptFromItem), total };
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
  prepareReview(review: Review, takenAt: string): TransactItem[] {
    return [
      {
        Put: {
          Item: {
            ...reviewSlotKey(review.versionId, review.sequence),
            entity: "reviewslot",
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
   * Gives review number `sequence` of a version up, at `at`: a void in its slot, unless its review
   * is there already. Whether the void was written.
   */
  async voidReviewNumber(versionId: string, sequence: number, at: string): Promise<boolean> {
    try {
      await this.db.put({
        Item: { ...reviewSlotKey(versionId, sequence), entity: "reviewslot", sequence, at, void: true },
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

  /** Each folded review counted on its prompt: one update per prompt (reviews never leave a prompt). */
  reviewCountAdditions(folded: ReviewSlot[]): TransactItem[] {
    const perPrompt = new Map<string, number>();
    for (const slot of folded) if (!slot.void) perPrompt.set(slot.promptId, (perPrompt.get(slot.promptId) ?? 0) + 1);
    return [...perPrompt].map(([promptId, count]) => ({
      Update: {
        Key: promptKey(promptId),
        UpdateExpression: "ADD #reviewCount :count",
        ConditionExpression: itemExists,
        ExpressionAttributeNames: { "#reviewCount": "reviewCount" },
        ExpressionAttributeValues: { ":count": count },
      },
    }));
  }

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

/** What a prompt's listing entries keep: the fields combined filters check. */
function entryOf(prompt: Prompt): Item {
  return { id: prompt.id, templateId: prompt.templateId, versionId: prompt.versionId, issueId: prompt.issueId };
}

function promptFromItem(item: Item): Prompt {
  // The item was written from a Prompt by this store; its fields are Prompt's.
  const prompt = Object.fromEntries(PROMPT_FIELDS.map((field) => [field, item[field] ?? null])) as unknown as Prompt;
  return { ...prompt, versionNumber: Number(item.versionNumber), reviewCount: Number(item.reviewCount ?? 0) };
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
  for (const field of ["versionNumber", "sequence", "clarity", "completeness", "relevance", "composite"] as const) {
    review[field] = Number(review[field]);
  }
  // The entry was written from a Review by this store.
  return review as unknown as Review;
}
