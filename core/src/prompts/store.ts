/**
 * @module prompts/store — every DynamoDB expression about prompts and reviews: a prompt with its
 * listing entries and its version's usage count, and a review applied to its version's score at
 * the review count read, so reviews are taken one at a time in the order they commit.
 * Keys: ./keys.ts.
 */
import type { Db, Item, TransactItem } from "../db/client.js";
import { type EntryFilter, ListingIndex } from "../db/listing.js";
import type { TemplateStore } from "../templates/store.js";
import { PROMPT_LISTINGS, promptKey, promptListings, REVIEW_LISTINGS, reviewListings, ulidSortKey } from "./keys.js";
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

/** Index of the version's update in a review's transaction: its failed condition is a lost race. */
export const VERSION_UPDATE_INDEX = 0;

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

  /**
   * The writes that add `review` to its prompt and apply it to its version: the version's count
   * and score are set at the count read (`readCount`), so a concurrent review makes this one
   * read again; with `improvementIssueId`, the version's improvement task is recorded, once.
   */
  prepareReview(
    review: Review,
    applied: { readCount: number; reviewScore: number; improvementIssueId?: string },
  ): TransactItem[] {
    return [
      this.templates.reviewApplication(review.templateId, review.versionNumber, {
        ...applied,
        reviewCount: review.sequence,
      }),
      {
        Update: {
          Key: promptKey(review.promptId),
          UpdateExpression: "ADD #reviewCount :one",
          ConditionExpression: itemExists,
          ExpressionAttributeNames: { "#reviewCount": "reviewCount" },
          ExpressionAttributeValues: { ":one": 1 },
        },
      },
      ...this.reviews.additions(reviewListings(review), ulidSortKey(review.id), { ...review }),
    ];
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
