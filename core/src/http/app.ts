/**
 * @module http/app — the app factory every family and the local server use: request ids, one log
 * line per request, CORS for configured origins, the error envelope, 404/405 from the route table,
 * and per route, from its declaration (`core/src/<domain>/api.ts`): bearer auth, body limits,
 * Idempotency-Key, `If-Match`, and the query and body validated before its handler runs.
 */

import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { Clock } from "../clock.js";
import { CORS_POLICY, type Config, WEBHOOK_SECRET_VARIABLES } from "../config.js";
import { type Db, TransactionConflictError } from "../db/db.js";
import { CONCURRENT_CHANGES_MESSAGE } from "../db/retry.js";
import { AppError, ConfigurationError, PayloadTooLargeError, UnavailableError } from "../errors.js";
import type { OutboundGuard } from "../outbound-guard.js";
import {
  API_BODY_LIMIT_BYTES,
  type Family,
  type HttpMethod,
  type RouteKey,
  type RouteSpec,
  type WebhookProvider,
} from "../routes.js";
import type { Output, SchemaDefinition } from "../schema.js";
import { readJsonBody } from "./body.js";
import { type ExpectedVersions, expectedVersion } from "./conditional.js";
import type { AppEnv } from "./env.js";
import { takesIdempotencyKey } from "./idempotency.js";
import { defaultLogger, type Logger, loggedError, redactSecrets } from "./logger.js";
import { lookedUpReach, type ReachLookups } from "./reach.js";
import { errorResponse, JSON_CONTENT_TYPE, withHeader } from "./respond.js";
import { routeMisses, shadowedStaticPaths, staticRoutesOnly } from "./route-misses.js";
import { checkEmptyBody, parseWith, takesNoBody } from "./validation.js";

/**
 * What runs before the handler of an API route (auth `bearer`, or taking an Idempotency-Key): built
 * by ./caller-checks.ts and handed in by the composition root (core/src/services.ts `createApp`).
 */
export interface CallerChecks {
  /** The middleware of a bearer route, in order: audit record, bearer check, project reach. */
  bearer(spec: RouteSpec, declaredStatus: number, lookups: ReachLookups): MiddlewareHandler<AppEnv>[];
  /** Replays the first answer to a repeated Idempotency-Key (a route that takes one). */
  idempotent: MiddlewareHandler<AppEnv>;
}

/** What handlers can reach through the context. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger?: Logger;
  /**
   * The time services act at (leases, scores); the machine's clock unless a test passes its own. One
   * that can also wait runs the services' deadlines and waits too (core/src/clock.ts).
   */
  clock?: Clock;
  /**
   * Where Kaizen's own requests (outbound events, runner hand-offs) may go (docs/security.md#outbound-requests).
   * When omitted, never inside a network: each sender's own default, so a deployed function is safe
   * without naming one. The local server passes `OPEN_GUARD` (core/src/outbound-guard.ts).
   */
  outboundGuard?: OutboundGuard;
}

export type { AppEnv } from "./env.js";

type LambdaEnv = { requestContext?: { requestId?: string } };

/** The header a request's id travels in, both ways (docs/api.md#envelopes). */
export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * What the app reads of a route's declaration to serve it (openapi/declare `Declaration` adds what
 * the document says): its guard as the route table has it, and the schemas its input must pass.
 */
export interface RouteDeclaration extends Omit<RouteSpec, "method" | "path"> {
  /** Validates the query string; the handler gets the parsed value. */
  readonly query?: SchemaDefinition;
  /** Validates the JSON body (read as http/body reads it); the handler gets the parsed value. */
  readonly body?: SchemaDefinition;
  /** The body may be left out (no bytes at all): the schema then reads `{}`. */
  readonly bodyOptional?: true;
  /**
   * The handler reads the body itself, in a protocol of its own (the remote MCP endpoint's JSON-RPC).
   * Otherwise a bearer route without `body` takes none: no bytes, or `{}` (http/validation `takesNoBody`).
   */
  readonly ownBody?: true;
  /** Honours `If-Match` (412 on mismatch): the handler gets the version it requires. */
  readonly ifMatch?: true;
}

/** A route's input, validated by the app from its declaration before its handler runs. */
export interface RouteInput<D extends RouteDeclaration = RouteDeclaration> {
  readonly query: D extends { query: infer Q extends SchemaDefinition } ? Output<Q> : undefined;
  readonly body: D extends { body: infer B extends SchemaDefinition } ? Output<B> : undefined;
  /** The versions `If-Match` accepts, any one of them (http/conditional), for a route declared `ifMatch`. */
  readonly expectedVersion: ExpectedVersions | undefined;
}

