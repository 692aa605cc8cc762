/**
 * @module bench/deliveries — signed webhook deliveries as each provider sends them (API.md 2.2):
 * path, headers and the exact body bytes, signed with the bench's own secrets; and the same
 * delivery as the SignalDraft the receiver would hand to `SignalService.ingest`, for seeding and for
 * timing the data layer without HTTP.
 */
import { createHash, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { WebhookProvider } from "../core/src/routes.js";
import { classifyDelivery } from "../core/src/signals/rules.js";
import type { SignalDraft } from "../core/src/signals/service.js";
import { signCodehost, signErrortracker } from "../core/src/webhooks/verify.js";
import { random } from "./seed.js";

/** The secrets the bench configures (in-process app and server process alike). */
export const BENCH_WEBHOOK_SECRETS: Record<WebhookProvider, string> = {
  codehost: "bench-codehost-secret",
  errortracker: "bench-errortracker-secret",
  analytics: "bench-analytics-secret",
};

/** The repository every bench delivery is about. */
export const BENCH_REPO = "octo-org/shop";

export interface Delivery {
  provider: WebhookProvider;
  path: string;
  headers: Record<string, string>;
  /** The body exactly as sent (and signed). */
  body: string;
}

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
      "X-Codehost-Signature-256": signCodehost(body, BENCH_WEBHOOK_SECRETS.codehost),
    },
    body,
  };
}

/** An error-tracker delivery: the signature is over `JSON.stringify` of the payload. */
export function errortrackerDelivery(resource: string, payload: unknown, requestId: string = randomUUID()): Delivery {
  const body = JSON.stringify(payload);
  return {
    provider: "errortracker",
    path: "/api/signals/errortracker",
    headers: {
      "Content-Type": "application/json",
      "X-Errortracker-Hook-Resource": resource,
      "Request-ID": requestId,
      "X-Errortracker-Hook-Timestamp": String(Math.floor(Date.now() / 1000)),
      "X-Errortracker-Hook-Signature": signErrortracker(body, BENCH_WEBHOOK_SECRETS.errortracker),
    },
    body,
  };
}

/** An analytics delivery: the shared secret in a header, the delivery id in another. */
export function analyticsDelivery(payload: unknown, deliveryId: string = randomUUID()): Delivery {
  return {
    provider: "analytics",
    path: "/api/signals/analytics",
    headers: {
      "Content-Type": "application/json",
      "X-Analytics-Secret": BENCH_WEBHOOK_SECRETS.analytics,
      "X-Analytics-Delivery": deliveryId,
    },
    body: JSON.stringify(payload),
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
    repository: { full_name: BENCH_REPO, private: false },
    sender: { login: "octocat" },
  };
}

/** A code-host `push` of `commits` commits (low: recorded, grouped per repository). */
export function pushEvent(sequence: number, commits = 3) {
  return {
    ref: "refs/heads/main",
    before: sha(sequence),
    after: sha(sequence + 1),
    repository: { full_name: BENCH_REPO, private: false },
    pusher: { name: "octocat" },
    commits: Array.from({ length: commits }, (_, i) => commit(`${sequence}.${i}`, `Commit ${i} of push ${sequence}`)),
  };
}

/**
 * A `push` whose JSON is about `bytes` long, made of commits with `message` filler: `compressible`
 * repeats the same sentence (gzip makes little of it); otherwise the filler is seeded random
 * printable text (about 6.5 bits a character), which gzip barely shrinks.
 */
export function largePushEvent(bytes: number, compressible: boolean) {
  const next = random(compressible ? 1 : 2);
  const perCommit = 64 * 1024;
  const count = Math.max(1, Math.floor(bytes / perCommit));
  const filler = (length: number) =>
    compressible
      ? "Refactor the pricing client so checkout retries stay within the payment timeout. ".repeat(length / 80)
      : printable(length, next);
  const event = pushEvent(1, 0);
  event.commits = Array.from({ length: count }, (_, i) => commit(`large.${i}`, filler(perCommit - 400)));
  return event;
}

/** An error-tracker `issue.created` for tracker issue `issueId` (level error: high, opens an issue). */
export function errortrackerIssueCreated(issueId: string) {
  return {
    action: "created",
    installation: { uuid: "7a485448-a9e2-4c85-8a3c-4f44175783c9" },
    data: {
      issue: {
        id: issueId,
        shortId: `SHOP-${issueId}`,
        title: "TypeError: Cannot read properties of undefined (reading 'total')",
        culprit: "checkout/payment.ts in confirmPayment",
        level: "error",
        status: "unresolved",
        count: "12",
        project: { slug: "shop-web" },
      },
    },
    actor: { type: "application", name: "errortracker" },
  };
}

/** An analytics event whose metric dropped by `changePercent` (|30| → high, opens an issue). */
export function analyticsEvent(name: string, changePercent: number) {
  return {
    event: {
      uuid: randomUUID(),
      event: name,
      properties: { change_percent: changePercent, window: "1h", funnel: "checkout" },
      timestamp: new Date().toISOString(),
    },
    person: { distinct_id: "bench" },
  };
}

/** Size of the JSON text and of its gzip (what decides whether chunks are written ahead). */
export function payloadSizes(delivery: Delivery): { bytes: number; gzipped: number } {
  const raw = Buffer.from(delivery.body, "utf8");
  return { bytes: raw.length, gzipped: gzipSync(raw).length };
}

/**
 * The draft the receiver ingests for `delivery`, classified by the same rules.
 * @example await new SignalService(db).ingest(draftOf(codehostDelivery("push", pushEvent(1))));
 */
export function draftOf(delivery: Delivery): SignalDraft {
  const headers = new Headers(delivery.headers);
  const classified = classifyDelivery({
    source: delivery.provider,
    header: (name) => headers.get(name) ?? undefined,
    body: JSON.parse(delivery.body),
    rawBody: Buffer.from(delivery.body, "utf8"),
  });
  return { ...classified, source: delivery.provider, manual: false, payloadText: delivery.body };
}

function commit(id: string, message: string) {
  return {
    id: sha(id),
    message,
    timestamp: "2026-01-01T09:00:00Z",
    author: { name: "Octo Cat", email: "octocat@example.com" },
    added: [],
    removed: [],
    modified: ["src/checkout/payment.ts"],
  };
}

/** A commit-like id, the same for the same seed. */
function sha(seed: number | string): string {
  return createHash("sha1").update(String(seed)).digest("hex");
}

/** `length` printable ASCII characters other than `"` and `\` (so JSON keeps them as they are). */
function printable(length: number, next: () => number): string {
  const codes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    let code = 32 + Math.floor(next() * 95);
    if (code === 34 || code === 92) code += 1;
    codes[i] = code;
  }
  return Buffer.from(codes).toString("latin1");
}
