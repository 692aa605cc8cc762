/**
 * @module signals/rules/errortracker — event names, fingerprints, severities and titles of
 * error-tracker webhook deliveries (docs/api.md#receivers, docs/api.md#fingerprints-and-severity): issues, errors, issue alerts and metric alerts.
 */
import {
  type ClassifiedSignal,
  field,
  headerValue,
  idText,
  numeric,
  presentHeaders,
  type Severity,
  signalTitle,
  sourceName,
  text,
  UNKNOWN,
  type WebhookDelivery,
} from "./index.js";

/** The error-tracker headers a signal keeps, under their canonical names. */
export const ERRORTRACKER_HEADERS = [
  "X-Errortracker-Hook-Resource",
  "Request-ID",
  "X-Errortracker-Hook-Timestamp",
] as const;

/** Resources that carry one tracker issue (or an event of one), grouped by the tracker's issue id. */
const ISSUE_RESOURCES: ReadonlySet<string> = new Set(["issue", "error", "event_alert"]);

/** From this many events on, an `error`-level issue is as urgent as a fatal one. */
export const CRITICAL_ERROR_EVENTS = 100;

/**
 * Classifies a verified error-tracker webhook delivery: `X-Errortracker-Hook-Resource` (+ `.action`),
 * `Request-ID`, and the fingerprint and severity of the docs/api.md#fingerprints-and-severity table.
 * @example classifyErrortracker(delivery).fingerprint // "errortracker:issue:1170820242"
 */
export function classifyErrortracker(delivery: WebhookDelivery): ClassifiedSignal {
  const resource = headerValue(delivery, "X-Errortracker-Hook-Resource");
  const action = text(field(delivery.body, "action"));
  const type = resource === undefined ? UNKNOWN : action === undefined ? resource : `${resource}.${action}`;
  const { body } = delivery;
  const data = field(body, "data");
  const verdict =
    resource !== undefined && ISSUE_RESOURCES.has(resource)
      ? issueVerdict(data)
      : resource === "metric_alert"
        ? metricAlertVerdict(action, data)
        : otherResourceVerdict(resource ?? UNKNOWN, type, body);
  return {
    type,
    deliveryId: headerValue(delivery, "Request-ID") ?? null,
    fingerprint: verdict.fingerprint,
    severity: verdict.severity,
    title: signalTitle(verdict.title, type),
    sourceKey: errortrackerProject(data) ?? null,
    headers: presentHeaders(delivery, ERRORTRACKER_HEADERS),
  };
}

/**
 * The tracker project a webhook delivery is about: its issue's project slug, else the project of
 * its error or event (an id), else the first project of its alert rule (a slug).
 * @example errortrackerProject({ issue: { project: { slug: "checkout-web" } } }) // "checkout-web"
 */
export function errortrackerProject(data: unknown): string | undefined {
  const ruleProjects = field(data, "metric_alert", "alert_rule", "projects");
  return (
    sourceName(field(data, "issue", "project", "slug")) ??
    sourceName(field(data, "error", "project")) ??
    sourceName(field(data, "event", "project")) ??
    (Array.isArray(ruleProjects) ? sourceName(ruleProjects[0]) : undefined)
  );
}

interface Verdict {
  fingerprint: string;
  severity: Severity;
  title?: string | undefined;
}

/** An issue, a new error of one, or an alert on one: each names the tracker issue its own way. */
function issueVerdict(data: unknown): Verdict {
  const issueId =
    idText(field(data, "issue", "id")) ??
    idText(field(data, "error", "issue_id")) ??
    idText(field(data, "event", "issue_id")) ??
    UNKNOWN;
  const level =
    text(field(data, "issue", "level")) ?? text(field(data, "error", "level")) ?? text(field(data, "event", "level"));
  const events = numeric(field(data, "issue", "count")) ?? numeric(field(data, "error", "count")) ?? 0;
  return {
    fingerprint: `errortracker:issue:${issueId}`,
    severity: errorSeverity(level, events),
    title:
      text(field(data, "issue", "title")) ?? text(field(data, "error", "title")) ?? text(field(data, "event", "title")),
  };
}

/**
 * Severity from an error-tracker level and event count: `fatal`→critical, `error` with ≥100 events
 * →critical, `error`→high, `warning`→medium, anything else (info, debug, none)→low.
 * @example errorSeverity("error", 154) // "critical"
 */
export function errorSeverity(level: string | undefined, events: number): Severity {
  switch (level?.toLowerCase()) {
    case "fatal":
      return "critical";
    case "error":
      return events >= CRITICAL_ERROR_EVENTS ? "critical" : "high";
    case "warning":
      return "medium";
    default:
      return "low";
  }
}

/** A metric alert, grouped per alert rule; its action is the state the alert entered. */
function metricAlertVerdict(action: string | undefined, data: unknown): Verdict {
  const rule = field(data, "metric_alert", "alert_rule");
  const ruleId = idText(field(rule, "id")) ?? UNKNOWN;
  const ruleName = text(field(rule, "name"));
  return {
    fingerprint: `errortracker:metric:${ruleId}`,
    severity: action === "critical" ? "critical" : action === "warning" ? "high" : "low",
    // The tracker's own title says the state and the rule ("Critical: Too many errors").
    title: text(field(data, "description_title")) ?? (ruleName && `Metric alert: ${ruleName}`),
  };
}

/** Installation, comment and any resource to come: recorded, grouped per installation. */
function otherResourceVerdict(resource: string, type: string, body: unknown): Verdict {
  const installation = text(field(body, "installation", "uuid")) ?? UNKNOWN;
  const organization = text(field(body, "data", "installation", "organization", "slug"));
  return {
    fingerprint: `errortracker:${resource}:${installation}`,
    severity: "low",
    title: organization && `${type} on ${organization}`,
  };
}
