/** @module issues/relation-schemas — relations between issues (docs/api.md#issue-endpoints). */
import * as z from "zod/mini";
import { issueRef, resourceId, timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

export const RELATION_TYPES = ["blocks", "blocked_by", "related", "duplicate"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** `POST /api/issues/:id/relations` body. */
export const createRelationBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    type: z.enum(RELATION_TYPES),
    relatedIssueId: issueRef(),
  }),
);
export type CreateRelationBody = Output<typeof createRelationBody>;

// Responses (docs/api.md#issue-endpoints): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** A relation as seen from one of its issues (`issueId`): `blocked_by` is the far end of `blocks`. */
export const relationSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("rel"),
    type: z.enum(RELATION_TYPES),
    issueId: resourceId("iss"),
    relatedIssueId: resourceId("iss"),
    createdAt: timestamp(),
  }),
);
export type Relation = Output<typeof relationSchema>;
