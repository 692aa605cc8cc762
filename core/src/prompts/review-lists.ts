/**
 * @module prompts/review-lists — the reviews of a prompt, or of every version of a template, a page
 * at a time (docs/api.md#prompts-and-reviews), newest first. Reads only: the templates family lists a template's reviews
 * without carrying what stores and folds them (./review-service.ts).
 */
import { NotFoundError } from "../errors.js";
import { pageOffset } from "../http/pagination.js";
import type { PageQuery } from "../templates/schemas.js";
import type { TemplateReads } from "../templates/template-reads.js";
import type { PromptService } from "./prompt-service.js";
import type { ReviewStore } from "./review-store.js";

export class ReviewLists {
  constructor(
    private readonly store: ReviewStore,
    private readonly prompts: PromptService,
    private readonly templates: TemplateReads,
  ) {}

  /** Reviews of one prompt; 404 for an unknown prompt. */
  async listPromptReviews(promptId: string, query: PageQuery) {
    const prompt = await this.prompts.getPrompt(promptId);
    return this.store.listReviews(`prompt=${prompt.id}`, { offset: pageOffset(query), limit: query.limit });
  }

  /** Reviews of every version of a template (by id or slug); 404 for an unknown template. */
  async listTemplateReviews(templateRef: string, query: PageQuery) {
    const found = await this.templates.resolve(templateRef);
    if (!found) throw new NotFoundError(`Template ${templateRef} not found`);
    return this.store.listReviews(`template=${found.template.id}`, { offset: pageOffset(query), limit: query.limit });
  }
}
