/**
 * @module client/cli/provider-samples — the sample webhook deliveries `kaizen providers test` sends: each
 * provider's documented body shape with made-up values, under the provider's own headers, signed as
 * the provider signs it.
 */
import { WEBHOOK_SECRET_VARIABLES } from "../../core/src/config.js";
import { type ReceiverPath, receiverPath, type WebhookProvider } from "../../core/src/routes.js";
import { PROVIDER_HEADERS } from "../../core/src/webhooks/headers.js";
import { signCodehost, signErrortracker } from "../../core/src/webhooks/verify.js";

/** The providers a test webhook delivery imitates, as people name them on the command line. */
export const PROVIDER_NAMES = ["github", "sentry", "posthog"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

function providerOf(receiver: WebhookProvider) {
  return { title: PROVIDER_HEADERS[receiver].provider, receiver, secretVariable: WEBHOOK_SECRET_VARIABLES[receiver] };
}

/** Who each provider is, the receiver it sends to, and the variable its secret has on the server. */
export const PROVIDERS: Readonly<
  Record<ProviderName, { title: string; receiver: WebhookProvider; secretVariable: string }>
> = {
  github: providerOf("codehost"),
  sentry: providerOf("errortracker"),
  posthog: providerOf("analytics"),
};

/**
 * The code-host issue number `--open` reports: always the same, so repeated tests join one Kaizen
 * issue instead of filling triage with copies.
 */
export const SAMPLE_ISSUE_NUMBER = 1;
/** The error tracker's issue id `--open` reports, fixed for the same reason. */
const SAMPLE_TRACKER_ISSUE_ID = "4900000001";

const REPOSITORY = {
  id: 812_345_601,
  name: "setup-check",
  full_name: "kaizen-test/setup-check",
  private: true,
  owner: { login: "kaizen-test", id: 190_000_001, type: "Organization" },
  html_url: "https://github.com/kaizen-test/setup-check",
  default_branch: "main",
};
const SENDER = { login: "setup-checker", id: 190_000_002, type: "User" };
const HOOK_ID = 512_000_001;
// One installation: its `installation.created` signals all group under `errortracker:installation:<uuid>`.
const INSTALLATION_UUID = "3f1c7a52-9e0b-4d6a-8c21-6b5e4f3a2d10";
const SENTRY_APP = { uuid: "b7e2d0c4-1a3f-4e59-9d68-0c4b2a1e8f37", slug: "kaizen" };
const POSTHOG_PERSON = "0193f0a1-5c2d-7e3f-8a4b-9c0d1e2f3a4b";

/** One webhook delivery, ready to send: where, the exact text signed, and the provider's headers. */
export interface SampleWebhookDelivery {
  /** The receiver's path, e.g. `/api/signals/codehost`. */
  path: ReceiverPath;
  /** The event as Kaizen will name it: `ping`, `issues.opened`, `installation.created`, `kaizen_test`, … */
  eventType: string;
  /** The body, exactly the bytes that are signed and sent. */
  body: string;
  headers: Record<string, string>;
}

/** What varies between runs of the same test. */
export interface SampleOptions {
  /** The sample that opens an issue (`issues.opened`, `issue.created`, a high-severity event) instead of the setup one. */
  open: boolean;
  /** The receiver's secret, as the server has it. */
  secret: string;
  /** A fresh id per run, so no run is taken for a redelivery of the one before. */
  deliveryId: string;
  now: Date;
  /** The receiver's URL: GitHub's ping names the hook's URL. */
  url: string;
}

/**
 * A signed sample webhook delivery from `provider`, as that provider would send it.
 * @example sampleDelivery("github", { open: false, secret, deliveryId: randomUUID(), now: new Date(), url }).event // "ping"
 */
export function sampleWebhookDelivery(provider: ProviderName, options: SampleOptions): SampleWebhookDelivery {
  const build = { github: githubWebhookDelivery, sentry: sentryWebhookDelivery, posthog: posthogWebhookDelivery }[
    provider
  ];
  return { path: receiverPath(PROVIDERS[provider].receiver), ...build(options) };
}

/** GitHub's `ping` (what it sends when a hook is created), or `issues.opened` with `open`. */
function githubWebhookDelivery({
  open,
  secret,
  deliveryId,
  now,
  url,
}: SampleOptions): Omit<SampleWebhookDelivery, "path"> {
  const at = now.toISOString().replace(/\.\d{3}Z$/, "Z");
  const event = open ? "issues" : "ping";
  const payload = open
    ? {
        action: "opened",
        issue: {
          number: SAMPLE_ISSUE_NUMBER,
          title: "Setup check: a test issue sent by kaizen providers test",
          html_url: `${REPOSITORY.html_url}/issues/${SAMPLE_ISSUE_NUMBER}`,
          state: "open",
          user: SENDER,
          labels: [],
          body: "Sent to check the webhook; repeated tests join the same Kaizen issue.",
          created_at: at,
          updated_at: at,
        },
        repository: REPOSITORY,
        sender: SENDER,
      }
    : {
        zen: "Practicality beats purity.",
        hook_id: HOOK_ID,
        hook: {
          type: "Repository",
          id: HOOK_ID,
          name: "web",
          active: true,
          events: ["issues", "pull_request", "check_run", "workflow_run"],
          config: { content_type: "json", insecure_ssl: "0", url },
          created_at: at,
          updated_at: at,
        },
        repository: REPOSITORY,
        sender: SENDER,
      };
  const body = JSON.stringify(payload);
  return {
    eventType: open ? "issues.opened" : "ping",
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "GitHub-Hookshot/kaizen-test",
      "X-GitHub-Event": event,
      "X-GitHub-Delivery": deliveryId,
      "X-GitHub-Hook-ID": String(HOOK_ID),
      "X-GitHub-Hook-Installation-Target-Type": "repository",
      "X-GitHub-Hook-Installation-Target-ID": String(REPOSITORY.id),
      "X-Hub-Signature-256": signCodehost(body, secret),
    },
  };
}

