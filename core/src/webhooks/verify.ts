/** @module webhooks/verify — signature and secret checks for the three webhook receivers (docs/api.md#webhook-verification); pure, no I/O. */
import { createHmac } from "node:crypto";
import { secretsEqual } from "../http/constant-time.js";

const CODEHOST_SIGNATURE = /^sha256=([0-9a-f]{64})$/i;
// The error tracker signs with a lowercase hex digest and compares it as-is, so we do too.
const ERRORTRACKER_SIGNATURE = /^[0-9a-f]{64}$/;
// `fatal` makes invalid UTF-8 an error instead of U+FFFD: a body that is not text is not JSON.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Checks `X-Codehost-Signature-256`: `sha256=<hex>` (hex in either case), the HMAC-SHA256 of the
 * raw body bytes exactly as received. Missing, malformed and wrong signatures are all `false`.
 * @example verifyCodehostSignature(rawBody, c.req.header("X-Codehost-Signature-256"), config.codehostWebhookSecret)
 */
export function verifyCodehostSignature(rawBody: Uint8Array, header: string | undefined, secret: string): boolean {
  const match = CODEHOST_SIGNATURE.exec(header?.trim() ?? "");
  const expected = hmacHex(rawBody, secret);
  // Compare even when the header is malformed so every failure costs the same.
  const equal = secretsEqual(match?.[1]?.toLowerCase() ?? "", expected);
  return match !== null && equal && secret !== "";
}

/**
 * Checks `X-Errortracker-Hook-Signature`: the body is parsed as JSON and serialised again with
 * `JSON.stringify`, and the header must be the lowercase hex HMAC-SHA256 of that text. The sender
 * signs its own compact serialisation, so whitespace in the delivered body does not matter. A body
 * that is not UTF-8 JSON has no such text: it verifies on its own bytes, so a sender holding the
 * secret learns that its body is malformed (400) rather than that it is not trusted (401). Never throws.
 * @example verifyErrortrackerSignature(rawBody, c.req.header("X-Errortracker-Hook-Signature"), config.errortrackerClientSecret)
 */
export function verifyErrortrackerSignature(rawBody: Uint8Array, header: string | undefined, secret: string): boolean {
  const presented = header?.trim() ?? "";
  const expected = hmacHex(reserialisedJson(rawBody) ?? rawBody, secret);
  const equal = secretsEqual(presented, expected);
  return ERRORTRACKER_SIGNATURE.test(presented) && equal && secret !== "";
}

/**
 * Checks `X-Analytics-Secret`: the header value must equal the configured secret.
 * @example verifyAnalyticsSecret(c.req.header("X-Analytics-Secret"), config.analyticsWebhookSecret)
 */
export function verifyAnalyticsSecret(header: string | undefined, secret: string): boolean {
  const equal = secretsEqual(header ?? "", secret);
  return header !== undefined && equal && secret !== "";
}

/**
 * The `X-Codehost-Signature-256` value a code host sends for `rawBody` (a string is signed as its UTF-8 bytes).
 * @example signCodehost('{"zen":"Keep it logically awesome."}', "s3cret") // "sha256=…"
 */
export function signCodehost(rawBody: Uint8Array | string, secret: string): string {
  return `sha256=${hmacHex(rawBody, secret)}`;
}

/**
 * The `X-Errortracker-Hook-Signature` value for `bodyText`, the text the error tracker signs: the
 * payload as `JSON.stringify` writes it.
 * @example signErrortracker(JSON.stringify(payload), "s3cret") // "5f1c…" (64 lowercase hex characters)
 */
export function signErrortracker(bodyText: string, secret: string): string {
  return hmacHex(bodyText, secret);
}

function hmacHex(data: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(data).digest("hex");
}

/** `JSON.stringify(JSON.parse(body))`, or undefined when the body is not UTF-8 JSON. */
function reserialisedJson(rawBody: Uint8Array): string | undefined {
  try {
    return JSON.stringify(JSON.parse(UTF8.decode(rawBody)));
  } catch {
    return undefined;
  }
}
