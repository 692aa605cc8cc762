/** @module config — reads and validates the service's configuration once, from the environment and SST links. */

/** Shape of the service API key: `kaizen_` + 32 random bytes as 64 lowercase hex characters (docs/api.md#authentication). */
export const API_KEY_PATTERN = /^kaizen_[0-9a-f]{64}$/;

/** Names of the SST resources the functions are linked to (infra/ creates exactly these). */
export const LINKED = {
  table: "Table",
  api: "Api",
  serviceApiKey: "ServiceApiKey",
  serviceApiKeyPrevious: "ServiceApiKeyPrevious",
  codehostWebhookSecret: "CodehostWebhookSecret",
  errortrackerClientSecret: "ErrortrackerClientSecret",
  analyticsWebhookSecret: "AnalyticsWebhookSecret",
  eventRetries: "EventRetries",
} as const;

/** Environment variable of each webhook provider's secret (named in the 500 when it is missing). */
export const WEBHOOK_SECRET_VARIABLES = {
  codehost: "CODEHOST_WEBHOOK_SECRET",
  errortracker: "ERRORTRACKER_CLIENT_SECRET",
  analytics: "ANALYTICS_WEBHOOK_SECRET",
} as const;

/**
 * What a browser on an allowed origin may do (`CORS_ALLOWED_ORIGINS`, docs/api.md#configuration): the local server's
 * `hono/cors` and the gateway's CORS configuration (infra/api.ts) are both built from this one policy.
 */
export const CORS_POLICY = {
  allowMethods: ["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
  // `Mcp-Protocol-Version`: what a browser's MCP client sends to `POST /mcp` after it initialized.
  allowHeaders: [
    "Authorization",
    "Content-Type",
    "If-Match",
    "Idempotency-Key",
    "X-Request-Id",
    "Mcp-Protocol-Version",
  ],
  exposeHeaders: [
    "ETag",
    "Link",
    "Location",
    "X-Request-Id",
    "Retry-After",
    "Idempotent-Replayed",
    "Kaizen-Claim-Stopped",
    "WWW-Authenticate",
  ],
  maxAgeSeconds: 600,
} as const;

export interface Config {
  /** Undefined means "not configured": `/api/*` then fails closed with 500. */
  serviceApiKey: string | undefined;
  /**
   * The root key before the last rotation, accepted beside `serviceApiKey` while clients move to the
   * new one (docs/operations.md#rotating-secrets); undefined: none.
   */
  serviceApiKeyPrevious: string | undefined;
  tableName: string;
  /** Set to talk to DynamoDB Local or another endpoint instead of AWS. */
  dynamodbEndpoint: string | undefined;
  /** Refuse conflicting transactions as DynamoDB on AWS does (db/conflict-emulator.ts); for DynamoDB Local. */
  emulateConflicts: boolean;
  region: string;
  webhookSecrets: {
    codehost: string | undefined;
    errortracker: string | undefined;
    analytics: string | undefined;
  };
  /**
   * Base URL rendered into agent prompts, without a trailing slash: PUBLIC_BASE_URL (a custom
   * domain) else the linked API's own URL; undefined when neither is known (see {@link apiBaseUrl}).
   */
  publicBaseUrl: string | undefined;
  port: number;
  /**
   * Exact origins (`https://dash.example.com`) browsers may call the API from; empty (the default)
   * means no CORS headers at all, so browsers on other sites cannot read responses.
   */
  corsAllowedOrigins: string[];
  /**
   * Deployed: the queue whose delayed messages wake the retries of outbound events (infra/events.ts);
   * undefined locally, where the local stack sweeps every second instead.
   */
  eventRetryQueueUrl: string | undefined;
  /**
   * `OUTBOUND_ALLOW_PRIVATE`: a deployed stage may send its own requests (outbound events) to
   * addresses inside a network, for destinations meant to live there (docs/security.md#outbound-requests);
   * off by default. The local server sends anywhere whatever this says.
   */
  outboundAllowPrivate: boolean;
  /**
   * `GITHUB_API_URL`: GitHub's API base that hosted runners' hand-offs are posted to
   * (docs/api.md#hosted-runners), without a trailing slash; `https://api.github.com` unless a GitHub
   * Enterprise Server's API is named.
   */
  githubApiUrl: string;
}

/** GitHub's API base when `GITHUB_API_URL` is not set. */
export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

/** A configuration value that cannot be used; the process must not start with it. */
export class InvalidConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidConfigError";
  }
}

type Env = Record<string, string | undefined>;
type Linked = Record<string, unknown>;

/**
 * Reads the configuration: environment variables (docs/api.md#configuration) first, then values of linked SST
 * resources. Throws {@link InvalidConfigError} with a message naming the variable for a value
 * that is present but unusable (a malformed API key, a bad port or URL).
 * @example const config = loadConfig({ env: process.env });
 */
