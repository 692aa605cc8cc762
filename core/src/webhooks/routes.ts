/**
 * @module webhooks/routes — the `webhooks` family's handlers (routes in ./api.ts): the three verified receivers (docs/api.md#webhook-verification, docs/api.md#receivers).
 * Each reads the neutral headers or the real provider's own (`webhooks/headers.ts`).
 * Order: secret configured (the app factory, before the body is read) → body size → signature
 * over the raw bytes → media type → JSON → classify → ingest.
 */
import type { Context } from "hono";
import { UnauthorizedError, UnsupportedMediaTypeError, ValidationError } from "../errors.js";
import { type AppEnv, familyModule } from "../http/app.js";
import { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP_MESSAGE } from "../http/body.js";
import type { WebhookProvider } from "../routes.js";
import { webhookSignals } from "../services.js";
import { ingestResponse } from "../signals/respond.js";
import { classifyWebhookDelivery } from "../signals/rules.js";
import { webhookApi } from "./api.js";
import { webhookDeliveryHeaders } from "./headers.js";
import { verifyAnalyticsSecret, verifyCodehostSignature, verifyErrortrackerSignature } from "./verify.js";

/** The one 401 body for a missing or wrong signature or secret. */
export const WEBHOOK_FAILURE_MESSAGE = "Invalid webhook signature";

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** Checks a delivery's signature or secret (from the neutral header or the provider's own) against the raw body. */
const VERIFIERS: Record<WebhookProvider, (raw: Uint8Array, presented: string | undefined, secret: string) => boolean> =
  {
    codehost: verifyCodehostSignature,
    errortracker: verifyErrortrackerSignature,
    analytics: (_raw, presented, secret) => verifyAnalyticsSecret(presented, secret),
  };

export const webhookFamily = familyModule(webhookApi, (deps) => {
  const { config } = deps;
  const signals = webhookSignals(deps);

  const receiver = (provider: WebhookProvider) => async (c: Context<AppEnv>) => {
    const secret = config.webhookSecrets[provider] ?? "";
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const headers = webhookDeliveryHeaders(provider, (name) => c.req.header(name));
    // Two signatures that disagree are refused, whichever of them would verify.
    const presented = headers.signature === "conflict" ? undefined : headers.signature;
    if (!VERIFIERS[provider](raw, presented, secret)) throw new UnauthorizedError(WEBHOOK_FAILURE_MESSAGE);
    const payloadText = payloadTextOf(provider, c.req.header("Content-Type") ?? "", raw);
    const body = parseJsonObject(payloadText);
    const classified = classifyWebhookDelivery({ source: provider, header: headers.header, body, rawBody: raw });
    const result = await signals.ingest({ ...classified, source: provider, manual: false, payloadText });
    return ingestResponse(c, result);
  };

  return {
    "POST /api/signals/codehost": receiver("codehost"),
    "POST /api/signals/errortracker": receiver("errortracker"),
    "POST /api/signals/analytics": receiver("analytics"),
  };
});

/** The payload's JSON text: the body itself, or a form-encoded code-host delivery's `payload` field. */
function payloadTextOf(provider: WebhookProvider, contentType: string, raw: Uint8Array): string {
  const text = decode(raw);
  if (JSON_TYPE.test(contentType)) return text;
  if (provider === "codehost" && FORM_TYPE.test(contentType)) {
    const payload = formField(text, "payload");
    if (payload === undefined) throw new ValidationError("Form-encoded delivery has no payload field");
    return payload;
  }
  throw new UnsupportedMediaTypeError(
    provider === "codehost" ? "application/json or application/x-www-form-urlencoded" : "application/json",
  );
}

function decode(raw: Uint8Array): string {
  try {
    return UTF8.decode(raw);
  } catch {
    throw new ValidationError("Webhook body is not UTF-8 text");
  }
}

/**
 * The first `name` field of a form body. Unlike `URLSearchParams`, percent-encoded bytes that are
 * not UTF-8 (`%C3%28`) or not percent-encoding (`%zz`) are a 400, never U+FFFD.
 */
function formField(text: string, name: string): string | undefined {
  for (const pair of text.split("&")) {
    const [key = "", ...value] = pair.split("=");
    if (formDecode(key) === name) return formDecode(value.join("="));
  }
  return undefined;
}

function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    throw new ValidationError("Form-encoded delivery is not percent-encoded UTF-8");
  }
}

function parseJsonObject(text: string): Record<string, unknown> {
  // Deeper than this, answering or reading the signal back would overflow JSON.stringify's stack.
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw new ValidationError(TOO_DEEP_MESSAGE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError("Malformed JSON body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ValidationError("Webhook body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}
