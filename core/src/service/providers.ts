/** @module service/providers — what `GET /api/providers` lists: each webhook receiver as its provider's setup needs it. */
import { apiBaseUrl, type Config, WEBHOOK_SECRET_VARIABLES } from "../config.js";
import { allRoutes, type WebhookProvider } from "../routes.js";
import { PROVIDER_HEADERS } from "../webhooks/headers.js";
import type { ProviderSetup } from "./schemas.js";

/** Each provider's step-by-step setup guide, as a path in the repository (docs/providers/github.md and its siblings). */
export const PROVIDER_GUIDES: Readonly<Record<WebhookProvider, string>> = {
  codehost: "docs/providers/github.md",
  errortracker: "docs/providers/sentry.md",
  analytics: "docs/providers/posthog.md",
};

/**
 * One entry per webhook receiver of the route table, in its order. Whether a secret is configured is
 * all that is said of it: its value, or any part of it, never leaves the server.
 * @example providerSetups(loadConfig({ env: {} }))[0].receiverUrl // "http://localhost:4242/api/signals/codehost"
 */
export function providerSetups(config: Config): ProviderSetup[] {
  const base = apiBaseUrl(config);
  return allRoutes().flatMap((route): ProviderSetup[] => {
    if (route.auth !== "webhook" || route.provider === undefined) return [];
    const { provider, path } = route;
    const { provider: name, signature, aliases } = PROVIDER_HEADERS[provider];
    const own = aliases[signature];
    return [
      {
        provider,
        name,
        receiverPath: path,
        receiverUrl: `${base}${path}`,
        // Configured exactly when the receiver does not answer 500 for want of it (http/app.ts).
        secret: { variable: WEBHOOK_SECRET_VARIABLES[provider], configured: Boolean(config.webhookSecrets[provider]) },
        signatureHeaders: own === undefined ? [signature] : [signature, own],
        guide: PROVIDER_GUIDES[provider],
      },
    ];
  });
}
