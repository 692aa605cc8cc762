/**
 * @module routes — the route table: which family (Lambda function) serves which method and path,
 * and how each route is guarded. infra/ registers exactly these routes, the local server mounts
 * exactly these, and every family app implements exactly its own.
 */

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** `bearer`: API key (docs/api.md#authentication); `none`: public; `webhook`: the provider's signature (docs/api.md#webhook-verification). */
export type RouteAuth = "bearer" | "none" | "webhook";

/** The webhook providers, each with its own receiver and secret. */
export type WebhookProvider = "codehost" | "errortracker" | "analytics";

export interface RouteSpec {
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: RouteAuth;
  /** For `webhook` routes: whose signature the receiver checks. */
  readonly provider?: WebhookProvider;
  /** Largest body accepted; API_BODY_LIMIT_BYTES when unset. */
  readonly bodyLimit?: number;
  /**
   * `false`: a POST that does not take `Idempotency-Key`, because its answer holds a secret shown
   * once (a claim's dispatch token, stored only as a hash; an event destination's signing secret),
   * which a kept answer would show again.
   */
  readonly idempotent?: false;
  /**
   * The resource this route's `:id` names that a dispatch token may act on (docs/api.md#dispatch): its own
   * dispatch, issue or prompt. Unset: a dispatch token is refused here with 403.
   */
  readonly token?: "dispatch" | "issue" | "prompt";
}

/**
 * Routes that honour `Idempotency-Key`: bearer-authenticated `POST`s under `/api/`, not the webhook
 * receivers, nor a POST marked `idempotent: false`.
 * @example takesIdempotencyKey({ method: "POST", path: "/api/issues", auth: "bearer" }) // true
 */
export function takesIdempotencyKey(route: RouteSpec): boolean {
  return (
    route.method === "POST" && route.auth === "bearer" && route.path.startsWith("/api/") && route.idempotent !== false
  );
}

/**
 * The header of a claim's 204 when it took nothing because the projects of the issues it could take
 * reached their daily cost budget (docs/api.md#dispatch), and its one value. Here, beside the routes, so the
 * typed client (which runs in browsers too) reads it without the dispatch domain.
 */
export const CLAIM_STOPPED_HEADER = "Kaizen-Claim-Stopped";
export const DAILY_COST_BUDGET_STOP = "daily-cost-budget";

/** Largest JSON body accepted under `/api/` (docs/api.md#limits-and-versioning). */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;
/** Largest body a webhook receiver accepts (docs/api.md#limits-and-versioning). */
export const WEBHOOK_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export const ROUTE_TABLE = {
  service: [
    { method: "GET", path: "/", auth: "none" },
    { method: "GET", path: "/health", auth: "none" },
    { method: "GET", path: "/api/openapi.json", auth: "none" },
    { method: "GET", path: "/docs", auth: "none" },
    { method: "GET", path: "/docs/assets/:file", auth: "none" },
    // The web console (docs/api.md#console): one URL per page, each answered with the same shell.
    { method: "GET", path: "/app", auth: "none" },
    { method: "GET", path: "/app/issues", auth: "none" },
    { method: "GET", path: "/app/issues/:id", auth: "none" },
    { method: "GET", path: "/app/queue", auth: "none" },
    { method: "GET", path: "/app/activity", auth: "none" },
    { method: "GET", path: "/app/prompts", auth: "none" },
    { method: "GET", path: "/app/prompts/:id", auth: "none" },
    { method: "GET", path: "/app/providers", auth: "none" },
    { method: "GET", path: "/app/assets/:file", auth: "none" },
    { method: "GET", path: "/api/providers", auth: "bearer" },
  ],
  issues: [
    { method: "GET", path: "/api/issues", auth: "bearer" },
    { method: "POST", path: "/api/issues", auth: "bearer" },
    { method: "GET", path: "/api/issues/:id", auth: "bearer" },
    { method: "PATCH", path: "/api/issues/:id", auth: "bearer" },
    { method: "DELETE", path: "/api/issues/:id", auth: "bearer" },
    { method: "GET", path: "/api/issues/:id/comments", auth: "bearer" },
    { method: "POST", path: "/api/issues/:id/comments", auth: "bearer", token: "issue" },
    { method: "POST", path: "/api/issues/:id/relations", auth: "bearer" },
    { method: "DELETE", path: "/api/relations/:id", auth: "bearer" },
  ],
  catalog: [
    { method: "GET", path: "/api/projects", auth: "bearer" },
    { method: "POST", path: "/api/projects", auth: "bearer" },
    { method: "GET", path: "/api/projects/:id", auth: "bearer" },
    { method: "PATCH", path: "/api/projects/:id", auth: "bearer" },
    { method: "DELETE", path: "/api/projects/:id", auth: "bearer" },
    { method: "GET", path: "/api/goals", auth: "bearer" },
    { method: "POST", path: "/api/goals", auth: "bearer" },
    { method: "GET", path: "/api/goals/:id", auth: "bearer" },
    { method: "PATCH", path: "/api/goals/:id", auth: "bearer" },
    { method: "DELETE", path: "/api/goals/:id", auth: "bearer" },
    { method: "GET", path: "/api/labels", auth: "bearer" },
    { method: "POST", path: "/api/labels", auth: "bearer" },
    { method: "DELETE", path: "/api/labels/:id", auth: "bearer" },
  ],
  webhooks: [
    {
      method: "POST",
      path: "/api/signals/codehost",
      auth: "webhook",
      provider: "codehost",
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    },
    {
      method: "POST",
      path: "/api/signals/errortracker",
      auth: "webhook",
      provider: "errortracker",
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    },
    {
      method: "POST",
      path: "/api/signals/analytics",
      auth: "webhook",
      provider: "analytics",
      bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    },
  ],
  signals: [
    { method: "GET", path: "/api/signals", auth: "bearer" },
    { method: "POST", path: "/api/signals", auth: "bearer" },
    { method: "GET", path: "/api/signals/:id", auth: "bearer" },
    { method: "GET", path: "/api/issues/:id/signals", auth: "bearer" },
  ],
  templates: [
    { method: "GET", path: "/api/templates", auth: "bearer" },
    { method: "POST", path: "/api/templates", auth: "bearer" },
    { method: "GET", path: "/api/templates/preview/:issueId", auth: "bearer" },
    { method: "GET", path: "/api/templates/:id", auth: "bearer" },
    { method: "PATCH", path: "/api/templates/:id", auth: "bearer" },
    { method: "DELETE", path: "/api/templates/:id", auth: "bearer" },
    { method: "GET", path: "/api/templates/:id/versions", auth: "bearer" },
    { method: "POST", path: "/api/templates/:id/versions", auth: "bearer" },
    { method: "POST", path: "/api/templates/:id/versions/:versionId/promote", auth: "bearer" },
    { method: "GET", path: "/api/templates/:id/reviews", auth: "bearer" },
    { method: "GET", path: "/api/templates/:id/experiments", auth: "bearer" },
    { method: "POST", path: "/api/templates/:id/experiments", auth: "bearer" },
    { method: "GET", path: "/api/templates/:id/experiments/:experimentId", auth: "bearer" },
    { method: "DELETE", path: "/api/templates/:id/experiments/:experimentId", auth: "bearer" },
  ],
  prompts: [
    { method: "GET", path: "/api/prompts", auth: "bearer" },
    { method: "GET", path: "/api/prompts/:id", auth: "bearer" },
    { method: "GET", path: "/api/prompts/:id/reviews", auth: "bearer" },
    { method: "POST", path: "/api/prompts/:id/reviews", auth: "bearer", token: "prompt" },
  ],
  dispatch: [
    { method: "POST", path: "/api/dispatch/claim", auth: "bearer", idempotent: false },
    { method: "GET", path: "/api/dispatch/next", auth: "bearer" },
    { method: "GET", path: "/api/dispatch/queue", auth: "bearer" },
    { method: "GET", path: "/api/dispatch", auth: "bearer" },
    { method: "GET", path: "/api/dispatch/:id", auth: "bearer" },
    { method: "POST", path: "/api/dispatch/:id/heartbeat", auth: "bearer", token: "dispatch" },
    { method: "POST", path: "/api/dispatch/:id/complete", auth: "bearer", token: "dispatch" },
    { method: "POST", path: "/api/dispatch/:id/release", auth: "bearer", token: "dispatch" },
  ],
  destinations: [
    { method: "GET", path: "/api/event-destinations", auth: "bearer" },
    { method: "POST", path: "/api/event-destinations", auth: "bearer", idempotent: false },
    { method: "GET", path: "/api/event-destinations/:id", auth: "bearer" },
    { method: "PATCH", path: "/api/event-destinations/:id", auth: "bearer" },
    { method: "DELETE", path: "/api/event-destinations/:id", auth: "bearer" },
    { method: "POST", path: "/api/event-destinations/:id/rotate-secret", auth: "bearer", idempotent: false },
    { method: "GET", path: "/api/event-destinations/:id/deliveries", auth: "bearer" },
    { method: "POST", path: "/api/event-destinations/:id/deliveries/:deliveryId/retry", auth: "bearer" },
  ],
  dashboard: [
    { method: "GET", path: "/api/dashboard/stats", auth: "bearer" },
    { method: "GET", path: "/api/dashboard/activity", auth: "bearer" },
    { method: "GET", path: "/api/dashboard/prompts", auth: "bearer" },
    { method: "GET", path: "/api/dashboard/usage", auth: "bearer" },
  ],
} as const satisfies Record<string, readonly RouteSpec[]>;

export type Family = keyof typeof ROUTE_TABLE;

/** `"GET /api/issues"`-style key of one route of a family. */
export type RouteKey<F extends Family> = (typeof ROUTE_TABLE)[F][number] extends infer R
  ? R extends RouteSpec
    ? `${R["method"]} ${R["path"]}`
    : never
  : never;

export const FAMILIES = Object.keys(ROUTE_TABLE) as Family[];

/**
 * The family whose Lambda function also takes API Gateway's `$default` route, so unknown paths and
 * wrong methods get the service's own 404/405 envelope in the cloud too.
 */
export const DEFAULT_ROUTE_FAMILY: Family = "service";

/**
 * The methods the gateway routes for a route: a GET also answers HEAD (as the local server does),
 * so HEAD does not fall through to `$default` in the cloud.
 */
export function gatewayMethods(route: RouteSpec): string[] {
  return route.method === "GET" ? ["GET", "HEAD"] : [route.method];
}

export function routeKey(route: RouteSpec): string {
  return `${route.method} ${route.path}`;
}

/** The path of provider `P`'s receiver, as the route table types it. */
export type ReceiverPath<P extends WebhookProvider = WebhookProvider> = Extract<
  (typeof ROUTE_TABLE)["webhooks"][number],
  { provider: P }
>["path"];

/**
 * The path of a webhook provider's receiver, as the route table has it.
 * @example receiverPath("codehost") // "/api/signals/codehost"
 */
export function receiverPath<P extends WebhookProvider>(provider: P): ReceiverPath<P> {
  const route = ROUTE_TABLE.webhooks.find((candidate) => candidate.provider === provider);
  if (!route) throw new Error(`The route table has no receiver for ${provider}`);
  return route.path as ReceiverPath<P>;
}

/** Every route of every family, with its family. */
export function allRoutes(): (RouteSpec & { family: Family })[] {
  return FAMILIES.flatMap((family) => ROUTE_TABLE[family].map((route) => ({ ...route, family })));
}
