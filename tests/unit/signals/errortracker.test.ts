import { describe, expect, it } from "vitest";
import { classifyWebhookDelivery, errorSeverity, type Severity } from "../../../core/src/signals/rules.js";
import {
  deliveryOf,
  ERRORTRACKER_FIXTURES,
  fixtureBytes,
  FIXTURE_INSTALLATION as INSTALLATION,
  loadFixture,
} from "../../helpers/fixtures.js";

const REQUEST_ID = "b9f4c7e2-5a1d-4e8b-9c3f-2d6a8e0b1f47";

function classify(resource: string | undefined, body: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { "Request-ID": REQUEST_ID, ...extra };
  if (resource !== undefined) headers["X-Errortracker-Hook-Resource"] = resource;
  return classifyWebhookDelivery(deliveryOf("errortracker", headers, body));
}

describe("errorSeverity (docs/api.md#fingerprints-and-severity)", () => {
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
    const anonymous = classifyWebhookDelivery(
      deliveryOf("errortracker", { "X-Errortracker-Hook-Resource": "issue" }, {}),
    );
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
  it.each(ERRORTRACKER_FIXTURES.map((fixture) => [fixture.file, fixture] as const))("%s", (file, expected) => {
    const body = loadFixture(`errortracker/${file}`);
    const signal = classifyWebhookDelivery(
      deliveryOf(
        "errortracker",
        { "X-Errortracker-Hook-Resource": expected.resource, "Request-ID": REQUEST_ID },
        body,
        fixtureBytes(`errortracker/${file}`),
      ),
    );
    expect(signal).toEqual({
      type: expected.type,
      deliveryId: REQUEST_ID,
      fingerprint: expected.fingerprint,
      severity: expected.severity,
      title: expected.title,
      sourceKey: expected.sourceKey,
      headers: { "X-Errortracker-Hook-Resource": expected.resource, "Request-ID": REQUEST_ID },
    });
  });
});
