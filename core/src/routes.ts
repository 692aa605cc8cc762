/**
 * @module routes — the route table: which family (Lambda function) serves which method and path,
 * and how each route is guarded. infra/ registers exactly these routes, the local server mounts
 * exactly these, and every family app implements exactly its own. The table is derived from the
 * families' declarations (docs/contributing.md#adding-a-route); this module adds its types and helpers.
 */
import { ROUTE_TABLE as GENERATED_ROUTE_TABLE } from "./route-table.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** `bearer`: API key (docs/api.md#authentication); `none`: public; `webhook`: the provider's signature (docs/api.md#webhook-verification). */
export type RouteAuth = "bearer" | "none" | "webhook";

/**
 * What a caller must be allowed to do to call a bearer route (docs/security.md#scopes): `read` every
 * GET but the secret-bearing ones; `write` what `read` may, and create and change; `dispatch` claim,
 * and work on a dispatch; `admin` everything. The root key holds all of them.
 */
export const SCOPES = ["read", "write", "dispatch", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes each scope includes: `admin` all, `write` also `read`. */
const INCLUDED: Readonly<Record<Scope, readonly Scope[]>> = {
  read: ["read"],
  write: ["write", "read"],
  dispatch: ["dispatch"],
  admin: ["admin", "write", "read", "dispatch"],
};

/**
 * Whether holding `held` allows what `needed` names.
 * @example scopeAllows("write", "read") // true; scopeAllows("write", "dispatch") // false
 */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  return INCLUDED[held].includes(needed);
}

/**
 * How a key narrowed to projects (`projectIds`, docs/security.md#projects) reaches a bearer route:
 * - `issue`, `dispatch`, `prompt`, `signal`, `relation`, `project`: the route's `:id` (`:issueId`)
 *   names one of these; outside the key's projects it answers the same 404 as one that does not exist;
 * - `handler`: the handler narrows what it lists, claims or creates to the key's projects;
 * - `shared`: not held by a project (templates, goals, labels, providers): as the key's scopes allow;
 * - `global`: spans every project (the dashboard, destinations, keys, the audit log, creating a
 *   project): a narrowed key is refused (403).
 */
export const REACHES = [
  "issue",
  "dispatch",
  "prompt",
  "signal",
  "relation",
  "project",
  "handler",
  "shared",
  "global",
] as const;
export type Reach = (typeof REACHES)[number];
/** The reaches whose route names one resource held by a project. */
export type ResourceReach = Exclude<Reach, "handler" | "shared" | "global">;

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
  /** For `bearer` routes: the scope a caller needs (every bearer route declares one, or `anyCaller`). */
  readonly scope?: Scope;
  /**
   * For a `bearer` route that declares no scope: every valid credential is let in (the root key, a
   * key of any scope, the token of a live dispatch), and what the caller may do is decided by the
   * API calls its handler makes in the caller's own name (the remote MCP endpoint, docs/api.md#remote-mcp).
   */
  readonly anyCaller?: true;
  /** For `bearer` routes: how a key narrowed to projects reaches it (every bearer route declares one). */
  readonly reach?: Reach;
  /**
   * Whether its requests that change something are recorded in the audit log (docs/security.md#audit-log):
   * every route but a GET unless this says otherwise (an agent's heartbeats and activities, which the
   * dispatch keeps, are not; a claim by GET is).
   */
  readonly audit?: boolean;
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
export const REVIEW_CAPACITY_STOP = "review-capacity";

/** Largest JSON body accepted under `/api/` (docs/api.md#limits-and-versioning). */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;
/** Largest body a webhook receiver accepts (docs/api.md#limits-and-versioning). */
export const WEBHOOK_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * Every route by family, as the families' declarations (`core/src/<domain>/api.ts`) give them: the
 * data alone (no handler, no schema), so infra/, the browser console, the service function (which
 * judges every request no route takes by it) and MCP read it cheaply; other functions drop it.
 * Written by `npm run openapi` into ./route-table.ts; a test fails when that file is stale.
 */
export const ROUTE_TABLE = GENERATED_ROUTE_TABLE satisfies Record<string, readonly RouteSpec[]>;

export type Family = keyof typeof ROUTE_TABLE;

/** `"GET /api/issues"`-style key of one route of a family. */
export type RouteKey<F extends Family> = (typeof ROUTE_TABLE)[F][number] extends infer R
  ? R extends RouteSpec
    ? `${R["method"]} ${R["path"]}`
    : never
  : never;

export const FAMILIES = /* @__PURE__ */ Object.keys(ROUTE_TABLE) as Family[];

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
