/**
 * @module prompts/api — the `prompts` family's routes (docs/api.md#prompts-and-reviews), each declared once:
 * guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import { pageQuery } from "../templates/schemas.js";
import { createReviewBody, listPromptsQuery } from "./schemas.js";

export const promptApi = {
  "GET /api/prompts": {
    auth: "bearer",
    scope: "read",
    reach: "global",
    query: listPromptsQuery,
    success: { list: "Prompt" },
    doc: TEXT && {
      summary: "List prompts",
      success: "A page",
    },
  },
  "GET /api/prompts/:id": {
    auth: "bearer",
    scope: "read",
    token: "prompt",
    reach: "prompt",
    success: { item: "Prompt" },
    doc: TEXT && {
      summary: "Get a prompt",
      params: { id: "Prompt id (`prm_…`)" },
      success: "The prompt",
    },
  },
  "GET /api/prompts/:id/reviews": {
    auth: "bearer",
    scope: "read",
    reach: "prompt",
    query: pageQuery,
    success: { list: "Review" },
    doc: TEXT && {
      summary: "List a prompt's reviews",
      params: { id: "Prompt id (`prm_…`)" },
      success: "A page",
    },
  },
  "POST /api/prompts/:id/reviews": {
    auth: "bearer",
    scope: "write",
    reach: "prompt",
    token: "prompt",
    body: createReviewBody,
    success: { status: 201, item: "Review", location: false },
    doc: TEXT && {
      summary: "Review a prompt",
      description:
        "Also allowed with the dispatch token of the dispatch this prompt was rendered for, or with the `dispatch` " +
        "key that claimed it, while that dispatch is open.",
      params: { id: "Prompt id (`prm_…`)" },
      success: "The new review",
    },
  },
} satisfies Declarations;
