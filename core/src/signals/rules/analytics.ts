/**
 * @module signals/rules/analytics — event names, webhook delivery ids, fingerprints, severities and titles of
 * product-analytics webhook deliveries (docs/api.md#receivers, docs/api.md#fingerprints-and-severity): a destination's `{event: {...}, person}` or a
 * custom `{name, properties}`.
 */
import { createHash } from "node:crypto";
import {
  type ClassifiedSignal,
  field,
  headerValue,
  isRecord,
  isSeverity,
  numeric,
  presentHeaders,
  type Severity,
  signalTitle,
  sourceName,
  text,
  UNKNOWN,
  type WebhookDelivery,
} from "./index.js";

/** The analytics headers a signal keeps, under their canonical names. */
export const ANALYTICS_HEADERS = ["X-Analytics-Delivery"] as const;

/** The size of a change (or value) from which each severity starts, largest first. */
const SEVERITY_THRESHOLDS: readonly (readonly [number, Severity])[] = [
  [50, "critical"],
  [25, "high"],
  [10, "medium"],
];

/**
 * Classifies a verified analytics webhook delivery: the event name from the body, the webhook delivery id from
 * `X-Analytics-Delivery`, the event's uuid or the body's SHA-256, and the docs/api.md#fingerprints-and-severity severity.
 * @example classifyAnalytics(delivery).fingerprint // "analytics:checkout_failed"
 */
export function classifyAnalytics(delivery: WebhookDelivery): ClassifiedSignal {
  const { body } = delivery;
  const name = analyticsEventName(body);
  const properties = analyticsProperties(body);
  return {
    type: name,
    deliveryId: analyticsDeliveryId(delivery),
    fingerprint: text(field(body, "fingerprint")) ?? `analytics:${name}`,
    severity: analyticsSeverity(properties),
    title: signalTitle(name === UNKNOWN ? undefined : analyticsTitle(name, properties), "Analytics event"),
    sourceKey: sourceName(field(body, "project", "id")) ?? null,
    headers: presentHeaders(delivery, ANALYTICS_HEADERS),
  };
}

/**
 * The event name: `event.event` (a destination's event object), `event` (a string), or `name`.
 * @example analyticsEventName({ name: "conversion_drop" }) // "conversion_drop"
 */
export function analyticsEventName(body: unknown): string {
  return text(field(body, "event", "event")) ?? text(field(body, "event")) ?? text(field(body, "name")) ?? UNKNOWN;
}

/** The event's properties (`event.properties`, else `properties`), or undefined. */
function analyticsProperties(body: unknown): Record<string, unknown> | undefined {
  const properties = field(body, "event", "properties") ?? field(body, "properties");
  return isRecord(properties) ? properties : undefined;
}

/**
 * `X-Analytics-Delivery`, else the event's `uuid`, else the SHA-256 of the raw body: a destination
 * redelivering the same event is then recognised as a duplicate.
 * @example analyticsDeliveryId(delivery) // "0190b5d2-…" or a 64-character hex digest
 */
export function analyticsDeliveryId(delivery: WebhookDelivery): string {
  return (
    headerValue(delivery, "X-Analytics-Delivery") ??
    text(field(delivery.body, "event", "uuid")) ??
    text(field(delivery.body, "uuid")) ??
    createHash("sha256").update(delivery.rawBody).digest("hex")
  );
}

/**
 * `properties.severity` when it names a severity, else by the size of `change_percent` (else
 * `value`), numbers or numeric strings: ≥50 critical, ≥25 high, otherwise medium — an analytics
 * tool sends a webhook because someone asked it to, so it is never mere noise unless it says so.
 * @example analyticsSeverity({ change_percent: -42.5 }) // "high"
 */
export function analyticsSeverity(properties: unknown): Severity {
  const given = field(properties, "severity");
  const named = typeof given === "string" ? given.toLowerCase() : undefined;
  if (isSeverity(named)) return named;
  const size = numeric(field(properties, "change_percent")) ?? numeric(field(properties, "value"));
  if (size === undefined) return "medium";
  const threshold = SEVERITY_THRESHOLDS.find(([floor]) => Math.abs(size) >= floor);
  return threshold?.[1] ?? "medium";
}

/** The event name, with the one property that says what happened when there is an obvious one. */
function analyticsTitle(name: string, properties: Record<string, unknown> | undefined): string {
  const exception = [text(properties?.$exception_type), text(properties?.$exception_message)]
    .filter(Boolean)
    .join(": ");
  if (exception !== "") return `${name}: ${exception}`;
  const change = numeric(properties?.change_percent);
  if (change !== undefined) return `${name} (${change > 0 ? "+" : ""}${change}%)`;
  const value = numeric(properties?.value);
  if (value !== undefined) return `${name} (value ${value})`;
  return name;
}
