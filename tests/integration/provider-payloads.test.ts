/** Real provider payloads through the receivers: each signed one accepted, each one-byte tamper refused. */
import { beforeAll, describe, expect, it } from "vitest";
import { type TestApp, testApp } from "../helpers/app.js";
import { analyticsDelivery, codehostDelivery, errortrackerDelivery } from "../helpers/deliveries.js";
import { codehostExamples, ERRORTRACKER_FIXTURES, loadFixture } from "../helpers/fixtures.js";

const CODEHOST_EVENTS = [
  "issues",
  "pull_request",
  "push",
  "ping",
  "check_run",
  "workflow_run",
  "code_scanning_alert",
  "dependabot_alert",
];
const ANALYTICS_FIXTURES = ["posthog.checkout_failed.json", "posthog.exception.json", "custom.conversion_drop.json"];

/** The same text with one byte changed (a digit or letter swapped for another). */
function tamper(text: string): string {
  const at = text.search(/[0-9a-z]/);
  const replacement = text[at] === "1" ? "2" : "1";
  return `${text.slice(0, at)}${replacement}${text.slice(at + 1)}`;
}

describe("code-host examples", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  const examples = codehostExamples(CODEHOST_EVENTS);

  it("cover every listed event", () => {
    expect(new Set(examples.map((example) => example.event))).toEqual(new Set(CODEHOST_EVENTS));
  });

  it.each(examples.map((example) => [example.name, example] as const))(
    "%s: accepted signed, refused tampered",
    async (_name, example) => {
      const delivery = codehostDelivery(example.event, example.body);
      const response = await t.app.request(delivery.path, delivery.init);
      expect(response.status).toBe(201);
      const { data } = (await response.json()) as { data: { signal: { type: string; fingerprint: string } } };
      const action = (example.body as { action?: unknown }).action;
      expect(data.signal.type).toBe(
        typeof action === "string" && action ? `${example.event}.${action}` : example.event,
      );
      expect(data.signal.fingerprint.startsWith("codehost:")).toBe(true);
      const tampered = await t.app.request(delivery.path, { ...delivery.init, body: tamper(delivery.init.body) });
      expect(tampered.status).toBe(401);
      const formEncoded = codehostDelivery(example.event, example.body, { form: true });
      expect((await t.app.request(formEncoded.path, formEncoded.init)).status).toBe(201);
    },
  );
});

describe("error-tracker payloads", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it.each(ERRORTRACKER_FIXTURES.map(({ resource, file }) => [resource, file]))(
    "%s %s: accepted signed, refused tampered",
    async (resource, file) => {
      const body = loadFixture(`errortracker/${file}`);
      const delivery = errortrackerDelivery(resource, body);
      const response = await t.app.request(delivery.path, delivery.init);
      expect(response.status).toBe(201);
      const { data } = (await response.json()) as { data: { signal: { type: string; fingerprint: string } } };
      expect(data.signal.type).toBe(`${resource}.${(body as { action: string }).action}`);
      expect(data.signal.fingerprint.startsWith("errortracker:")).toBe(true);
      const tampered = await t.app.request(delivery.path, { ...delivery.init, body: tamper(delivery.init.body) });
      expect(tampered.status).toBe(401);
    },
  );
});

describe("analytics payloads", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it.each(ANALYTICS_FIXTURES)("%s: accepted with the secret", async (file) => {
    const body = loadFixture(`analytics/${file}`);
    const response = await t.app.request(analyticsDelivery(body).path, analyticsDelivery(body).init);
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { signal: { fingerprint: string; deliveryId: string } } };
    expect(data.signal.fingerprint.startsWith("analytics:")).toBe(true);
    expect(data.signal.deliveryId).toEqual(expect.any(String));
  });
});
