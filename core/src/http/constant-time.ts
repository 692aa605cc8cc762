/**
 * @module http/constant-time — comparing secrets in time independent of their content: the bearer
 * check (./auth.ts) and the webhook receivers' checks use it, and so does the CLI's `providers test`
 * (its samples are signed as the receivers check them), which loads nothing else of the HTTP layer.
 */
import { createHash, timingSafeEqual } from "node:crypto";

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
