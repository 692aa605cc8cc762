/**
 * @module http/caller-checks — what runs before the handler of an API route (auth `bearer`): its
 * audit record, the bearer check (the service key, an API key's scopes, a dispatch token where the
 * route allows one), the project reach of a narrowed key, and the Idempotency-Key replay where the
 * route takes one (docs/api.md#authentication, docs/api.md#concurrency-and-idempotency). The composition root hands
 * them to the app (core/src/services.ts `createApp`); the webhook receivers' app has no bearer route
 * and is built without them, so their function carries none of this.
 */
import type { AppDeps, CallerChecks } from "./app.js";
import { type AuditTrail, auditTrail } from "./audit.js";
import { bearerAuth, type DispatchTokens, type KeyGrants } from "./auth.js";
import { idempotency } from "./idempotency.js";
import { projectReach } from "./reach.js";

/**
 * The API routes' checks over `deps`: dispatch tokens accepted where the route table allows them
 * when `dispatchTokens` checks them, API keys when `keys` grants them, an audit record per request
 * when `audit` keeps them.
 * @example createHttpApp(families, deps, { callers: callerChecks(deps, { keys }) })
 */
export function callerChecks(
  deps: AppDeps,
  options: { dispatchTokens?: DispatchTokens; keys?: KeyGrants; audit?: AuditTrail } = {},
): CallerChecks {
  const now = deps.clock ?? (() => new Date());
  const { audit } = options;
  return {
    bearer: (spec, declaredStatus, lookups) => [
      ...(audit ? [auditTrail(spec, audit, declaredStatus, now)] : []),
      bearerAuth({
        apiKey: deps.config.serviceApiKey,
        previousApiKey: deps.config.serviceApiKeyPrevious,
        ...(options.dispatchTokens ? { dispatchTokens: options.dispatchTokens } : {}),
        ...(options.keys ? { keys: options.keys } : {}),
        scope: spec.token,
        ...(spec.scope ? { keyScope: spec.scope } : {}),
        ...(lookups.dispatchOf ? { dispatchOf: lookups.dispatchOf } : {}),
        anyCaller: spec.anyCaller === true,
      }),
      projectReach(spec.reach, lookups),
    ],
    idempotent: idempotency({ db: deps.db }),
  };
}
