/** @module templates/partial-schemas — what partials are and what clients may send (docs/api.md#partials). */
import * as z from "zod/mini";
import { nullableText, timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";
import { PARTIAL_NAME } from "./keys.js";
import { MAX_CONTENT } from "./schemas.js";

const partialName = /* @__PURE__ */ onFirstUse(() =>
  z.string().check(z.regex(PARTIAL_NAME, "must be 1..64 of a-z, 0-9, _ and - (and not __proto__)")),
);
const partialContent = /* @__PURE__ */ onFirstUse(() =>
  z
    .string()
    .check(z.minLength(1, "must not be empty"), z.maxLength(MAX_CONTENT, `must be at most ${MAX_CONTENT} characters`)),
);
const description = /* @__PURE__ */ onFirstUse(() =>
  z.nullable(z.string().check(z.maxLength(10_000, "must be at most 10000 characters"))),
);

/** `POST /api/partials`. */
export const createPartialBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ name: partialName(), content: partialContent(), description: z.optional(description()) }),
);
export type CreatePartialBody = Output<typeof createPartialBody>;

/** `PATCH /api/partials/:name`: content and description; the name is the partial's id and stays. */
export const patchPartialBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({ content: z.optional(partialContent()), description: z.optional(description()) }),
);
export type PatchPartialBody = Output<typeof patchPartialBody>;

/** A partial as the API shows it. */
export const partialSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    name: z.string(),
    content: z.string(),
    description: nullableText(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);
export type TemplatePartial = Output<typeof partialSchema>;
