/**
 * The real providers deliver straight to the receivers (docs/api.md#webhook-verification): GitHub's and Sentry's own headers,
 * signed as they sign (GitHub's signature made by GitHub's own library), beside the neutral ones.
 */
import { createHmac, randomUUID } from "node:crypto";
import { sign } from "@octokit/webhooks-methods";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH, type TestApp, testApp } from "../helpers/app.js";
import { TEST_WEBHOOK_SECRETS } from "../helpers/db.js";
import { codehostEventNames, codehostExamples, ERRORTRACKER_FIXTURES, loadFixture } from "../helpers/fixtures.js";

interface Ingested {
  signal: {
    id: string;
    type: string;
    deliveryId: string | null;
    fingerprint: string;
    severity: string;
    action: string;
    headers: Record<string, string>;
  };
  issue: { id: string } | null;
  duplicate: boolean;
}

/** A delivery as GitHub sends it: its headers, `X-Hub-Signature-256` from @octokit/webhooks-methods. */
async function githubDelivery(event: string, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  return {
    path: "/api/signals/codehost",
    init: {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "GitHub-Hookshot/044aadd",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": randomUUID(),
        "X-GitHub-Hook-ID": "292430182",
        "X-GitHub-Hook-Installation-Target-ID": "79929171",
        "X-GitHub-Hook-Installation-Target-Type": "repository",
        "X-Hub-Signature-256": await sign(TEST_WEBHOOK_SECRETS.codehost, text),
        ...extra,
      },
      body: text,
    },
  };
}

/** A delivery as Sentry sends it: its headers, `Sentry-Hook-Signature` the hex HMAC of `JSON.stringify(body)`. */
function sentryDelivery(resource: string, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  return {
    path: "/api/signals/errortracker",
    init: {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Request-ID": randomUUID(),
        "Sentry-Hook-Resource": resource,
        "Sentry-Hook-Timestamp": String(Math.floor(Date.now() / 1000)),
        "Sentry-Hook-Signature": createHmac("sha256", TEST_WEBHOOK_SECRETS.errortracker).update(text).digest("hex"),
        ...extra,
      },
      body: text,
    },
  };
}

const issueOpened = (number: number) => ({
  action: "opened",
  issue: { number, title: `Checkout fails for issue ${number}`, state: "open" },
  repository: { full_name: "octo-org/shop" },
});

async function send(t: TestApp, delivery: { path: string; init: RequestInit }) {
  const response = await t.app.request(delivery.path, delivery.init);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as { data: Ingested; error?: string } };
}

async function signalTotal(t: TestApp): Promise<number> {
  const response = await t.app.request("/api/signals", { headers: AUTH });
  return ((await response.json()) as { total: number }).total;
}