export type RouteHandler<D extends RouteDeclaration = RouteDeclaration> = (
  c: Context<AppEnv>,
  input: RouteInput<D>,
) => Response | Promise<Response>;

/** A family's handlers: exactly one per declared route, each typed by its declaration. */
export type FamilyHandlers<R extends Readonly<Record<string, RouteDeclaration>>> = {
  [K in keyof R]: RouteHandler<R[K]>;
};

/**
 * A family: its routes' declarations, its handlers built once from the deps, and how it reads where
 * the resources its routes reach belong (http/reach).
 */
export interface FamilyModule<R extends Readonly<Record<string, RouteDeclaration>>> {
  readonly routes: R;
  readonly handlers: (deps: AppDeps) => FamilyHandlers<R>;
  readonly reaches?: ((deps: AppDeps) => ReachLookups) | undefined;
  /**
   * The routes, beyond the app's own, whose paths a miss is judged by (405 for another method of
   * one, else 404): the whole route table for the family that takes API Gateway's `$default`
   * route, which is sent every request no other route matches. Only that family's function carries
   * the table.
   */
  readonly misses?: (() => readonly Pick<RouteSpec, "method" | "path">[]) | undefined;
}

/** What builds a family's handlers: exactly one per declared route. */
type HandlersOf<R extends Readonly<Record<string, RouteDeclaration>>, H extends FamilyHandlers<R>> = (
  deps: AppDeps,
) => H & { [K in Exclude<keyof H, keyof R>]: never };

/**
 * A family module of `routes` served by `handlers`: a declared route without a handler, or a
 * handler without a declared route, does not type-check. A family whose routes reach resources held
 * by projects (`issue`, `dispatch`, `prompt`, `signal`, `relation`) passes `reaches`, which reads
 * where each such kind belongs (and, for a route a dispatch token takes on an issue or a prompt,
 * which dispatch works one: `dispatchOf`); the app refuses to build when a route reaches a kind it
 * does not read.
 * @example export const issueFamily = familyModule(issueApi, issueReaches, (deps) => ({ "GET /api/issues": … }));
 */
export function familyModule<const R extends Readonly<Record<string, RouteDeclaration>>, H extends FamilyHandlers<R>>(
  routes: R,
  handlers: HandlersOf<R, H>,
): FamilyModule<R>;
export function familyModule<const R extends Readonly<Record<string, RouteDeclaration>>, H extends FamilyHandlers<R>>(
  routes: R,
  reaches: (deps: AppDeps) => ReachLookups,
  handlers: HandlersOf<R, H>,
): FamilyModule<R>;
export function familyModule<const R extends Readonly<Record<string, RouteDeclaration>>, H extends FamilyHandlers<R>>(
  routes: R,
  first: HandlersOf<R, H> | ((deps: AppDeps) => ReachLookups),
  second?: HandlersOf<R, H>,
): FamilyModule<R> {
  if (second) return { routes, handlers: second, reaches: first as (deps: AppDeps) => ReachLookups };
  return { routes, handlers: first as HandlersOf<R, H> };
}

/** Any handler, whatever its declaration's input (a function of any input is one of `never`). */
type AnyRouteHandler = (c: Context<AppEnv>, input: never) => Response | Promise<Response>;

/** Families by name, each declaring exactly the routes the route table gives it. */
export type FamilyModules = {
  [F in Family]?: {
    readonly routes: Readonly<Record<RouteKey<F>, RouteDeclaration>>;
    readonly handlers: (deps: AppDeps) => Readonly<Record<RouteKey<F>, AnyRouteHandler>>;
    readonly reaches?: ((deps: AppDeps) => ReachLookups) | undefined;
  };
};

/**
 * Builds one Hono app serving the given families' routes on the shared middleware. An API route
 * (auth `bearer`, or taking an Idempotency-Key) runs `options.callers` first (./caller-checks.ts;
 * the composition root hands them in: core/src/services.ts `createApp`); an app of such routes
 * without them is not built. The webhook receivers' app needs none.
 * @example const app = createHttpApp({ issues: issueFamily }, deps, { callers: callerChecks(deps) });
 */
