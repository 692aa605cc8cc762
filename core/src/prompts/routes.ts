/** @module prompts/routes — the `prompts` family's handlers (docs/api.md#prompts-and-reviews; routes in ./api.ts): prompts as agents received them, and their reviews. */
import type { Context } from "hono";
import { type AppDeps, familyModule } from "../http/app.js";
import type { ReachLookups } from "../http/reach.js";
import { FIRST_ETAG, itemResponse, listResponse } from "../http/respond.js";
import { promptDispatch, promptProject, promptService, reviewLists, reviewService } from "../services.js";
import { promptApi } from "./api.js";

/**
 * Where what the prompt routes reach belongs, for a key narrowed to projects (http/reach): a prompt;
 * and which dispatch it was rendered for, for a dispatch key.
 */
const promptReaches = (deps: AppDeps): ReachLookups => ({
  prompt: promptProject(deps),
  dispatchOf: { prompt: promptDispatch(deps) },
});

export const promptFamily = familyModule(promptApi, promptReaches, (deps) => {
  const prompts = promptService(deps);
  const reviewing = reviewService(deps);
  const reviewPages = reviewLists(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/prompts": async (c, { query }) => {
      const { prompts: page, total } = await prompts.listPrompts(query);
      return listResponse(c, page, total, query);
    },
    // A prompt and a review are written once and never changed (a prompt's reviewCount is kept beside it).
    "GET /api/prompts/:id": async (c) => itemResponse(c, await prompts.getPrompt(id(c)), { etag: FIRST_ETAG }),
    "GET /api/prompts/:id/reviews": async (c, { query }) => {
      const prompt = await prompts.getPrompt(id(c));
      const { reviews, total } = await reviewPages.ofPrompt(prompt.id, query);
      return listResponse(c, reviews, total, query);
    },
    "POST /api/prompts/:id/reviews": async (c, { body }) =>
      itemResponse(c, await reviewing.review(id(c), body), { status: 201, etag: FIRST_ETAG }),
  };
});
