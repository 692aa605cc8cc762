/** @module comments/schemas — what a comment on an issue is and what clients may send or ask (docs/api.md#issue-endpoints). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { resourceId, timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

export const AUTHOR_TYPES = ["human", "agent"] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];

export const MAX_BODY_LENGTH = 50_000;
export const MAX_AUTHOR_NAME_LENGTH = 100;

/** Shape of a comment id (`cmt_` + ULID). */
export const COMMENT_ID = /^cmt_[0-9A-HJKMNP-TV-Z]{26}$/;

const commentId = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(COMMENT_ID, "must be a comment id (cmt_…)")),
);

/** 1..max characters with something besides whitespace: a blank comment or name says nothing. */
const nonBlankText = (max: number) =>
  z.string().check(
    z.refine((value) => value.trim() !== "", `must be 1..${max} characters, not all whitespace`),
    z.maxLength(max, `must be 1..${max} characters, not all whitespace`),
  );

/** `POST /api/issues/:id/comments` body. `parentId` makes the comment a reply (threads of any depth). */
export const createCommentBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    body: nonBlankText(MAX_BODY_LENGTH),
    authorName: nonBlankText(MAX_AUTHOR_NAME_LENGTH),
    authorType: z.enum(AUTHOR_TYPES),
    parentId: z.optional(z.nullable(commentId())),
  }),
);
export type CreateCommentBody = Output<typeof createCommentBody>;

/** `GET /api/issues/:id/comments` query; `parentId` narrows the list to one comment's direct replies. */
export const listCommentsQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    parentId: z.optional(commentId()),
  }),
);
export type ListCommentsQuery = Output<typeof listCommentsQuery>;

// Responses (docs/api.md#issue-endpoints): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** A comment as the API shows it. */
export const commentSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("cmt"),
    issueId: resourceId("iss"),
    /** The comment this one replies to (same issue), or null for a top-level comment. */
    parentId: z.nullable(resourceId("cmt")),
    /** Markdown. */
    body: z.string(),
    authorName: z.string(),
    authorType: z.enum(AUTHOR_TYPES),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type Comment = Output<typeof commentSchema>;
