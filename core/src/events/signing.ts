/**
 * @module events/signing — how Kaizen signs what it sends (docs/api.md#outbound-events): `Kaizen-Signature-256:
 * sha256=<hex>`, the HMAC-SHA256 of `"<timestamp>.<raw body>"` keyed with the destination's secret
 * (its whole text, `whsec_` included). While a rotated secret still signs, the header carries both
 * signatures, the new one first, comma-separated; a receiver accepts the event when one matches.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const EVENT_ID_HEADER = "Kaizen-Event-Id";
export const EVENT_TYPE_HEADER = "Kaizen-Event-Type";
export const TIMESTAMP_HEADER = "Kaizen-Timestamp";
export const SIGNATURE_HEADER = "Kaizen-Signature-256";

/** A new signing secret: `whsec_` and 32 random bytes in hex. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("hex")}`;
}

/** `sha256=<hex>` of one secret over `"<timestamp>.<body>"`. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The signature header's value: one signature per secret that signs now, the newest first. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return secrets.map((secret) => signature(secret, timestamp, body)).join(", ");
}

/**
 * Whether `header` holds a signature of `body` at `timestamp` by `secret`: what a receiver checks
 * (the CLI's `kaizen events tail` and the tests use it; docs/events.md shows the same in a few lines).
 */
export function verifySignature(secret: string, timestamp: string | number, body: string, header: string): boolean {
  const expected = Buffer.from(signature(secret, Number(timestamp), body));
  return header.split(",").some((part) => {
    const given = Buffer.from(part.trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
