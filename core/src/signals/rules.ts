/**
 * @module signals/rules — what a signal is (docs/api.md#signals): its provider event type, webhook delivery id,
 * fingerprint, severity and title, and what it means for the issue it is grouped with. Pure, no I/O;
 * the provider rules live in `rules/codehost.ts`, `rules/errortracker.ts` and `rules/analytics.ts`.
 */
import { classifyAnalytics } from "./rules/analytics.js";
import { classifyCodehost } from "./rules/codehost.js";
import { classifyErrortracker } from "./rules/errortracker.js";
import type { ClassifiedSignal, WebhookDelivery } from "./rules/index.js";

export { analyticsSeverity } from "./rules/analytics.js";
export { issueReferences, repositoryName } from "./rules/codehost.js";
export { REVIEW_EVENT_TYPES, type ReviewEvent, reviewEvent } from "./rules/codehost-review.js";
export { errorSeverity } from "./rules/errortracker.js";
export {
  type ClassifiedSignal,
  isSeverity,
  type ProviderSource,
  priorityForSeverity,
  SEVERITIES,
  type Severity,
  severityAtLeast,
  TITLE_MAX,
  type WebhookDelivery as Delivery,
} from "./rules/index.js";

/**
 * Classifies a verified, parsed webhook delivery by its provider's rules.
 * @example
 * const signal = classifyWebhookDelivery({ source: "codehost", header: (name) => c.req.header(name), body, rawBody });
 * signal.fingerprint // "codehost:issue:octo/hello#12"
 */
export function classifyWebhookDelivery(delivery: WebhookDelivery): ClassifiedSignal {
  switch (delivery.source) {
    case "codehost":
      return classifyCodehost(delivery);
    case "errortracker":
      return classifyErrortracker(delivery);
    case "analytics":
      return classifyAnalytics(delivery);
  }
}

/** The events that close or reopen the issue they are grouped with, per source. */
const LIFECYCLE_EFFECTS: ReadonlyMap<string, ReadonlyMap<string, "close" | "reopen">> = new Map([
  [
    "codehost",
    new Map([
      ["issues.closed", "close"],
      ["issues.reopened", "reopen"],
    ]),
  ],
  [
    "errortracker",
    new Map([
      ["issue.resolved", "close"],
      ["metric_alert.resolved", "close"],
      ["issue.unresolved", "reopen"],
    ]),
  ],
]);

/**
 * Lifecycle meaning of an event for an issue it is grouped with (docs/api.md#what-a-signal-does rule 2): `close`
 * moves a `triage`/`backlog` issue to `done`, `reopen` moves a `done` one back to `triage`.
 * @example lifecycleEffect("errortracker", "issue.resolved") // "close"
 */
export function lifecycleEffect(source: string, type: string): "close" | "reopen" | null {
  return LIFECYCLE_EFFECTS.get(source)?.get(type) ?? null;
}

/**
 * A manual signal's fingerprint: the one given, else `manual:<source>:<type>`.
 * @example manualFingerprint("ops", "deploy_failed") // "manual:ops:deploy_failed"
 */
export function manualFingerprint(source: string, type: string, given?: string | null): string {
  return given !== undefined && given !== null && given.trim() !== "" ? given : `manual:${source}:${type}`;
}
