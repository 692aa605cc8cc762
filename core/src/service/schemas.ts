/** @module service/schemas — what `GET /` and `GET /health` answer (API.md 3.7). */
import * as z from "zod/mini";
import { timestamp } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

// Responses (API.md 3.7): the OpenAPI document's schemas; the types the code uses are inferred from them.

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
