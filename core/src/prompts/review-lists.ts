/**
 * @module prompts/review-lists — the reviews of a prompt, or of every version of a template, a page
 * at a time (docs/api.md#prompts-and-reviews), newest first. Reads only: the templates family lists a
 * template's reviews without carrying what stores and folds them (./review-service.ts), and each
 * family reads the prompt or template itself (its 404 first), so neither carries the other's reads.
 */
import { pageOffset } from "../http/pagination.js";
import type { PageQuery } from "../templates/schemas.js";
import type { ReviewStore } from "./review-store.js";

export class ReviewLists {
  constructor(private readonly store: ReviewStore) {}

  /** Reviews of the prompt `promptId` names, read before (an unknown one is the caller's 404). */
  ofPrompt(promptId: string, query: PageQuery) {
    return this.store.listReviews(`prompt=${promptId}`, { offset: pageOffset(query), limit: query.limit });
  }

  /** Reviews of every version of the template `templateId` names, read before (by id or slug). */
  ofTemplate(templateId: string, query: PageQuery) {
    return this.store.listReviews(`template=${templateId}`, { offset: pageOffset(query), limit: query.limit });
  }
}