export function createHttpApp(
  families: FamilyModules,
  deps: AppDeps,
  options: { callers?: CallerChecks } = {},
): Hono<AppEnv> {
  const logger = deps.logger ?? defaultLogger;
  const app = new Hono<AppEnv>();

  app.use(
    requestId({
      headerName: REQUEST_ID_HEADER,
      // Behind API Gateway, reuse its request id so gateway and function logs correlate.
      generator: (c) => (c.env as LambdaEnv | undefined)?.requestContext?.requestId ?? crypto.randomUUID(),
    }),
  );
  // The id goes on every answer (docs/api.md#envelopes), a handler's own `Response` too (the remote MCP
  // transport's): Hono gives a returned `Response` none of the headers set before it was made.
  app.use(async (c, next) => {
    await next();
    if (!c.res.headers.has(REQUEST_ID_HEADER)) c.res = withHeader(c.res, REQUEST_ID_HEADER, c.get("requestId"));
  });
  app.use(requestLog(logger, deps.db, families));
  if (deps.config.corsAllowedOrigins.length > 0) app.use(crossOrigin(deps.config.corsAllowedOrigins));
  // Before the routes: the family's `:id` route would otherwise take another method of its static path.
  for (const [path, allowed] of shadowedStaticPaths(families)) app.use(path, staticRoutesOnly(allowed));

  for (const family of Object.keys(families) as Family[]) {
    const {
      routes,
      handlers: build,
      reaches,
    } = families[family] as unknown as FamilyModule<Record<string, RouteDeclaration>>;
    const handlers = build(deps);
    const lookups = reaches?.(deps) ?? {};
    for (const [key, declaration] of Object.entries(routes)) {
      const handler = handlers[key];
      if (!handler) throw new Error(`Family ${family} has no handler for ${key}`);
      const lookedUp = lookedUpReach(declaration.reach);
      if (lookedUp && !lookups[lookedUp]) {
        throw new Error(
          `Family ${family}: ${key} reaches a resource of kind ${lookedUp}, and no lookup of its project is given`,
        );
      }
      const token = declaration.token;
      if (token && token !== "dispatch" && !lookups.dispatchOf?.[token]) {
        throw new Error(
          `Family ${family}: ${key} takes a dispatch token on a ${token}, and no lookup of the dispatch working one is given`,
        );
      }
      const [method, path] = key.split(" ") as [HttpMethod, string];
      const spec: RouteSpec = { ...declaration, method, path };
      const callers = () => {
        if (!options.callers)
          throw new Error(`Family ${family}: ${key} is an API route, and no caller checks are given`);
        return options.callers;
      };
      const servedBy = { family, path };
      const middleware: MiddlewareHandler<AppEnv>[] = [
        async (c, next) => {
          c.set("servedBy", servedBy);
          await next();
        },
        ...(spec.auth === "bearer" ? callers().bearer(spec, declaredStatus(declaration), lookups) : []),
        ...(spec.auth === "webhook" && spec.provider ? [requireWebhookSecret(spec.provider, deps.config)] : []),
        ...(spec.method === "GET" ? [] : [limitBody(spec.bodyLimit ?? API_BODY_LIMIT_BYTES)]),
        ...(takesIdempotencyKey(spec) ? [callers().idempotent] : []),
      ];
      const noBody = takesNoBody(spec, declaration);
      // One parameter: Hono tells the handler from middleware by its arity. Runs after the
      // idempotency middleware, so a 400 is kept and replayed like any 4xx.
      const validated = async (c: Context<AppEnv>) => handler(c, await validatedInput(c, declaration, noBody));
      app.on(method, path, ...(middleware as [MiddlewareHandler<AppEnv>]), validated);
    }
  }

  // Judged on the first miss, not at a cold start: most instances never see one.
  const served = () =>
    Object.values(families).flatMap((module) => {
      const { routes, misses } = module as unknown as FamilyModule<Record<string, RouteDeclaration>>;
      const own = Object.keys(routes).map((key) => {
        const [method, path] = key.split(" ") as [HttpMethod, string];
        return { method, path };
      });
      return [...own, ...(misses?.() ?? [])];
    });
  let misses: ReturnType<typeof routeMisses> | undefined;
  app.notFound((c) => {
    misses ??= routeMisses(served());
    return errorResponse(c, misses(c));
  });
  // The error reaches the log through `c.error`: the request's one line carries it (requestLog).
  app.onError((error, c) => {
    // A conflict no retry took care of (a single-item write to an item a transaction held) is
    // transient: the client should send the request again, not treat it as a conflict of state.
    if (error instanceof TransactionConflictError) {
      return errorResponse(c, new UnavailableError(CONCURRENT_CHANGES_MESSAGE, { cause: error }));
    }
    if (error instanceof AppError) return errorResponse(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ error: error.message || "Bad request" }, error.status, { "Content-Type": JSON_CONTENT_TYPE });
    }
    return c.json({ error: "Internal server error" }, 500, { "Content-Type": JSON_CONTENT_TYPE });
  });
  return app;
}

