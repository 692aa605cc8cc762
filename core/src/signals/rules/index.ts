/**
 * @module signals/rules/index — the vocabulary the provider rule modules share: sources, severities,
 * webhook deliveries, classified signals, and readers for untrusted JSON. Pure, no I/O.
 *
 * The rest of Kaizen imports the rules from `signals/rules.ts`, which re-exports this module; the
 * provider modules (`codehost`, `errortracker`, `analytics`) import from here so nothing cycles.
 */

export type ProviderSource = "codehost" | "errortracker" | "analytics";
export type Severity = "low" | "medium" | "high" | "critical";
/** Ascending: each severity outranks the ones before it. */
export const SEVERITIES: readonly Severity[] = ["low", "medium", "high", "critical"];

/** What the receivers know of a webhook delivery once it is verified and parsed. */
export interface WebhookDelivery {
  source: ProviderSource;
  /** Case-insensitive header lookup. */
  header(name: string): string | undefined;
  /** The parsed JSON body (for a form-encoded codehost webhook delivery, the parsed `payload` field). */
  body: unknown;
  /** The raw body bytes as received (used for the analytics fallback webhook delivery id). */
  rawBody: Uint8Array;
}

/** A webhook delivery's provider event type, delivery id, fingerprint, severity, title and headers (docs/api.md#receivers, docs/api.md#fingerprints-and-severity). */
export interface ClassifiedSignal {
  /** The provider event, e.g. `issues.opened`, `check_run.completed`, `issue.created`, `metric_alert.critical`, an analytics event name. */
  type: string;
  deliveryId: string | null;
  fingerprint: string;
  severity: Severity;
  /** A human summary, 1..TITLE_MAX characters. */
  title: string;
  /** The repository, project or product it came from, which a project may own (docs/api.md#project-sources); null when the payload names none. */
  sourceKey: string | null;
  /** The provider headers that matter, under their canonical names, only those present. */
  headers: Record<string, string>;
}

/** What a signal's title (and so a new issue's title) may hold at most. */
export const TITLE_MAX = 500;
/** The provider event type when a webhook delivery does not carry one. */
export const UNKNOWN = "unknown";

/**
 * Whether `value` is one of the four severities.
 * @example isSeverity("high") // true
 */
export function isSeverity(value: unknown): value is Severity {
  return typeof value === "string" && (SEVERITIES as readonly string[]).includes(value);
}

/**
 * The priority a new issue gets from its signal's severity (docs/api.md#fingerprints-and-severity).
 * @example priorityForSeverity("critical") // 1 (urgent)
 */
export function priorityForSeverity(severity: Severity): 1 | 2 | 3 | 4 {
  switch (severity) {
    case "critical":
      return 1;
    case "high":
      return 2;
    case "medium":
      return 3;
    case "low":
      return 4;
  }
}

/**
 * Whether `severity` is `floor` or above.
 * @example severityAtLeast(signal.severity, "medium") // does the signal open an issue on its own?
 */
export function severityAtLeast(severity: Severity, floor: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(floor);
}

/**
 * The value at `path` inside nested JSON objects, or undefined when any step is missing or not an object.
 * @example field(body, "repository", "full_name") // "octo/hello" or undefined
 */
export function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** A JSON object (not an array or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `value` when it is a non-empty string: payloads are untrusted, and an empty name names nothing.
 * @example text(field(body, "action")) ?? null
 */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * An identifier as text: a non-empty string, or an integer (providers send ids either way, e.g. `"7"` and `7`).
 * @example idText(field(body, "alert", "number")) // "10"
 */
export function idText(value: unknown): string | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? String(value) : undefined;
  return text(value);
}

/**
 * A source's name as a payload gives it (a repository, a project slug or id): an identifier of at
 * most 200 printable characters without spaces, else undefined (it names no source a project can own).
 * @example sourceName(field(body, "repository", "full_name")) // "octo/hello"
 */
export function sourceName(value: unknown): string | undefined {
  const name = idText(value);
  return name !== undefined && /^[!-~]{1,200}$/.test(name) ? name : undefined;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * A finite number, or a string that spells one in decimal (providers send counts like `"154"`).
 * @example numeric("-42.5") // -42.5
 */
export function numeric(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || !DECIMAL.test(value.trim())) return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * A header's value, with an empty value treated as absent.
 * @example headerValue(delivery, "X-Codehost-Delivery") ?? null
 */
export function headerValue(delivery: WebhookDelivery, name: string): string | undefined {
  return text(delivery.header(name));
}

/**
 * The named headers the webhook delivery carries, under the names given (the canonical ones).
 * @example presentHeaders(delivery, ["X-Codehost-Event", "X-Codehost-Delivery"]) // { "X-Codehost-Event": "push" }
 */
export function presentHeaders(delivery: WebhookDelivery, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = headerValue(delivery, name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * A title fit for an issue: whitespace runs (newlines included) become one space, an empty
 * candidate gives way to `fallback`, and anything over TITLE_MAX ends in "…".
 * @example signalTitle(field(body, "issue", "title"), `${type} on ${repo}`)
 */
export function signalTitle(candidate: unknown, fallback: string): string {
  const title = oneLine(typeof candidate === "string" ? candidate : "");
  return truncate(title === "" ? oneLine(fallback) : title, TITLE_MAX);
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  let end = max - 1;
  // Never cut between the two halves of a surrogate pair (emoji and the like).
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}…`;
}
