/** @module tests/helpers/fixtures — real provider payloads: code-host examples from @octokit/webhooks-examples, and the JSON files under tests/fixtures/. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import type { Delivery, ProviderSource, Severity } from "../../core/src/signals/rules.js";

/** One example delivery of a code-host event. */
export interface CodehostExample {
  /** The `X-Codehost-Event` header value, e.g. `issues`. */
  event: string;
  /** The body's `action`, or null for events without one (`push`, `ping`). */
  action: string | null;
  body: Record<string, unknown>;
  /** A unique, readable test name: `issues.opened #15`. */
  name: string;
}

// The package's main is a 4 MB JSON file; require parses it natively and caches it once per worker.
const require = createRequire(import.meta.url);
const definitions = require("@octokit/webhooks-examples") as WebhookDefinition[];

/**
 * Every example the package holds for each of `events`, in the package's order. Throws for an event
 * without examples, so a renamed event cannot make a test silently check nothing.
 * @example for (const { name, body } of codehostExamples(["issues"])) it(name, () => …)
 */
export function codehostExamples(events: string[]): CodehostExample[] {
  return events.flatMap((event) => {
    const definition = definitions.find((candidate) => candidate.name === event);
    if (!definition || definition.examples.length === 0) throw new Error(`No code-host examples for ${event}`);
    return definition.examples.map((example, index) => {
      const body = example as unknown as Record<string, unknown>;
      const action = typeof body.action === "string" && body.action !== "" ? body.action : null;
      return { event, action, body, name: `${event}${action ? `.${action}` : ""} #${index}` };
    });
  });
}

/** Every code-host event the package has examples of, in its order. */
export function codehostEventNames(): string[] {
  return definitions.filter((definition) => definition.examples.length > 0).map((definition) => definition.name);
}

const FIXTURES = new URL("../fixtures/", import.meta.url);

/** The installation every error-tracker fixture comes from. */
export const FIXTURE_INSTALLATION = "7a485448-a9e2-4c85-8a3c-4f44175783c9";
const TRACKER_ISSUE_TITLE = "TypeError: Cannot read properties of undefined (reading 'total')";

/** An error-tracker fixture and the signal it makes (docs/api.md#fingerprints-and-severity). */
export interface ErrortrackerFixture {
  file: string;
  /** The resource header it is delivered with: the file name up to the first dot. */
  resource: string;
  type: string;
  fingerprint: string;
  severity: Severity;
  title: string;
  /** The tracker project it came from (docs/api.md#project-sources): a slug, or an id where the payload names only that. */
  sourceKey: string | null;
}

function trackerFixture(
  file: string,
  fingerprint: string,
  severity: Severity,
  title: string,
  sourceKey: string | null = "checkout-web",
): ErrortrackerFixture {
  const type = file.slice(0, -".json".length);
  return { file, resource: type.slice(0, type.indexOf(".")), type, fingerprint, severity, title, sourceKey };
}

/** Every file under tests/fixtures/errortracker/, with the signal each makes. */
export const ERRORTRACKER_FIXTURES: readonly ErrortrackerFixture[] = [
  trackerFixture("issue.created.json", "errortracker:issue:4537161830", "high", TRACKER_ISSUE_TITLE),
  trackerFixture("issue.resolved.json", "errortracker:issue:4537161830", "high", TRACKER_ISSUE_TITLE),
  trackerFixture(
    "issue.unresolved.json",
    "errortracker:issue:4498210077",
    "critical",
    "OperationalError: deadlock detected",
    "orders-api",
  ),
  trackerFixture(
    "error.created.json",
    "errortracker:issue:4551902316",
    "critical",
    "Error: read ECONNRESET",
    "4505891",
  ),
  trackerFixture(
    "event_alert.triggered.json",
    "errortracker:issue:4560034419",
    "medium",
    "Payment provider responded after 8.2s",
    "4505872",
  ),
  trackerFixture("metric_alert.critical.json", "errortracker:metric:31", "critical", "Critical: Checkout failure rate"),
  trackerFixture("metric_alert.warning.json", "errortracker:metric:31", "high", "Warning: Checkout failure rate"),
  trackerFixture("metric_alert.resolved.json", "errortracker:metric:31", "low", "Resolved: Checkout failure rate"),
  trackerFixture(
    "installation.created.json",
    `errortracker:installation:${FIXTURE_INSTALLATION}`,
    "low",
    "installation.created on acme",
    null,
  ),
  trackerFixture(
    "installation.deleted.json",
    `errortracker:installation:${FIXTURE_INSTALLATION}`,
    "low",
    "installation.deleted on acme",
    null,
  ),
];

/**
 * A JSON file under tests/fixtures/, parsed.
 * @example const body = loadFixture("errortracker/issue.created.json");
 */
export function loadFixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));
}

/**
 * A file under tests/fixtures/ as raw bytes, as a receiver gets it.
 * @example verifyCodehostSignature(fixtureBytes("analytics/custom.conversion_drop.json"), header, secret)
 */
export function fixtureBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(path, FIXTURES)));
}

/**
 * A verified delivery as the receivers hand it to classifyDelivery: headers looked up in any case;
 * the raw body is the JSON text of `body` unless given.
 * @example classifyDelivery(deliveryOf("codehost", { "X-Codehost-Event": "push" }, body))
 */
export function deliveryOf(
  source: ProviderSource,
  headers: Record<string, string>,
  body: unknown,
  rawBody: Uint8Array = new TextEncoder().encode(JSON.stringify(body)),
): Delivery {
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { source, header: (name) => byName.get(name.toLowerCase()), body, rawBody };
}
