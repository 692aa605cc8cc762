/**
 * @module bench/deliveries — signed webhook deliveries as each provider sends them (docs/api.md#webhook-verification): path,
 * headers and the exact body bytes, signed with the bench's own secrets.
 */
import { createHash, createHmac, randomUUID } from "node:crypto";

/** The secrets the bench configures (in-process apps and server processes alike). */
export const BENCH_WEBHOOK_SECRETS = {
  codehost: "bench-codehost-secret",
  errortracker: "bench-errortracker-secret",
  analytics: "bench-analytics-secret",
};

export type Provider = keyof typeof BENCH_WEBHOOK_SECRETS;

export interface Delivery {
  provider: Provider;
  path: string;
  headers: Record<string, string>;
  /** The body exactly as sent (and signed). */
  body: string;
}

const hmac = (text: string, secret: string) => createHmac("sha256", secret).update(text).digest("hex");

/**
 * A code-host delivery: JSON body, `X-Codehost-Signature-256` over its exact bytes.
 * @example codehostDelivery("issues", issueEvent("opened", 12))
 */
export function codehostDelivery(event: string, payload: unknown, deliveryId: string = randomUUID()): Delivery {
  const body = JSON.stringify(payload);
  return {
    provider: "codehost",
    path: "/api/signals/codehost",
    headers: {
      "Content-Type": "application/json",
      "X-Codehost-Event": event,
      "X-Codehost-Delivery": deliveryId,
      "X-Codehost-Hook-ID": "4242",
      "X-Codehost-Signature-256": `sha256=${hmac(body, BENCH_WEBHOOK_SECRETS.codehost)}`,
    },
    body,
  };
}

/** An error-tracker `issue` delivery about tracker issue `issueId` (level error: opens an issue). */
export function errortrackerDelivery(issueId: string): Delivery {
  const body = JSON.stringify({
    action: "created",
    data: {
      issue: {
        id: issueId,
        shortId: `SHOP-${issueId}`,
        title: "TypeError: Cannot read properties of undefined (reading 'total')",
        culprit: "checkout/payment.ts in confirmPayment",
        level: "error",
        status: "unresolved",
        project: { slug: "shop-web" },
      },
    },
    actor: { type: "application", name: "errortracker" },
  });
  return {
    provider: "errortracker",
    path: "/api/signals/errortracker",
    headers: {
      "Content-Type": "application/json",
      "X-Errortracker-Hook-Resource": "issue",
      "Request-ID": randomUUID(),
      "X-Errortracker-Hook-Timestamp": String(Math.floor(Date.now() / 1000)),
      "X-Errortracker-Hook-Signature": hmac(body, BENCH_WEBHOOK_SECRETS.errortracker),
    },
    body,
  };
}

/** An analytics delivery: metric `name` dropped by `changePercent` (|30| and more opens an issue). */
export function analyticsDelivery(name: string, changePercent: number): Delivery {
  const event = { uuid: randomUUID(), event: name, properties: { change_percent: changePercent, window: "1h" } };
  return {
    provider: "analytics",
    path: "/api/signals/analytics",
    headers: {
      "Content-Type": "application/json",
      "X-Analytics-Secret": BENCH_WEBHOOK_SECRETS.analytics,
      "X-Analytics-Delivery": randomUUID(),
    },
    body: JSON.stringify({
      event: { ...event, timestamp: new Date().toISOString() },
      person: { distinct_id: "bench" },
    }),
  };
}

/** A code-host `issues` event about repository issue `number` (medium: opens, then groups). */
export function issueEvent(action: string, number: number) {
  return {
    action,
    issue: {
      number,
      title: `Checkout stalls after the payment step (${number})`,
      state: "open",
      body: "Users report the checkout page stalls after the payment step.",
      user: { login: "octocat" },
      labels: [{ name: "bug" }],
    },
    repository: { full_name: "octo-org/shop", private: false },
    sender: { login: "octocat" },
  };
}

/** A code-host `push` of three commits (low: recorded, grouped per repository). */
export function pushEvent(sequence: number) {
  const sha = (seed: string) => createHash("sha1").update(seed).digest("hex");
  return {
    ref: "refs/heads/main",
    before: sha(`${sequence}`),
    after: sha(`${sequence + 1}`),
    repository: { full_name: "octo-org/shop", private: false },
    pusher: { name: "octocat" },
    commits: [0, 1, 2].map((i) => ({
      id: sha(`${sequence}.${i}`),
      message: `Commit ${i} of push ${sequence}`,
      timestamp: "2026-01-01T09:00:00Z",
      author: { name: "Octo Cat", email: "octocat@example.com" },
      modified: ["src/checkout/payment.ts"],
    })),
  };
}
