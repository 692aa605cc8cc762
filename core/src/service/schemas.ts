/** @module service/schemas — what `GET /`, `GET /health` and `GET /api/providers` answer (docs/api.md#service-health-dashboard-and-docs, docs/api.md#console). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";
import { PROVIDER_SOURCES } from "../signals/schemas.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** `GET /api/providers`: a list like any other, so it takes a page (docs/api.md#pagination), though three fit on one. */
export const providersQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));

// Responses (docs/api.md#service-health-dashboard-and-docs): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** `GET /`: the service and where its docs are. */
export const serviceInfoSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    name: z.literal("kaizen"),
    version: z.string(),
    description: z.string(),
    docs: z.string(),
    openapi: z.string(),
  }),
);
export type ServiceInfo = Output<typeof serviceInfoSchema>;

/** What a health check found. */
export const CHECK_STATUSES = ["ok", "unreachable"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** `GET /health`: the one answer without the `data` envelope; 503 with `degraded` when a check failed. */
export const healthSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    timestamp: timestamp(),
    checks: z.object({ database: z.enum(CHECK_STATUSES) }),
  }),
);
export type Health = Output<typeof healthSchema>;

/**
 * `GET /api/providers`: one webhook provider as its setup needs it — where to send, which secret
 * signs, and whether the server has that secret (never the secret itself).
 */
export const providerSetupSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    provider: z.enum(PROVIDER_SOURCES),
    /** The real provider behind the receiver: GitHub, Sentry, PostHog. */
    name: z.string(),
    receiverPath: z.string(),
    /** The receiver's address as the provider must be given it: the public base URL and the path. */
    receiverUrl: z.string(),
    secret: z.object({ variable: z.string(), configured: z.boolean() }),
    /** The header carrying the signature (or the secret): the neutral name, then the provider's own if it has one. */
    signatureHeaders: z.array(z.string()),
    /** The setup guide, as a path in the repository. */
    guide: z.string(),
  }),
);
export type ProviderSetup = Output<typeof providerSetupSchema>;