export function loadConfig({ env, linked = {} }: { env: Env; linked?: Linked }): Config {
  const serviceApiKey = apiKey(
    "SERVICE_API_KEY",
    nonEmpty(env.SERVICE_API_KEY) ?? linkedValue(linked, LINKED.serviceApiKey, "value"),
  );
  const serviceApiKeyPrevious = apiKey(
    "SERVICE_API_KEY_PREVIOUS",
    nonEmpty(env.SERVICE_API_KEY_PREVIOUS) ?? linkedValue(linked, LINKED.serviceApiKeyPrevious, "value"),
  );
  return {
    serviceApiKey,
    serviceApiKeyPrevious,
    tableName: nonEmpty(env.TABLE_NAME) ?? linkedValue(linked, LINKED.table, "name") ?? "kaizen",
    dynamodbEndpoint: optionalUrl(env, "DYNAMODB_ENDPOINT"),
    emulateConflicts: flag(env, "DYNAMODB_EMULATE_CONFLICTS"),
    region: nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? "us-east-1",
    webhookSecrets: {
      codehost: nonEmpty(env.CODEHOST_WEBHOOK_SECRET) ?? linkedValue(linked, LINKED.codehostWebhookSecret, "value"),
      errortracker:
        nonEmpty(env.ERRORTRACKER_CLIENT_SECRET) ?? linkedValue(linked, LINKED.errortrackerClientSecret, "value"),
      analytics: nonEmpty(env.ANALYTICS_WEBHOOK_SECRET) ?? linkedValue(linked, LINKED.analyticsWebhookSecret, "value"),
    },
    publicBaseUrl:
      optionalUrl(env, "PUBLIC_BASE_URL") ?? (linkedValue(linked, LINKED.api, "url")?.replace(/\/+$/, "") || undefined),
    port: port(env.PORT),
    corsAllowedOrigins: origins(env, "CORS_ALLOWED_ORIGINS"),
    eventRetryQueueUrl: linkedValue(linked, LINKED.eventRetries, "url"),
    outboundAllowPrivate: flag(env, "OUTBOUND_ALLOW_PRIVATE"),
    githubApiUrl: optionalUrl(env, "GITHUB_API_URL") ?? DEFAULT_GITHUB_API_URL,
  };
}

/**
 * The URL the service is reached at: the configured or linked public base URL, else the local
 * server's own address.
 * @example apiBaseUrl(loadConfig({ env: {} })) // "http://localhost:4242"
 */
export function apiBaseUrl(config: Config): string {
  return config.publicBaseUrl ?? `http://localhost:${config.port}`;
}

/** A root key as configured under `variable`: undefined when unset; a malformed one stops the process. */
function apiKey(variable: string, value: string | undefined): string | undefined {
  if (value !== undefined && !API_KEY_PATTERN.test(value)) {
    throw new InvalidConfigError(
      `${variable} is malformed: expected kaizen_ followed by 64 lowercase hex characters (run \`npm run keygen\` for a fresh one)`,
    );
  }
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function linkedValue(linked: Linked, name: string, field: string): string | undefined {
  // `in` first: SST's Resource proxy throws on reads of names that are not linked.
  if (!(name in linked)) return undefined;
  const resource = linked[name];
  if (typeof resource !== "object" || resource === null) return undefined;
  const value = (resource as Record<string, unknown>)[field];
  return typeof value === "string" ? nonEmpty(value) : undefined;
}

function optionalUrl(env: Env, name: string): string | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new InvalidConfigError(`${name} must be an http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

function flag(env: Env, name: string): boolean {
  const value = nonEmpty(env[name])?.trim().toLowerCase();
  if (value === undefined || value === "0" || value === "false" || value === "off") return false;
  if (value === "1" || value === "true" || value === "on") return true;
  throw new InvalidConfigError(`${name} must be one of 1, true, on, 0, false, off; got "${env[name]}"`);
}

/** A comma-separated list of exact origins; `*` is refused because the API is reached with a bearer key. */
function origins(env: Env, name: string): string[] {
  const entries = (env[name] ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    if (entry.includes("*")) {
      throw new InvalidConfigError(
        `${name} must list exact origins (https://dash.example.com); "*" is not allowed, got "${entry}"`,
      );
    }
    const parsed = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== entry) {
      throw new InvalidConfigError(
        `${name} must list exact origins like https://dash.example.com (scheme, host and optional port; no path or trailing slash), got "${entry}"`,
      );
    }
  }
  return [...new Set(entries)];
}

function port(value: string | undefined): number {
  if (nonEmpty(value) === undefined) return 4242;
  const parsed = Number(value);
  if (!/^\d+$/.test(String(value)) || parsed < 1 || parsed > 65535) {
    throw new InvalidConfigError(`PORT must be an integer between 1 and 65535, got "${value}"`);
  }
  return parsed;
}
