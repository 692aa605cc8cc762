/** @module prompts/schemas — what prompts and reviews are and what clients may send (docs/api.md#prompts-and-reviews). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { count, nullableText, resourceId, timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";
import { AUTHOR_TYPES, promptArmSchema } from "../templates/schemas.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** An id of `prefix`; `what` names it with its article ("an issue"). */
const id = (prefix: string, what: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`), `must be ${what} id (${prefix}_…)`));
const rating = /* @__PURE__ */ onFirstUse(() =>
  z.int().check(z.gte(1, "must be an integer from 1 to 5"), z.lte(5, "must be an integer from 1 to 5")),
);

/** Where a review came from (docs/api.md#prompts-and-reviews). */
export const REVIEW_SOURCES = ["api", "codehost"] as const;
/** What a person's code-host review of an agent's pull request said. */
export const HUMAN_REVIEW_STATES = ["approved", "changes_requested", "commented"] as const;
export type HumanReviewState = (typeof HUMAN_REVIEW_STATES)[number];

/** `POST /api/prompts/:id/reviews`. */
export const createReviewBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    clarity: rating(),
    completeness: rating(),
    relevance: rating(),
    feedback: z.optional(z.nullable(z.string().check(z.maxLength(10_000, "must be at most 10000 characters")))),
    authorType: z.enum(AUTHOR_TYPES),
    authorName: z.optional(z.nullable(z.string().check(z.maxLength(100, "must be at most 100 characters")))),
  }),
);
export type CreateReviewBody = Output<typeof createReviewBody>;

/** `GET /api/prompts`. */
export const listPromptsQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    templateId: z.optional(id("tpl", "a template")),
    versionId: z.optional(id("ver", "a version")),
    issueId: z.optional(id("iss", "an issue")),
  }),
);
export type ListPromptsQuery = Output<typeof listPromptsQuery>;

// Responses (docs/api.md#prompts-and-reviews): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** The exact text an agent received; immutable but for its review count. */
export const promptSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("prm"),
    issueId: resourceId("iss"),
    dispatchId: z.nullable(resourceId("dsp")),
    templateId: resourceId("tpl"),
    versionId: resourceId("ver"),
    versionNumber: z.int().check(z.gte(1)),
    /** The experiment and arm it was rendered in; null outside experiments. */
    experiment: z.nullable(promptArmSchema()),
    text: z.string(),
    createdAt: timestamp(),
    reviewCount: count(),
  }),
);
export type Prompt = Output<typeof promptSchema>;

export const reviewSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("rev"),
    promptId: resourceId("prm"),
    templateId: resourceId("tpl"),
    versionId: resourceId("ver"),
    versionNumber: z.int().check(z.gte(1)),
    /** Where it came from: `api` (a rated review posted to Kaizen) or `codehost` (a person's review of the agent's pull request). */
    source: z.enum(REVIEW_SOURCES),
    /** A code-host review's verdict; null for rated reviews. */
    state: z.nullable(z.enum(HUMAN_REVIEW_STATES)),
    /** Its place among the version's rated reviews: the order the score took them in (1, 2, …); null for code-host reviews. */
    sequence: z.nullable(z.int().check(z.gte(1))),
    /** The three ratings; null for code-host reviews, which leave the score alone. */
    clarity: z.nullable(rating()),
    completeness: z.nullable(rating()),
    relevance: z.nullable(rating()),
    /** The mean of the three ratings, the value the version's score moves toward; null for code-host reviews. */
    composite: z.nullable(z.number().check(z.gte(1), z.lte(5))),
    feedback: nullableText(),
    authorType: z.enum(AUTHOR_TYPES),
    authorName: nullableText(),
    createdAt: timestamp(),
  }),
);
export type Review = Output<typeof reviewSchema>;
/** A review posted to the API: rated, and numbered among its version's reviews. */
export type RatedReview = Review & {
  source: "api";
  state: null;
  sequence: number;
  clarity: number;
  completeness: number;
  relevance: number;
  composite: number;
};
