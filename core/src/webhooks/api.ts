/**
 * @module webhooks/api — the `webhooks` family's routes: the three signed receivers (docs/api.md#webhook-verification),
 * each declared once: guard, body limit, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import { WEBHOOK_BODY_LIMIT_BYTES } from "../routes.js";

export const webhookApi = {
  "POST /api/signals/codehost": {
    auth: "webhook",
    provider: "codehost",
    bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    success: { status: 201, item: "IngestResult" },
    alsoSuccess: { item: "IngestResult" },
    doc: TEXT && {
      summary: "Code-host webhook receiver",
      description:
        "Verified by `X-Codehost-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with " +
        "`CODEHOST_WEBHOOK_SECRET`. Event from `X-Codehost-Event` (+ body `action`), delivery id from " +
        "`X-Codehost-Delivery`. GitHub's own headers are read the same way: `X-Hub-Signature-256`, " +
        "`X-GitHub-Event`, `X-GitHub-Delivery`, `X-GitHub-Hook-ID` (the neutral name wins when both are sent; " +
        "two signatures that differ are a 401). Takes `application/json` or `application/x-www-form-urlencoded` " +
        "(`payload=<json>`).",
      success: "A new delivery was stored",
      alsoSuccess: "A delivery already stored (`duplicate: true`); nothing new was written",
    },
  },
  "POST /api/signals/errortracker": {
    auth: "webhook",
    provider: "errortracker",
    bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    success: { status: 201, item: "IngestResult" },
    alsoSuccess: { item: "IngestResult" },
    doc: TEXT && {
      summary: "Error-tracker webhook receiver",
      description:
        "Verified by `X-Errortracker-Hook-Signature`: the lowercase hex HMAC-SHA256, with " +
        "`ERRORTRACKER_CLIENT_SECRET`, of the body parsed and serialised again (`JSON.stringify`). Event from " +
        "`X-Errortracker-Hook-Resource` (+ body `action`), delivery id from `Request-ID`. Sentry's own headers " +
        "are read the same way: `Sentry-Hook-Signature`, `Sentry-Hook-Resource`, `Sentry-Hook-Timestamp` (the " +
        "neutral name wins when both are sent; two signatures that differ are a 401).",
      success: "A new delivery was stored",
      alsoSuccess: "A delivery already stored (`duplicate: true`); nothing new was written",
    },
  },
  "POST /api/signals/analytics": {
    auth: "webhook",
    provider: "analytics",
    bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    success: { status: 201, item: "IngestResult" },
    alsoSuccess: { item: "IngestResult" },
    doc: TEXT && {
      summary: "Analytics webhook receiver",
      description:
        "Verified by `X-Analytics-Secret`, equal to `ANALYTICS_WEBHOOK_SECRET` (PostHog's webhook destination " +
        "sends the headers it is configured with; it signs nothing of its own). Delivery id from " +
        "`X-Analytics-Delivery`, else the event's `uuid`, else the SHA-256 of the body.",
      success: "A new delivery was stored",
      alsoSuccess: "A delivery already stored (`duplicate: true`); nothing new was written",
    },
  },
} satisfies Declarations;
