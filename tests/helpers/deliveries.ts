/** Signed webhook deliveries, shaped as each provider sends them. */
import { randomUUID } from "node:crypto";
import { signCodehost, signErrortracker } from "../../core/src/webhooks/verify.js";
import { TEST_WEBHOOK_SECRETS } from "./db.js";

export interface SignedDelivery {
  path: string;
  init: RequestInit & { headers: Record<string, string>; body: string };
}

/** A code-host delivery: JSON (or form-encoded) body, signature over the exact bytes sent. */
export function codehostDelivery(
  event: string,
  body: unknown,
  options: { delivery?: string; form?: boolean; secret?: string; text?: string } = {},
): SignedDelivery {
  const json = options.text ?? JSON.stringify(body);
  const raw = options.form ? `payload=${encodeURIComponent(json)}` : json;
  return {
    path: "/api/signals/codehost",
    init: {
      method: "POST",
      headers: {
        "Content-Type": options.form ? "application/x-www-form-urlencoded" : "application/json",
        "X-Codehost-Event": event,
        "X-Codehost-Delivery": options.delivery ?? randomUUID(),
        "X-Codehost-Hook-ID": "4242",
        "X-Codehost-Signature-256": signCodehost(raw, options.secret ?? TEST_WEBHOOK_SECRETS.codehost),
      },
      body: raw,
    },
  };
}

/** An error-tracker delivery: the signature is over `JSON.stringify` of the payload. */
export function errortrackerDelivery(
  resource: string,
  body: unknown,
  options: { requestId?: string; text?: string } = {},
): SignedDelivery {
  const text = options.text ?? JSON.stringify(body);
  return {
    path: "/api/signals/errortracker",
    init: {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Errortracker-Hook-Resource": resource,
        "Request-ID": options.requestId ?? randomUUID(),
        "X-Errortracker-Hook-Timestamp": String(Math.floor(Date.now() / 1000)),
        "X-Errortracker-Hook-Signature": signErrortracker(
          JSON.stringify(JSON.parse(text)),
          TEST_WEBHOOK_SECRETS.errortracker,
        ),
      },
      body: text,
    },
  };
}

/** An analytics delivery: the shared secret in a header. */
export function analyticsDelivery(body: unknown, options: { delivery?: string } = {}): SignedDelivery {
  return {
    path: "/api/signals/analytics",
    init: {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Analytics-Secret": TEST_WEBHOOK_SECRETS.analytics,
        ...(options.delivery ? { "X-Analytics-Delivery": options.delivery } : {}),
      },
      body: JSON.stringify(body),
    },
  };
}

/** A code-host `issues` event for one repository issue. */
export function issueEvent(action: string, number: number, title = `Issue ${number}`, repo = "octo-org/shop") {
  return {
    action,
    issue: { number, title, state: action === "closed" ? "closed" : "open" },
    repository: { full_name: repo },
  };
}

/** A code-host `pull_request.closed` body (merged unless said otherwise) whose title, body or branch may name Kaizen issues. */
export function mergedPullRequest(
  number: number,
  fields: { title?: string; body?: string | null; branch?: string; merged?: boolean } = {},
  repo = "octo-org/shop",
) {
  return {
    action: "closed",
    number,
    pull_request: {
      number,
      title: fields.title ?? `Pull request ${number}`,
      body: fields.body ?? null,
      merged: fields.merged ?? true,
      merged_at: "2026-11-20T10:00:00Z",
      html_url: `https://codehost.example/${repo}/pull/${number}`,
      head: { ref: fields.branch ?? `feature-${number}` },
    },
    repository: { full_name: repo },
  };
}
