/**
 * @module client/client — the typed Kaizen client: openapi-fetch over the types generated from the
 * service's OpenAPI document (./api-types.ts). Failures surface as one {@link KaizenApiError};
 * requests are retried only where that is safe: idempotent methods, and POSTs carrying an
 * `Idempotency-Key`, which the client adds itself to every route that takes one. It runs in Node and
 * in browsers alike (the web console uses it).
 */
import createClient, { type Client, type Middleware } from "openapi-fetch";
import { allRoutes, CLAIM_STOPPED_HEADER, takesIdempotencyKey } from "../core/src/routes.js";
import type { components, paths } from "./api-types.js";

export type { components, paths };
/** A schema of the API by name: `Schema<"Issue">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
export type KaizenClient = Client<paths>;

/** A validation problem of a 400, as the envelope's `details` lists them. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * Any failed call: the API's error envelope (`status`, `error`, `details`), or status 0 when the
 * service could not be reached at all.
 * @example try { await kaizen.GET("/api/issues/{id}", …) } catch (e) { if (e instanceof KaizenApiError && e.status === 404) … }
 */
export class KaizenApiError extends Error {
  readonly status: number;
  /** The envelope's `error`: the message the API gave. */
  readonly error: string;
  readonly details: ErrorDetail[] | undefined;
  readonly method: string;
  readonly url: string;
  /** `X-Request-Id` of the answer, to find its log line. */
  readonly requestId: string | undefined;
  /** `Retry-After` of the answer in seconds (a 429 or 503 says when to ask again), if it gave one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    error: string;
    details?: ErrorDetail[] | undefined;
    method: string;
    url: string;
    requestId?: string | undefined;
    retryAfterSeconds?: number | undefined;
    cause?: unknown;
  }) {
    super(`${init.method} ${new URL(init.url).pathname}: ${init.status || "unreachable"} ${init.error}`, {
      cause: init.cause,
    });
    this.name = "KaizenApiError";
    this.status = init.status;
    this.error = init.error;
    this.details = init.details;
    this.method = init.method;
    this.url = init.url;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

export interface KaizenClientOptions {
  /** The service's base URL, e.g. `http://localhost:4242`. */
  baseUrl: string;
  /** The API key (`kaizen_…`) or a dispatch token (`kzd_…`). */
  token?: string | undefined;
  /** Attempts per request where a retry is safe (default 3; 1 turns retries off). */
  attempts?: number;
  /** Longest wait between attempts, whatever `Retry-After` says (default 5000 ms). */
  maxRetryDelayMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/** Statuses that mean "not now" rather than "no": worth another attempt when the request is safe to repeat. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const IDEMPOTENCY_KEY = "Idempotency-Key";

/** The OpenAPI paths (`/api/issues/{id}/comments`) whose POST takes `Idempotency-Key`, from the route table. */
const KEYED_POSTS = new Set(
  allRoutes()
    .filter(takesIdempotencyKey)
    .map((route) => route.path.replace(/:(\w+)/g, "{$1}")),
);

/** Whether sending `request` twice does no more than sending it once. */
function safeToRepeat(request: Request): boolean {
  return SAFE_METHODS.has(request.method) || (request.method === "POST" && request.headers.has(IDEMPOTENCY_KEY));
}

/** `Retry-After` in seconds, when it is a number of seconds. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get("Retry-After");
  const seconds = value === null ? Number.NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * Why a claim's 204 took nothing although issues are queued: `daily-cost-budget` when their projects'
 * daily cost budgets stopped claims (docs/api.md#dispatch), `review-capacity` when their reviews are
 * full (docs/api.md#review-capacity); null when nothing was eligible.
 * @example const { response } = await kaizen.POST("/api/dispatch/claim", …); if (claimStopped(response)) …
 */
export function claimStopped(response: Response): string | null {
  return response.status === 204 ? response.headers.get(CLAIM_STOPPED_HEADER) : null;
}

/**
 * Why nothing was claimed, in a sentence, for a stop {@link claimStopped} read.
 * @example stoppedReason("review-capacity") // "Nothing to claim: the issues left are in projects whose reviews are full …"
 */
export function stoppedReason(stopped: string): string {
  return stopped === "review-capacity"
    ? "Nothing to claim: the issues left are in projects whose reviews are full " +
        `(limits.maxInReview issues wait in review; ${stopped}). Claims of them resume as reviews end.`
    : "Nothing to claim: the issues left are in projects whose agents spent today's cost budget " +
        `(limits.dailyCostBudgetUsd; ${stopped}). Claims of them resume the next day (UTC).`;
}

/**
 * The wait before attempt `attempt + 1`: `Retry-After` when the answer gave one, else a random
 * wait below 200 ms × 2^(attempt − 1) ("full jitter"); never over `cap`.
 * @example retryDelay(1, "2", 5000) // 2000; retryDelay(2, null, 5000) // 0..399
 */
export function retryDelay(attempt: number, retryAfter: string | null, cap: number): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(cap, seconds * 1000);
  return Math.min(cap, Math.floor(Math.random() * 200 * 2 ** (attempt - 1)));
}

