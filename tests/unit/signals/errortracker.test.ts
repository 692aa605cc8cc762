import { describe, expect, it } from "vitest";
import { classifyDelivery, errorSeverity, type Severity } from "../../../core/src/signals/rules.js";
import { deliveryOf, fixtureBytes, loadFixture } from "../../helpers/fixtures.js";

const REQUEST_ID = "b9f4c7e2-5a1d-4e8b-9c3f-2d6a8e0b1f47";
const INSTALLATION = "7a485448-a9e2-4c85-8a3c-4f44175783c9";

function classify(resource: string | undefined, body: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { "Request-ID": REQUEST_ID, ...extra };
  if (resource !== undefined) headers["X-Errortracker-Hook-Resource"] = resource;
  return classifyDelivery(deliveryOf("errortracker", headers, body));
}

describe("errorSeverity (API.md 3.1.2)", () => {
  it.each<[string | undefined, number, Severity]>([
    ["fatal", 0, "critical"],
    ["fatal", 5000, "critical"],
    ["error", 100, "critical"],
    ["error", 99, "high"],
    ["error", 0, "high"],
    ["warning", 1000, "medium"],
    ["info", 1000, "low"],
    ["debug", 0, "low"],
    ["sample", 0, "low"],
    [undefined, 500, "low"],
    ["FATAL", 0, "critical"],
  ])("%s with %d events is %s", (level, events, severity) => {
    expect(errorSeverity(level, events)).toBe(severity);
  });
});

describe("errortracker event names, delivery ids and headers", () => {
  it.each([
    ["issue", { action: "created" }, "issue.created"],
    ["metric_alert", { action: "critical" }, "metric_alert.critical"],
    ["installation", {}, "installation"],
    [undefined, { action: "created" }, "unknown"],
  ])("%s with %j is %s", (resource, body, type) => {
    expect(classify(resource, body).type).toBe(type);
  });

  it("takes the delivery id from Request-ID, none without it, and keeps the three headers", () => {
    const signal = classify(
      "issue",
      { action: "created" },
      {
        "x-errortracker-hook-timestamp": "1732272117",
        "X-Errortracker-Hook-Signature": "ab",
      },
    );
    expect(signal.deliveryId).toBe(REQUEST_ID);
    expect(signal.headers).toEqual({
      "X-Errortracker-Hook-Resource": "issue",
      "Request-ID": REQUEST_ID,
      "X-Errortracker-Hook-Timestamp": "1732272117",
    });
    const anonymous = classifyDelivery(deliveryOf("errortracker", { "X-Errortracker-Hook-Resource": "issue" }, {}));
    expect(anonymous.deliveryId).toBeNull();
  });
});

describe("errortracker fingerprints and severities", () => {
  it.each<[string, string, unknown, string, Severity]>([
    [
      "an issue",
      "issue",
      { action: "created", data: { issue: { id: "42", level: "error", count: "3" } } },
      "errortracker:issue:42",
      "high",
    ],
    [
      "a busy issue (count as a string)",
      "issue",
      { data: { issue: { id: "42", level: "error", count: "150" } } },
      "errortracker:issue:42",
      "critical",
    ],
    [
      "a busy issue (count as a number)",
      "issue",
      { data: { issue: { id: 42, level: "error", count: 100 } } },
      "errortracker:issue:42",
      "critical",
    ],
    [
      "an issue with a nonsense count",
      "issue",
      { data: { issue: { id: "42", level: "error", count: "lots" } } },
      "errortracker:issue:42",
      "high",
    ],
    [
      "a fatal error",
      "error",
      { action: "created", data: { error: { issue_id: "77", level: "fatal" } } },
      "errortracker:issue:77",
      "critical",
    ],
    [
      "an error without a count",
      "error",
      { action: "created", data: { error: { issue_id: "77", level: "error" } } },
      "errortracker:issue:77",
      "high",
    ],
    [
      "a warning alert",
      "event_alert",
      { action: "triggered", data: { event: { issue_id: "9", level: "warning" } } },
      "errortracker:issue:9",
      "medium",
    ],
    [
      "an info alert",
      "event_alert",
      { action: "triggered", data: { event: { issue_id: "9", level: "info" } } },
      "errortracker:issue:9",
      "low",
    ],
    ["an issue without an id", "issue", { action: "created", data: {} }, "errortracker:issue:unknown", "low"],
    [
      "a critical metric alert",
      "metric_alert",
      { action: "critical", data: { metric_alert: { alert_rule: { id: "7" } } } },
      "errortracker:metric:7",
      "critical",
    ],
    [
      "a warning metric alert",
      "metric_alert",
      { action: "warning", data: { metric_alert: { alert_rule: { id: 7 } } } },
      "errortracker:metric:7",
      "high",
    ],
    [
      "a resolved metric alert",
      "metric_alert",
      { action: "resolved", data: { metric_alert: { alert_rule: { id: "7" } } } },
      "errortracker:metric:7",
      "low",
    ],
    [
      "a metric alert without a rule",
      "metric_alert",
      { action: "critical", data: {} },
      "errortracker:metric:unknown",
      "critical",
    ],
    [
      "an installation",
      "installation",
      { action: "created", installation: { uuid: INSTALLATION } },
      `errortracker:installation:${INSTALLATION}`,
      "low",
    ],
    [
      "a comment",
      "comment",
      { action: "created", installation: { uuid: INSTALLATION } },
      `errortracker:comment:${INSTALLATION}`,
      "low",
    ],
    ["a resource without installation", "seer", { action: "root_cause_started" }, "errortracker:seer:unknown", "low"],
  ])("%s", (_, resource, body, fingerprint, severity) => {
    const signal = classify(resource, body);
    expect(signal.fingerprint).toBe(fingerprint);
    expect(signal.severity).toBe(severity);
  });
});

