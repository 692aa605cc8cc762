/** @module prompts/routes — the `prompts` family (docs/api.md#prompts-and-reviews): prompts as agents received them, and their reviews. */
import type { Context } from "hono";
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { promptService, reviewLists, reviewService } from "../services.js";
import { pageQuery } from "../templates/schemas.js";
import { createReviewBody, listPromptsQuery } from "./schemas.js";

export const promptFamily: FamilyModule<"prompts"> = (deps) => {
  const prompts = promptService(deps);
  const reviewing = reviewService(deps);
  const reviewPages = reviewLists(deps);
  const id = (c: Context) => c.req.param("id") ?? "";
  return {
    "GET /api/prompts": async (c) => {
      const query = parseWith(listPromptsQuery(), c.req.query(), "query");
      const { prompts: page, total } = await prompts.listPrompts(query);
      return listResponse(c, page, total, query);
    },
    "GET /api/prompts/:id": async (c) => itemResponse(c, await prompts.getPrompt(id(c))),
    "GET /api/prompts/:id/reviews": async (c) => {
      const query = parseWith(pageQuery(), c.req.query(), "query");
      const { reviews, total } = await reviewPages.listPromptReviews(id(c), query);
      return listResponse(c, reviews, total, query);
    },
    "POST /api/prompts/:id/reviews": async (c) => {
      const review = await reviewing.review(id(c), parseWith(createReviewBody(), await readJsonBody(c), "body"));
      return itemResponse(c, review, { status: 201 });
    },
  };
};