/** A fetch that retries answers and network failures that may pass, for requests safe to repeat. */
function retryingFetch(
  send: (request: Request) => Promise<Response>,
  attempts: number,
  cap: number,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const repeatable = safeToRepeat(request);
    for (let attempt = 1; ; attempt++) {
      const last = !repeatable || attempt >= attempts;
      try {
        const response = await send(last ? request : request.clone());
        if (last || !RETRYABLE_STATUSES.has(response.status)) return response;
        // Asked to come back later than this client waits (an agent at its limit): the caller hears it now.
        if ((retryAfterOf(response) ?? 0) * 1000 > cap) return response;
        await response.body?.cancel();
        await sleep(retryDelay(attempt, response.headers.get("Retry-After"), cap));
      } catch (error) {
        if (last) throw error;
        await sleep(retryDelay(attempt, null, cap));
      }
    }
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Adds a fresh `Idempotency-Key` to POSTs that take one and carry none, so they can be retried. */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method === "POST" && KEYED_POSTS.has(schemaPath) && !request.headers.has(IDEMPOTENCY_KEY)) {
      request.headers.set(IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
    }
    return request;
  },
};

/** Turns every non-2xx answer, and a service that cannot be reached, into a {@link KaizenApiError}. */
const apiErrors: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.text();
    let envelope: { error?: unknown; details?: unknown } = {};
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      // Not the API's envelope (a proxy's page, say): the status and the text say enough.
    }
    throw new KaizenApiError({
      status: response.status,
      error: typeof envelope.error === "string" ? envelope.error : text.slice(0, 200) || response.statusText,
      details: Array.isArray(envelope.details) ? (envelope.details as ErrorDetail[]) : undefined,
      method: request.method,
      url: request.url,
      requestId: response.headers.get("X-Request-Id") ?? undefined,
      retryAfterSeconds: retryAfterOf(response),
    });
  },
  onError({ request, error }) {
    if (error instanceof KaizenApiError) return error;
    const cause = (error as { cause?: { code?: string } }).cause;
    return new KaizenApiError({
      status: 0,
      error: `cannot reach ${new URL(request.url).origin}${cause?.code ? ` (${cause.code})` : ""}`,
      method: request.method,
      url: request.url,
      cause: error,
    });
  },
};

/**
 * A client for one Kaizen service; every path, parameter, body and answer is typed from the
 * OpenAPI document. A call resolves with `{ data, response }` on a 2xx and throws a
 * {@link KaizenApiError} otherwise.
 * @example
 * const kaizen = createKaizenClient({ baseUrl: "http://localhost:4242", token: process.env.KAIZEN_API_KEY });
 * const { data } = await kaizen.POST("/api/issues", { body: { title: "Checkout fails", type: "bug" } });
 */
export function createKaizenClient(options: KaizenClientOptions): KaizenClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: retryingFetch(send, Math.max(1, options.attempts ?? 3), options.maxRetryDelayMs ?? 5_000),
    headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
  });
  client.use(idempotencyKeys, apiErrors);
  return client;
}
