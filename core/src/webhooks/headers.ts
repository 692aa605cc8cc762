/**
 * @module webhooks/headers — the headers each receiver reads (docs/api.md#webhook-verification): the neutral names,
 * and for each the name the real provider sends (GitHub for the code host, Sentry for the error
 * tracker; PostHog sends the headers its user configures, so the analytics receiver has no other
 * name). The neutral name wins when both are present; the rules and the stored signals only ever
 * see the neutral names. Pure, no I/O.
 */
import { secretsEqual } from "../http/constant-time.js";
import type { WebhookProvider } from "../routes.js";

/** One receiver's headers: the real provider's name, and its own header name for each neutral one. */
export interface ProviderHeaders {
  /** Who sends to this receiver, as the setup guides name it. */
  provider: string;
  /** The neutral header carrying the signature (or, for analytics, the shared secret). */
  signature: string;
  /** Neutral header name → the provider's own name for it. */
  aliases: Readonly<Record<string, string>>;
}

export const PROVIDER_HEADERS: Readonly<Record<WebhookProvider, ProviderHeaders>> = {
  codehost: {
    provider: "GitHub",
    signature: "X-Codehost-Signature-256",
    aliases: {
      "X-Codehost-Signature-256": "X-Hub-Signature-256",
      "X-Codehost-Event": "X-GitHub-Event",
      "X-Codehost-Delivery": "X-GitHub-Delivery",
      "X-Codehost-Hook-ID": "X-GitHub-Hook-ID",
    },
  },
  errortracker: {
    provider: "Sentry",
    signature: "X-Errortracker-Hook-Signature",
    aliases: {
      "X-Errortracker-Hook-Signature": "Sentry-Hook-Signature",
      "X-Errortracker-Hook-Resource": "Sentry-Hook-Resource",
      "X-Errortracker-Hook-Timestamp": "Sentry-Hook-Timestamp",
      // `Request-ID` is Sentry's own name already.
    },
  },
  analytics: {
    provider: "PostHog",
    signature: "X-Analytics-Secret",
    aliases: {},
  },
};

/** A request's header lookup (case-insensitive, as Hono's `c.req.header`). */
export type HeaderLookup = (name: string) => string | undefined;

/** The headers of one webhook delivery as the receiver reads them. */
export interface WebhookDeliveryHeaders {
  /** A header by its neutral name: the neutral header when present and not blank, else the provider's own. */
  header: HeaderLookup;
  /**
   * The signature (or secret) presented, from either header; `conflict` when both are present and
   * differ (a 401, whichever of them would verify).
   */
  signature: string | undefined | "conflict";
}

/**
 * Reads `provider`'s headers of one webhook delivery under their neutral names.
 * @example webhookDeliveryHeaders("codehost", (name) => c.req.header(name)).header("X-Codehost-Event") // from X-GitHub-Event
 */
export function webhookDeliveryHeaders(provider: WebhookProvider, lookup: HeaderLookup): WebhookDeliveryHeaders {
  const { signature, aliases } = PROVIDER_HEADERS[provider];
  const present = (name: string | undefined) => {
    const value = name === undefined ? undefined : lookup(name);
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  const header = (name: string) => present(name) ?? present(aliases[name]);
  const neutral = present(signature);
  const own = present(aliases[signature]);
  if (neutral === undefined || own === undefined) return { header, signature: neutral ?? own };
  return { header, signature: sameSignature(provider, neutral, own) ? neutral : "conflict" };
}

/**
 * Two presented signatures say the same (the code host's hex in either case, as it is verified),
 * compared in constant time like every signature.
 */
function sameSignature(provider: WebhookProvider, neutral: string, own: string): boolean {
  const normal = (value: string) => (provider === "codehost" ? value.trim().toLowerCase() : value.trim());
  return secretsEqual(normal(neutral), normal(own));
}
