/** The receivers' front door: configuration, size, signature, media type and JSON, in that order. */

import { beforeAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { createApp } from "../../core/src/index.js";
import { signCodehost, signErrortracker } from "../../core/src/webhooks/verify.js";
import { AUTH, type TestApp, testApp } from "../helpers/app.js";
import { TEST_WEBHOOK_SECRETS, testConfig } from "../helpers/db.js";
import { analyticsDelivery, codehostDelivery, errortrackerDelivery, issueEvent } from "../helpers/deliveries.js";

const INVALID = { error: "Invalid webhook signature" };

async function signalCount(t: TestApp): Promise<number> {
  const response = await t.app.request("/api/signals", { headers: AUTH });
  return ((await response.json()) as { total: number }).total;
}

describe("webhook receivers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("answer 500 naming the secret when it is not configured, before reading the body", async () => {
    const app = createApp(ALL_FAMILIES, {
      config: {
        ...testConfig({ tableName: t.tableName, endpoint: t.endpoint }),
        webhookSecrets: { codehost: undefined, errortracker: undefined, analytics: undefined },
      },
      db: t.db,
    });
    const oversized = "x".repeat(6 * 1024 * 1024);
    for (const [path, variable] of [
      ["/api/signals/codehost", "CODEHOST_WEBHOOK_SECRET"],
      ["/api/signals/errortracker", "ERRORTRACKER_CLIENT_SECRET"],
      ["/api/signals/analytics", "ANALYTICS_WEBHOOK_SECRET"],
    ] as const) {
      const response = await app.request(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: oversized,
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: `${variable} is not configured` });
    }
  });

  it("refuse missing and wrong signatures with the one 401 body, writing nothing", async () => {
    const before = await signalCount(t);
    const good = codehostDelivery("issues", issueEvent("opened", 1));
    const cases: [string, RequestInit][] = [];
    const { "X-Codehost-Signature-256": _drop, ...unsigned } = good.init.headers;
    cases.push([good.path, { ...good.init, headers: unsigned }]);
    cases.push([
      good.path,
      { ...good.init, headers: { ...good.init.headers, "X-Codehost-Signature-256": "sha256=00" } },
    ]);
    cases.push([
      good.path,
      {
        ...good.init,
        headers: { ...good.init.headers, "X-Codehost-Signature-256": signCodehost(good.init.body, "wrong") },
      },
    ]);
    cases.push([good.path, { ...good.init, body: good.init.body.replace("opened", "openeD") }]);
    const tracker = errortrackerDelivery("issue", { action: "created", data: { issue: { id: "1" } } });
    cases.push([
      tracker.path,
      { ...tracker.init, headers: { ...tracker.init.headers, "X-Errortracker-Hook-Signature": "0".repeat(64) } },
    ]);
    cases.push([tracker.path, { ...tracker.init, body: tracker.init.body.replace("created", "deleted") }]);
    const analytics = analyticsDelivery({ event: "signup" });
    cases.push([
      analytics.path,
      { ...analytics.init, headers: { ...analytics.init.headers, "X-Analytics-Secret": "nope" } },
    ]);
    const { "X-Analytics-Secret": _secret, ...noSecret } = analytics.init.headers;
    cases.push([analytics.path, { ...analytics.init, headers: noSecret }]);
    for (const [path, init] of cases) {
      const response = await t.app.request(path, init);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(INVALID);
    }
    expect(await signalCount(t)).toBe(before);
  });

  it("answer 413 for a body over 5 MiB and accept one just under", async () => {
    const padding = "p".repeat(5 * 1024 * 1024);
    const over = codehostDelivery("push", { ref: "refs/heads/main", padding, repository: { full_name: "o/r" } });
    const response = await t.app.request(over.path, over.init);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body exceeds the 5 MiB limit" });
    const under = codehostDelivery("push", {
      ref: "refs/heads/main",
      padding: padding.slice(0, 5 * 1024 * 1024 - 200),
      repository: { full_name: "o/r" },
    });
    expect((await t.app.request(under.path, under.init)).status).toBe(201);
  });

  it("answer 415 for a verified body of another media type, and 400 for verified non-JSON on every receiver", async () => {
    const delivery = codehostDelivery("ping", {}, { text: "not json at all" });
    const asText = { ...delivery.init, headers: { ...delivery.init.headers, "Content-Type": "text/plain" } };
    const media = await t.app.request(delivery.path, asText);
    expect(media.status).toBe(415);
    expect(await media.json()).toEqual({
      error: "Content-Type must be application/json or application/x-www-form-urlencoded",
    });
    const notJson = await t.app.request(delivery.path, delivery.init);
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "Malformed JSON body" });
    const array = codehostDelivery("ping", [1, 2]);
    expect((await t.app.request(array.path, array.init)).status).toBe(400);
    // The error tracker signs re-serialised JSON; a body that is not JSON verifies on its bytes.
    const tracked = errortrackerDelivery("issue", {});
    const trackedText = (signature: string) => ({
      ...tracked.init,
      headers: { ...tracked.init.headers, "X-Errortracker-Hook-Signature": signature },
      body: "not json at all",
    });
    const malformed = await t.app.request(
      tracked.path,
      trackedText(signErrortracker("not json at all", TEST_WEBHOOK_SECRETS.errortracker)),
    );
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "Malformed JSON body" });
    const forged = await t.app.request(tracked.path, trackedText(signErrortracker("not json at all", "a guess")));
    expect(forged.status).toBe(401);
    const analytics = analyticsDelivery({ event: "x" });
    const analyticsForm = {
      ...analytics.init,
      headers: { ...analytics.init.headers, "Content-Type": "application/x-www-form-urlencoded" },
    };
    expect((await t.app.request(analytics.path, analyticsForm)).status).toBe(415);
  });

  it("accept form-encoded code-host deliveries, verified over the raw form body", async () => {
    const body = issueEvent("opened", 77, "Form & friends ü");
    const delivery = codehostDelivery("issues", body, { form: true });
    const response = await t.app.request(delivery.path, delivery.init);
    expect(response.status).toBe(201);
    const { signal } = ((await response.json()) as { data: { signal: { id: string; title: string } } }).data;
    expect(signal.title).toBe("Form & friends ü");
    const stored = await t.app.request(`/api/signals/${signal.id}`, { headers: AUTH });
    expect(((await stored.json()) as { data: { payload: unknown } }).data.payload).toEqual(body);
    const tampered = { ...delivery.init, body: delivery.init.body.replace("77", "78") };
    expect((await t.app.request(delivery.path, tampered)).status).toBe(401);
  });

  it("name the signal a delivery stored: 201 with its Location and ETag, a redelivery 200 with its ETag alone", async () => {
    const deliveries = [
      codehostDelivery("issues", issueEvent("opened", 91, "Tagged"), { delivery: "tagged-91" }),
      errortrackerDelivery("issue", { action: "created", data: { issue: { id: "91", level: "error", title: "Tag" } } }),
      analyticsDelivery({ event: "tagged", uuid: "tagged-uuid" }),
    ];
    for (const delivery of deliveries) {
      const first = await t.app.request(delivery.path, delivery.init);
      expect(first.status, delivery.path).toBe(201);
      const { signal } = ((await first.json()) as { data: { signal: { id: string } } }).data;
      expect(first.headers.get("location")).toBe(`/api/signals/${signal.id}`);
      expect(first.headers.get("etag")).toBe('"1"');
      const again = await t.app.request(delivery.path, delivery.init);
      expect(again.status, delivery.path).toBe(200);
      expect(((await again.json()) as { data: { signal: { id: string } } }).data.signal.id).toBe(signal.id);
      expect(again.headers.get("etag")).toBe('"1"');
      expect(again.headers.get("location")).toBeNull();
      const stored = await t.app.request(`/api/signals/${signal.id}`, { headers: AUTH });
      expect(stored.headers.get("etag")).toBe('"1"');
    }
  });

  it("verify multi-byte UTF-8 exactly as signed, escaped or literal", async () => {
    for (const text of [
      '{"action":"opened","issue":{"number":9,"title":"Crash 🚀 漢字 é"},"repository":{"full_name":"o/r"}}',
      '{"action":"opened","issue":{"number":9,"title":"Crash \\ud83d\\ude80 \\u6f22\\u5b57 \\u00e9"},"repository":{"full_name":"o/r"}}',
      '{ "action" : "opened", "issue": {"number": 9, "title": "spaced  ✓"}, "repository": {"full_name": "o/r"} }',
    ]) {
      const delivery = codehostDelivery("issues", null, { text });
      const response = await t.app.request(delivery.path, delivery.init);
      expect(response.status).toBe(201);
    }
    const tracker = errortrackerDelivery("issue", null, {
      text: '{ "action": "created", "data": { "issue": { "id": "55", "title": "Ошибка 💥", "level": "error" } } }',
    });
    expect((await t.app.request(tracker.path, tracker.init)).status).toBe(201);
  });

  it("take the secrets they are configured with", async () => {
    const delivery = codehostDelivery("ping", { zen: "x" }, { secret: TEST_WEBHOOK_SECRETS.errortracker });
    expect((await t.app.request(delivery.path, delivery.init)).status).toBe(401);
  });
});
