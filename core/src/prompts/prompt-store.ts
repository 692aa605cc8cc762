/**
 * @module prompts/prompt-store — every DynamoDB expression about prompts: a prompt with its listing
 * entries and its version's usage count, and the review counts a fold adds to prompts. Reviews
 * themselves: ./review-store.ts. Keys: ./keys.ts.
 */
import type { Db, Item, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { type EntryFilter, ListingIndex } from "../db/listing-index.js";
import { armClaimAddition } from "../templates/experiment-counts.js";
import { versionUsageAddition } from "../templates/version-counts.js";
import { PROMPT_LISTINGS, promptKey, promptListings, ulidSortKey } from "./keys.js";
import type { Prompt } from "./schemas.js";

const PROMPT_FIELDS = [
  "id",
  "issueId",
  "dispatchId",
  "templateId",
  "versionId",
  "versionNumber",
  "experiment",
  "text",
  "createdAt",
  "reviewCount",
] as const satisfies readonly (keyof Prompt)[];

// Named condition fragments.
/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The item exists. */
const itemExists = "attribute_exists(pk)";

export class PromptStore {
  private readonly prompts: ListingIndex;

  constructor(private readonly db: Db) {
    this.prompts = new ListingIndex(db, PROMPT_LISTINGS);
  }

  /**
   * The writes that record `prompt`: the prompt, its listing entries, and one more use of its
   * version and, in an experiment, one more claim of its arm (spread counts, so a burst of claims
   * on one version does not take turns).
   */
  prepareCreate(prompt: Prompt): TransactItem[] {
    const { experiment } = prompt;
    return [
      {
        Put: {
          Item: { ...promptKey(prompt.id), entity: entityOf("prompt"), ...prompt },
          ConditionExpression: itemAbsent,
        },
      },
      ...this.prompts.additions(promptListings(prompt), ulidSortKey(prompt.id), entryOf(prompt)),
      versionUsageAddition(prompt.templateId, prompt.versionNumber),
      ...(experiment
        ? [armClaimAddition({ templateId: prompt.templateId, experimentId: experiment.id, arm: experiment.arm })]
        : []),
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
   * Each folded review counted on its prompt (`promptIds`: one per review): one update per prompt
   * (reviews never leave a prompt).
   */
  reviewCountAdditions(promptIds: string[]): TransactItem[] {
    const perPrompt = new Map<string, number>();
    for (const promptId of promptIds) perPrompt.set(promptId, (perPrompt.get(promptId) ?? 0) + 1);
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
