/**
 * @module access/schemas — what an API key is as the API shows it and what a client sends to make one
 * (docs/security.md): a name, the scopes it holds, the projects it is narrowed to, when it expires.
 */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { nullableTimestamp, resourceId, timestamp, timestampGiven } from "../http/resource-fields.js";
import { SCOPES } from "../routes.js";
import { type Output, onFirstUse } from "../schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** Most projects one key may be narrowed to. */
export const MAX_KEY_PROJECTS = 20;

/** `POST /api/keys`. */
export const createKeyBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    name: z.string().check(z.minLength(1, "must be 1..100 characters"), z.maxLength(100, "must be 1..100 characters")),
    scopes: z.array(z.enum(SCOPES)).check(
      z.minLength(1, `must name at least one of ${SCOPES.join(", ")}`),
      z.refine((scopes) => new Set(scopes).size === scopes.length, "must name each scope at most once"),
    ),
    projectIds: z.optional(
      z.array(z.string().check(z.regex(/^prj_[0-9A-HJKMNP-TV-Z]{26}$/, "must be project ids (prj_…)"))).check(
        z.minLength(1, "must name at least one project, or be left out for every project"),
        z.maxLength(MAX_KEY_PROJECTS, `must name at most ${MAX_KEY_PROJECTS} projects`),
        z.refine((ids) => new Set(ids).size === ids.length, "must name each project at most once"),
      ),
    ),
    expiresAt: z.optional(timestampGiven()),
  }),
);
export type CreateKeyBody = Output<typeof createKeyBody>;

/** `GET /api/keys`: a page, oldest first. */
export const listKeysQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));

/** An API key as the API shows it: never the key, only its first 12 characters. */
export const apiKeySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("key"),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    /** The projects it is narrowed to; null: every project. */
    projectIds: z.nullable(z.array(resourceId("prj"))),
    prefix: z.string(),
    createdAt: timestamp(),
    expiresAt: nullableTimestamp(),
    lastUsedAt: nullableTimestamp(),
    revokedAt: nullableTimestamp(),
  }),
);

/** The answer to a create: the key itself, shown this once. */
export const createdKeySchema = /* @__PURE__ */ onFirstUse(() => z.extend(apiKeySchema(), { key: z.string() }));

/** `GET /api/audit`: a page, newest first, filtered by who acted, on what, how it ended, and from when. */
export const listAuditQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    actorId: z.optional(
      z.string().check(z.minLength(1, "must be 1..100 characters"), z.maxLength(100, "must be 1..100 characters")),
    ),
    targetId: z.optional(
      z.string().check(z.minLength(1, "must be 1..100 characters"), z.maxLength(100, "must be 1..100 characters")),
    ),
    status: z.optional(
      z.pipe(z.string().check(z.regex(/^[1-5][0-9]{2}$/, "must be an HTTP status (100..599)")), z.transform(Number)),
    ),
    since: z.optional(timestampGiven()),
  }),
);
export type ListAuditQuery = Output<typeof listAuditQuery>;

/** One record of the audit log: who acted, how, on what, and how it ended. */
export const auditRecordSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("aud"),
    at: timestamp(),
    /** null: a 401, whose credential named no one. */
    actor: z.nullable(
      z.object({
        kind: z.enum(["root", "key", "dispatch", "automation"]),
        id: z.string(),
        name: z.string(),
      }),
    ),
    method: z.nullable(z.string()),
    path: z.nullable(z.string()),
    action: z.nullable(z.string()),
    targetId: z.nullable(z.string()),
    status: z.nullable(z.int()),
    requestId: z.nullable(z.string()),
    userAgent: z.nullable(z.string()),
  }),
);

/** `GET /api/me`: who the request's key names, and what it may do. */
export const callerSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    kind: z.enum(["root", "key", "dispatch"]),
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    /** The projects it is narrowed to; null: every project. */
    projectIds: z.nullable(z.array(resourceId("prj"))),
  }),
);