/** Sentry's `installation.created` (what an integration receives when installed), or `issue.created` with `open`. */
function sentryWebhookDelivery({ open, secret, deliveryId, now }: SampleOptions): Omit<SampleWebhookDelivery, "path"> {
  const resource = open ? "issue" : "installation";
  const payload = open
    ? {
        action: "created",
        installation: { uuid: INSTALLATION_UUID },
        data: {
          issue: {
            id: SAMPLE_TRACKER_ISSUE_ID,
            shortId: "SETUP-CHECK-1",
            title: "Error: setup check, a test issue sent by kaizen providers test",
            culprit: "setup-check in sendTestDelivery",
            level: "error",
            status: "unresolved",
            substatus: "new",
            platform: "node",
            project: { id: "4510001", name: "setup-check", slug: "setup-check", platform: "node" },
            count: "1",
            userCount: 0,
            firstSeen: now.toISOString(),
            lastSeen: now.toISOString(),
            web_url: `https://kaizen-test.sentry.io/issues/${SAMPLE_TRACKER_ISSUE_ID}/`,
          },
        },
        actor: { type: "application", id: "sentry", name: "Sentry" },
      }
    : {
        action: "created",
        installation: { uuid: INSTALLATION_UUID },
        data: {
          installation: {
            status: "pending",
            organization: { slug: "kaizen-test" },
            app: SENTRY_APP,
            uuid: INSTALLATION_UUID,
            code: "9c2e4b7a1d5f48e0b3a6c8d2e1f07a95",
          },
        },
        actor: { id: 310_001, name: "Setup Checker", type: "user" },
      };
  // Sentry signs `JSON.stringify` of the body: sending exactly that text keeps the two the same.
  const body = JSON.stringify(payload);
  return {
    eventType: `${resource}.created`,
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "Sentry",
      "Request-ID": deliveryId,
      "Sentry-Hook-Resource": resource,
      "Sentry-Hook-Timestamp": String(Math.floor(now.getTime() / 1000)),
      "Sentry-Hook-Signature": signErrortracker(body, secret),
    },
  };
}

/**
 * An event as PostHog's HTTP Webhook destination sends it by default (`{"event": "{event}", "person":
 * "{person}"}`): `kaizen_test` at low severity, or `kaizen_test_alert` at high severity with `open`.
 * The names differ so that the setup event never joins the issue an `--open` test opened.
 */
function posthogWebhookDelivery({ open, secret, deliveryId, now }: SampleOptions): Omit<SampleWebhookDelivery, "path"> {
  const name = open ? "kaizen_test_alert" : "kaizen_test";
  const timestamp = now.toISOString();
  const payload = {
    event: {
      uuid: deliveryId,
      event: name,
      distinct_id: POSTHOG_PERSON,
      properties: { severity: open ? "high" : "low", $lib: "posthog-node", check: "kaizen providers test" },
      timestamp,
      elements_chain: "",
      url: `https://us.posthog.com/project/10001/events/${deliveryId}/${encodeURIComponent(timestamp)}`,
    },
    person: {
      id: POSTHOG_PERSON,
      name: "setup-check@example.com",
      url: `https://us.posthog.com/project/10001/person/${POSTHOG_PERSON}`,
      properties: { email: "setup-check@example.com" },
    },
  };
  return {
    eventType: name,
    body: JSON.stringify(payload),
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "PostHog",
      // The headers a PostHog user configures on the destination: the secret, and the event's uuid.
      "X-Analytics-Secret": secret,
      "X-Analytics-Delivery": deliveryId,
    },
  };
}
