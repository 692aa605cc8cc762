/** @module prompts/schemas — what prompts and reviews are and what clients may send (API.md 3.5). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { AUTHOR_TYPES, type AuthorType } from "../templates/schemas.js";

// Each schema is built in a pure-annotated call, so a bundle keeps only those it uses (http/resource-fields).

const id = (prefix: string, noun: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`), `must be a ${noun} id (${prefix}_…)`));
const rating = /* @__PURE__ */ (() =>
  z.int().check(z.gte(1, "must be an integer from 1 to 5"), z.lte(5, "must be an integer from 1 to 5")))();

/** `POST /api/prompts/:id/reviews`. */
export const createReviewBody = /* @__PURE__ */ (() =>
  z.strictObject({
    clarity: rating,
    completeness: rating,
    relevance: rating,
    feedback: z.optional(z.nullable(z.string().check(z.maxLength(10_000, "must be at most 10000 characters")))),
    authorType: z.enum(AUTHOR_TYPES),
    authorName: z.optional(z.nullable(z.string().check(z.maxLength(100, "must be at most 100 characters")))),
  }))();
export type CreateReviewBody = z.output<typeof createReviewBody>;

/** `GET /api/prompts`. */
export const listPromptsQuery = /* @__PURE__ */ (() =>
  z.strictObject({
    ...paginationQuery,
    templateId: z.optional(id("tpl", "template")),
    versionId: z.optional(id("ver", "version")),
    issueId: z.optional(id("iss", "issue")),
  }))();
export type ListPromptsQuery = z.output<typeof listPromptsQuery>;

/** The exact text an agent received; immutable but for its review count. */
export interface Prompt {
  id: string;
  issueId: string;
  dispatchId: string | null;
  templateId: string;
  versionId: string;
  versionNumber: number;
  text: string;
  createdAt: string;
  reviewCount: number;
}

export interface Review {
  id: string;
  promptId: string;
  templateId: string;
  versionId: string;
  versionNumber: number;
  /** Its place among the version's reviews: the order the score took them in (1, 2, …). */
  sequence: number;
  clarity: number;
  completeness: number;
  relevance: number;
  /** The mean of the three ratings, the value the version's score moves toward. */
  composite: number;
  feedback: string | null;
  authorType: AuthorType;
  authorName: string | null;
  createdAt: string;
}
