import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { analyticsSeverity, classifyWebhookDelivery, type Severity } from "../../../core/src/signals/rules.js";
import { deliveryOf, fixtureBytes, loadFixture } from "../../helpers/fixtures.js";

function classify(body: unknown, headers: Record<string, string> = {}, rawBody?: Uint8Array) {
  return classifyWebhookDelivery(deliveryOf("analytics", headers, body, rawBody));
}

describe("analyticsSeverity (docs/api.md#fingerprints-and-severity)", () => {
  it.each<[unknown, Severity]>([
    [{ severity: "critical" }, "critical"],
    [{ severity: "low", change_percent: 90 }, "low"],
    [{ severity: "High" }, "high"],
    [{ severity: "urgent", value: 60 }, "critical"],
    [{ severity: 3, value: 1 }, "medium"],
    [{ change_percent: 50 }, "critical"],
    [{ change_percent: -50 }, "critical"],
    [{ change_percent: 49.9 }, "high"],
    [{ change_percent: -25 }, "high"],
    [{ change_percent: 24.99 }, "medium"],
    [{ change_percent: 10 }, "medium"],
    [{ change_percent: 9 }, "medium"],
    [{ change_percent: 0 }, "medium"],
    [{ change_percent: "-42.5" }, "high"],
    [{ change_percent: " 75 " }, "critical"],
    [{ change_percent: 5, value: 90 }, "medium"],
    [{ change_percent: "n/a", value: 90 }, "critical"],
    [{ value: 30 }, "high"],
    [{ value: "55" }, "critical"],
    [{ value: "0x40" }, "medium"],
    [{ value: "Infinity" }, "medium"],
    [{ value: true }, "medium"],
    [{}, "medium"],
    [undefined, "medium"],
  ])("%j is %s", (properties, severity) => {
    expect(analyticsSeverity(properties)).toBe(severity);
  });
});

describe("analytics event names, delivery ids and fingerprints", () => {
  it.each([
    [{ event: { event: "checkout_failed" } }, "checkout_failed"],
    [{ event: "signup_dropped" }, "signup_dropped"],
    [{ name: "conversion_drop" }, "conversion_drop"],
    [{ event: { uuid: "u" }, name: "fallback_name" }, "fallback_name"],
    [{ event: "" }, "unknown"],
    [{}, "unknown"],
    [[1, 2], "unknown"],
  ])("%j is %s", (body, type) => {
    const signal = classify(body);
    expect(signal.type).toBe(type);
    expect(signal.fingerprint).toBe(`analytics:${type}`);
  });

  it("prefers the body's own fingerprint", () => {
    expect(classify({ name: "conversion_drop", fingerprint: "funnel:checkout" }).fingerprint).toBe("funnel:checkout");
    expect(classify({ name: "conversion_drop", fingerprint: "" }).fingerprint).toBe("analytics:conversion_drop");
    expect(classify({ name: "conversion_drop", fingerprint: 7 }).fingerprint).toBe("analytics:conversion_drop");
  });

  it("takes the delivery id from X-Analytics-Delivery, else the event's uuid, else the SHA-256 of the raw body", () => {
    const event = { uuid: "01935a7e-0000-7000-8000-000000000001", event: "e" };
    expect(classify({ event }, { "x-analytics-delivery": "dlv_1" })).toMatchObject({
      deliveryId: "dlv_1",
      headers: { "X-Analytics-Delivery": "dlv_1" },
    });
    expect(classify({ event }).deliveryId).toBe(event.uuid);
    expect(classify({ event }, { "X-Analytics-Delivery": "" }).deliveryId).toBe(event.uuid);
    expect(classify({ name: "e", uuid: "top-level-uuid" }).deliveryId).toBe("top-level-uuid");

    const raw = new TextEncoder().encode('{"name": "e"}');
    const signal = classify({ name: "e" }, {}, raw);
    expect(signal.deliveryId).toBe(createHash("sha256").update(raw).digest("hex"));
    expect(signal.headers).toEqual({});
  });

  it("reads properties from the event object, else the body", () => {
    expect(
      classify({ event: { event: "e", properties: { severity: "low" } }, properties: { severity: "critical" } })
        .severity,
    ).toBe("low");
    expect(classify({ name: "e", properties: { severity: "critical" } }).severity).toBe("critical");
  });
});

describe("analytics titles", () => {
  it.each([
    [{ name: "conversion_drop", properties: { value: 30 } }, "conversion_drop (value 30)"],
    [{ name: "conversion_drop", properties: { change_percent: 12.5 } }, "conversion_drop (+12.5%)"],
    [{ name: "conversion_drop", properties: { change_percent: "-8" } }, "conversion_drop (-8%)"],
    [
      {
        event: {
          event: "$exception",
          properties: { $exception_type: "TypeError", $exception_message: "x is undefined" },
        },
      },
      "$exception: TypeError: x is undefined",
    ],
    [{ event: { event: "$exception", properties: { $exception_message: "boom" } } }, "$exception: boom"],
    [{ name: "signup" }, "signup"],
    [{}, "Analytics event"],
  ])("%j is titled %s", (body, title) => {
    expect(classify(body).title).toBe(title);
  });
});

describe("analytics fixtures", () => {
  it.each<[string, string, string, Severity, string]>([
    [
      "posthog.checkout_failed.json",
      "checkout_failed",
      "01935a7e-4c2b-7d31-9f0e-8a6b2c4d1e57",
      "high",
      "checkout_failed (-42.5%)",
    ],
    [
      "posthog.exception.json",
      "$exception",
      "01935a91-0e6f-7c44-b2a8-5d9e1f3c7a20",
      "medium",
      "$exception: TypeError: Cannot read properties of undefined (reading 'total')",
    ],
  ])("%s", (file, type, uuid, severity, title) => {
    const signal = classify(loadFixture(`analytics/${file}`), {}, fixtureBytes(`analytics/${file}`));
    expect(signal).toEqual({
      type,
      deliveryId: uuid,
      fingerprint: `analytics:${type}`,
      severity,
      title,
      sourceKey: null,
      headers: {},
    });
  });

  it("custom.conversion_drop.json: a minimal custom body, identified by its bytes' digest", () => {
    const raw = fixtureBytes("analytics/custom.conversion_drop.json");
    const signal = classify(loadFixture("analytics/custom.conversion_drop.json"), {}, raw);
    expect(signal).toEqual({
      type: "conversion_drop",
      deliveryId: createHash("sha256").update(raw).digest("hex"),
      fingerprint: "analytics:conversion_drop",
      severity: "high",
      title: "conversion_drop (value 30)",
      sourceKey: null,
      headers: {},
    });
  });

  it("posthog.project_conversion_drop.json: its project id is the source it came from", () => {
    const file = "analytics/posthog.project_conversion_drop.json";
    const signal = classify(loadFixture(file), {}, fixtureBytes(file));
    expect(signal).toMatchObject({ type: "checkout_conversion_drop", severity: "high", sourceKey: "2071" });
  });

  it("takes a project id sent as text, and none that is not an identifier", () => {
    expect(classify({ name: "x", project: { id: "2071" } }).sourceKey).toBe("2071");
    for (const project of [{ id: "has space" }, { id: 1.5 }, { id: {} }, "2071", null]) {
      expect(classify({ name: "x", project }).sourceKey, JSON.stringify(project)).toBeNull();
    }
  });
});
