/**
 * @module prompts/prompt-service — prompts as the record of what agents received, listed and read.
 * A prompt is rendered and recorded at a claim (./claim-prompts.ts); reviews of prompts: ./review-service.ts.
 */
import { NotFoundError } from "../errors.js";
import { pageOffset } from "../http/pagination.js";
import { PROMPT_ID } from "./keys.js";
import type { PromptStore } from "./prompt-store.js";
import type { ListPromptsQuery, Prompt } from "./schemas.js";

export class PromptService {
  constructor(private readonly store: PromptStore) {}

  async getPrompt(id: string): Promise<Prompt> {
    const found = PROMPT_ID.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new NotFoundError(`Prompt ${id} not found`);
    return found;
  }

  async listPrompts(query: ListPromptsQuery) {
    const { page: _page, limit, ...filters } = query;
    return this.store.list(filters, { offset: pageOffset(query), limit });
  }
}
