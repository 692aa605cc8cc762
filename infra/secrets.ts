/**
 * @module infra/secrets — the service's secrets, named as core reads them (`Resource.<Name>.value`).
 * Set them with `npx sst secret set <Name> <value> --stage <stage>`.
 */
import { LINKED } from "../core/src/config.js";

/** No placeholder: SST refuses to deploy a stage until the key is set, so `/api/*` never ships without one. */
export const serviceApiKey = new sst.Secret(LINKED.serviceApiKey);
/** The root key before its last rotation, accepted beside it while clients move; "" (none) by default. */
export const serviceApiKeyPrevious = new sst.Secret(LINKED.serviceApiKeyPrevious, "");

// Webhook secrets are optional: SST refuses to deploy a secret with no value, so they default to "",
// which core reads as "not configured" (that receiver answers 500 and writes nothing — closed, not open).
export const codehostWebhookSecret = new sst.Secret(LINKED.codehostWebhookSecret, "");
export const errortrackerClientSecret = new sst.Secret(LINKED.errortrackerClientSecret, "");
export const analyticsWebhookSecret = new sst.Secret(LINKED.analyticsWebhookSecret, "");

export const secrets = [
  serviceApiKey,
  serviceApiKeyPrevious,
  codehostWebhookSecret,
  errortrackerClientSecret,
  analyticsWebhookSecret,
];