describe("errortracker fixtures (Sentry's documented webhook shapes)", () => {
  const ISSUE_TITLE = "TypeError: Cannot read properties of undefined (reading 'total')";
  it.each<[string, string, string, Severity, string]>([
    ["issue.created.json", "issue.created", "errortracker:issue:4537161830", "high", ISSUE_TITLE],
    ["issue.resolved.json", "issue.resolved", "errortracker:issue:4537161830", "high", ISSUE_TITLE],
    [
      "issue.unresolved.json",
      "issue.unresolved",
      "errortracker:issue:4498210077",
      "critical",
      "OperationalError: deadlock detected",
    ],
    ["error.created.json", "error.created", "errortracker:issue:4551902316", "critical", "Error: read ECONNRESET"],
    [
      "event_alert.triggered.json",
      "event_alert.triggered",
      "errortracker:issue:4560034419",
      "medium",
      "Payment provider responded after 8.2s",
    ],
    [
      "metric_alert.critical.json",
      "metric_alert.critical",
      "errortracker:metric:31",
      "critical",
      "Critical: Checkout failure rate",
    ],
    [
      "metric_alert.warning.json",
      "metric_alert.warning",
      "errortracker:metric:31",
      "high",
      "Warning: Checkout failure rate",
    ],
    [
      "metric_alert.resolved.json",
      "metric_alert.resolved",
      "errortracker:metric:31",
      "low",
      "Resolved: Checkout failure rate",
    ],
    [
      "installation.created.json",
      "installation.created",
      `errortracker:installation:${INSTALLATION}`,
      "low",
      "installation.created on acme",
    ],
  ])("%s", (file, type, fingerprint, severity, title) => {
    const resource = file.slice(0, file.indexOf("."));
    const body = loadFixture(`errortracker/${file}`);
    const signal = classifyDelivery(
      deliveryOf(
        "errortracker",
        { "X-Errortracker-Hook-Resource": resource, "Request-ID": REQUEST_ID },
        body,
        fixtureBytes(`errortracker/${file}`),
      ),
    );
    expect(signal).toEqual({
      type,
      deliveryId: REQUEST_ID,
      fingerprint,
      severity,
      title,
      headers: { "X-Errortracker-Hook-Resource": resource, "Request-ID": REQUEST_ID },
    });
  });
});

describe("errortracker titles", () => {
  it("falls back from the issue title to the error's and the event's, and to the type", () => {
    expect(classify("error", { action: "created", data: { error: { issue_id: "1", title: "E: boom" } } }).title).toBe(
      "E: boom",
    );
    expect(
      classify("event_alert", { action: "triggered", data: { event: { issue_id: "1", title: "E: bang" } } }).title,
    ).toBe("E: bang");
    expect(classify("issue", { action: "created", data: { issue: { id: "1" } } }).title).toBe("issue.created");
  });

  it("names a metric alert by its rule when the tracker sends no title", () => {
    const body = { action: "critical", data: { metric_alert: { alert_rule: { id: "7", name: "Too many errors" } } } };
    expect(classify("metric_alert", body).title).toBe("Metric alert: Too many errors");
  });
});