describe("GitHub's own headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it("open an issue from issues.opened, the signal keeping the headers under their neutral names", async () => {
    const delivery = await githubDelivery("issues", issueOpened(101));
    const { status, body } = await send(t, delivery);
    expect(status).toBe(201);
    const { signal, issue } = body.data;
    expect(signal).toMatchObject({
      type: "issues.opened",
      deliveryId: delivery.init.headers["X-GitHub-Delivery"],
      fingerprint: "codehost:issue:octo-org/shop#101",
      severity: "medium",
      action: "opened",
    });
    expect(signal.headers).toEqual({
      "X-Codehost-Event": "issues",
      "X-Codehost-Delivery": delivery.init.headers["X-GitHub-Delivery"],
      "X-Codehost-Hook-ID": "292430182",
    });
    expect(issue).not.toBeNull();
    // GitHub redelivers with the same X-GitHub-Delivery: a duplicate, nothing new written.
    const before = await signalTotal(t);
    const again = await send(t, delivery);
    expect(again.status).toBe(200);
    expect(again.body.data.duplicate).toBe(true);
    expect(again.body.data.signal.id).toBe(signal.id);
    expect(await signalTotal(t)).toBe(before);
  });

  it("answer a ping, sent when the hook is created, with 2xx and no issue", async () => {
    const ping = codehostExamples(["ping"])[0];
    const { status, body } = await send(t, await githubDelivery("ping", ping?.body));
    expect(status).toBe(201);
    expect(body.data.signal).toMatchObject({ type: "ping", action: "recorded", severity: "low" });
    expect(body.data.issue).toBeNull();
  });

  it("let the neutral name win when both are sent", async () => {
    const delivery = await githubDelivery("push", issueOpened(102), {
      "X-Codehost-Event": "issues",
      "X-Codehost-Delivery": "neutral-delivery-102",
      "X-Codehost-Signature-256": "",
    });
    const { status, body } = await send(t, delivery);
    expect(status).toBe(201);
    expect(body.data.signal).toMatchObject({ type: "issues.opened", deliveryId: "neutral-delivery-102" });
    expect(body.data.signal.headers["X-Codehost-Event"]).toBe("issues");
  });

  it("refuse two signatures that disagree with a 401, writing nothing, whichever would verify", async () => {
    const delivery = await githubDelivery("issues", issueOpened(103));
    const valid = delivery.init.headers["X-Hub-Signature-256"];
    const wrong = await sign("another-secret", delivery.init.body);
    const before = await signalTotal(t);
    for (const [neutral, own] of [
      [valid, wrong],
      [wrong, valid],
    ] as const) {
      const answer = await send(t, {
        path: delivery.path,
        init: {
          ...delivery.init,
          headers: { ...delivery.init.headers, "X-Codehost-Signature-256": neutral, "X-Hub-Signature-256": own },
        },
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: "Invalid webhook signature" });
    }
    expect(await signalTotal(t)).toBe(before);
    // The same signature in both (hex in another case is the same signature) verifies.
    const both = await send(t, {
      path: delivery.path,
      init: {
        ...delivery.init,
        headers: { ...delivery.init.headers, "X-Codehost-Signature-256": `sha256=${valid?.slice(7).toUpperCase()}` },
      },
    });
    expect(both.status).toBe(201);
  });

  it("refuse GitHub's signature made with another secret or over another body", async () => {
    const delivery = await githubDelivery("issues", issueOpened(104));
    const tampered = { ...delivery.init, body: delivery.init.body.replace("104", "105") };
    expect((await send(t, { path: delivery.path, init: tampered })).status).toBe(401);
    const otherSecret = {
      ...delivery.init,
      headers: { ...delivery.init.headers, "X-Hub-Signature-256": await sign("nope", delivery.init.body) },
    };
    expect((await send(t, { path: delivery.path, init: otherSecret })).status).toBe(401);
  });
});

describe("every @octokit/webhooks-examples payload, as GitHub sends it", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  const examples = codehostExamples(codehostEventNames());

  it("cover the package's examples", () => {
    expect(examples.length).toBeGreaterThan(300);
  });

  it.each(examples.map((example) => [example.name, example] as const))("%s answers 2xx", async (_name, example) => {
    const { status, body } = await send(t, await githubDelivery(example.event, example.body));
    expect([200, 201]).toContain(status);
    expect(body.data.signal.type).toBe(example.action ? `${example.event}.${example.action}` : example.event);
    expect(body.data.signal.fingerprint.startsWith("codehost:")).toBe(true);
  });
});

describe("Sentry's own headers, on every error-tracker payload", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });

  it.each(ERRORTRACKER_FIXTURES.map((fixture) => [fixture.file, fixture] as const))(
    "%s: 2xx with its type, fingerprint and severity",
    async (file, expected) => {
      const delivery = sentryDelivery(expected.resource, loadFixture(`errortracker/${file}`));
      const { status, body } = await send(t, delivery);
      expect(status).toBe(201);
      expect(body.data.signal).toMatchObject({
        type: expected.type,
        fingerprint: expected.fingerprint,
        severity: expected.severity,
        deliveryId: delivery.init.headers["Request-ID"],
      });
      expect(body.data.signal.headers).toEqual({
        "X-Errortracker-Hook-Resource": expected.resource,
        "Request-ID": delivery.init.headers["Request-ID"],
        "X-Errortracker-Hook-Timestamp": delivery.init.headers["Sentry-Hook-Timestamp"],
      });
      if (expected.resource === "installation") {
        // Installing (and verifying the installation) or uninstalling the integration opens nothing.
        expect(body.data.signal.action).toBe("recorded");
        expect(body.data.issue).toBeNull();
      }
    },
  );

  it("let the neutral name win when both are sent, and refuse two signatures that disagree", async () => {
    const body = loadFixture("errortracker/issue.created.json");
    const delivery = sentryDelivery("installation", body, { "X-Errortracker-Hook-Resource": "issue" });
    const accepted = await send(t, delivery);
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.signal.type).toBe("issue.created");
    const before = await signalTotal(t);
    const disagreeing = sentryDelivery("issue", body, { "X-Errortracker-Hook-Signature": "0".repeat(64) });
    const refused = await send(t, disagreeing);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: "Invalid webhook signature" });
    expect(await signalTotal(t)).toBe(before);
  });
});
