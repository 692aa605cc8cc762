/** @module http/auth — bearer-key authentication for `/api/*` (API.md 2.1). */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { ConfigurationError, UnauthorizedError } from "../errors.js";

/** The one 401 message: missing, malformed and wrong keys are indistinguishable to the caller. */
export const BEARER_FAILURE_MESSAGE = "Missing or malformed Authorization header";

const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

/**
 * Compares two secrets in time independent of their content and length: both are hashed to
 * fixed-length digests first, and the digests are compared with `timingSafeEqual`.
 * @example secretsEqual(presented, configured)
 */
export function secretsEqual(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/**
 * Requires `Authorization: Bearer <key>` equal to `apiKey`. With no key configured every request
 * fails closed with 500, whatever it carries.
 * @example app.get("/api/issues", bearerAuth({ apiKey: config.serviceApiKey }), handler)
 */
export function bearerAuth({ apiKey }: { apiKey: string | undefined }): MiddlewareHandler {
  return async (c, next) => {
    if (apiKey === undefined) throw new ConfigurationError("SERVICE_API_KEY is not configured");
    const match = BEARER.exec(c.req.header("Authorization") ?? "");
    // Compare even when the header is malformed so every failure costs the same.
    const equal = secretsEqual(match?.[1] ?? "", apiKey);
    if (!match || !equal) throw new UnauthorizedError(BEARER_FAILURE_MESSAGE);
    await next();
  };
}

/**
 * A fresh service API key in the format of API.md 2.1.
 * @example generateApiKey() // "kaizen_3f9c…" (64 hex characters)
 */
export function generateApiKey(): string {
  return `kaizen_${randomBytes(32).toString("hex")}`;
}