/** The status a route's declaration says it answers with on success (the family's declarations give `success`). */
function declaredStatus(declaration: RouteDeclaration): number {
  const { success } = declaration as { success?: { status?: unknown } };
  return typeof success?.status === "number" ? success.status : 200;
}

/**
 * Exactly one JSON line per request, written once the response is settled: who served it (family,
 * route pattern), how it ended (status, duration), the DynamoDB calls and capacity this request
 * made (metered per request, so concurrent requests keep their own counts) and, for a 5xx, the
 * error with its causes. Nothing from the request's headers, query or body is logged; the path
 * is, with any credential in it redacted.
 */
function requestLog(logger: Logger, db: Db, families: FamilyModules): MiddlewareHandler<AppEnv> {
  const mounted = Object.keys(families) as Family[];
  // A path outside the table is still answered by some family's function behind the gateway.
  const unmatchedFamily: Family | "none" = mounted.length === 1 && mounted[0] ? mounted[0] : "none";
  return async (c, next) => {
    const started = performance.now();
    const { usage } = await db.metered(() => next());
    const servedBy = c.get("servedBy");
    const dispatchId = c.get("dispatchId");
    const status = c.res.status;
    const line = {
      requestId: c.get("requestId"),
      family: servedBy?.family ?? unmatchedFamily,
      method: c.req.method,
      route: servedBy?.path ?? "none",
      path: redactSecrets(c.req.path),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      dbCalls: usage.calls,
      dbReadCapacity: usage.readCapacity,
      dbWriteCapacity: usage.writeCapacity,
      ...(dispatchId === undefined ? {} : { dispatchId }),
    };
    const problems = c.get("problems");
    if (status >= 500)
      logger.error("request", {
        ...line,
        ...(c.error === undefined ? {} : { error: loggedError(c.error) }),
        ...(problems ? { problems } : {}),
      });
    else if (problems) logger.warn("request", { ...line, problems });
    else logger.info("request", line);
  };
}

/**
 * CORS (`CORS_ALLOWED_ORIGINS`, docs/api.md#configuration) for the listed origins only: their preflights are answered
 * 204 and their responses carry the policy's headers; any other origin gets no CORS header at all
 * and its preflight goes on to the route table like any request (404/405).
 */
function crossOrigin(origins: readonly string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(origins);
  const policy = cors({
    origin: [...origins],
    allowMethods: [...CORS_POLICY.allowMethods],
    allowHeaders: [...CORS_POLICY.allowHeaders],
    exposeHeaders: [...CORS_POLICY.exposeHeaders],
    maxAge: CORS_POLICY.maxAgeSeconds,
  });
  return async (c, next) => {
    const origin = c.req.header("Origin");
    if (origin !== undefined && allowed.has(origin)) return policy(c, next);
    await next();
    // Answers differ by origin; a shared cache must not hand one origin's answer to another.
    c.header("Vary", "Origin", { append: true });
  };
}

/**
 * A route's input as its declaration says: `If-Match` first (a malformed one is a 412 before any
 * 400), then the query or the JSON body through its schema (http/validation: the 400 names each field).
 * A route that takes no body (`noBody`) reads what is sent as an optional strict empty body: a
 * body it would otherwise ignore is refused, nothing changed (docs/api.md#envelopes).
 */
async function validatedInput(c: Context<AppEnv>, declaration: RouteDeclaration, noBody: boolean): Promise<RouteInput> {
  const version = declaration.ifMatch ? expectedVersion(c) : undefined;
  const query = declaration.query ? parseWith(declaration.query(), c.req.query(), "query") : undefined;
  const body = declaration.body
    ? parseWith(declaration.body(), await jsonBodyOf(c, declaration.bodyOptional === true), "body")
    : undefined;
  if (noBody) checkEmptyBody(await jsonBodyOf(c, true));
  return { query, body, expectedVersion: version } as RouteInput;
}

/** The JSON body as http/body reads it; `{}` for an optional body when none was sent (no bytes at all). */
async function jsonBodyOf(c: Context<AppEnv>, optional: boolean): Promise<unknown> {
  if (optional && (await c.req.arrayBuffer()).byteLength === 0) return {};
  return readJsonBody(c);
}

/** 413 for bodies over `maxSize` bytes, by declared length or as they stream in. */
function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new PayloadTooLargeError(maxSize);
    },
  });
}

/** A receiver whose secret is not configured answers 500 before it reads the body (docs/api.md#webhook-verification). */
function requireWebhookSecret(provider: WebhookProvider, config: Config): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    if (!config.webhookSecrets[provider]) {
      throw new ConfigurationError(`${WEBHOOK_SECRET_VARIABLES[provider]} is not configured`);
    }
    await next();
  };
}
