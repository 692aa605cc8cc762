/**
 * @module http/idempotency — the `Idempotency-Key` middleware of docs/api.md#concurrency-and-idempotency: the first request
 * with a key runs and its response is kept 24 h; the same request again gets that response back.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { Db } from "../db/db.js";
import { ConflictError, ValidationError } from "../errors.js";
import type { AppEnv } from "./env.js";
import { IdempotencyStore, type StoredResponse } from "./idempotency-store.js";
import { noteProblem } from "./logger.js";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/**
 * Headers of the first response that a replay repeats, those that say what the answer means (a claim's
 * `Kaizen-Claim-Stopped`, a 429's `Retry-After`); the rest (request id, …) are the replay's own.
 */
const REPLAYED_HEADERS = ["Content-Type", "Location", "ETag", "Retry-After", "Kaizen-Claim-Stopped"];
/** Statuses whose responses carry no body (a `Response` with one would not construct). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export const DIFFERENT_REQUEST_MESSAGE = "Idempotency-Key was used with a different request";
export const IN_PROGRESS_MESSAGE = "A request with this Idempotency-Key is still in progress";

export interface IdempotencyOptions {
  db: Db;
  /** The clock: claims expire 24 h after it reads. */
  now?: () => Date;
}

export { takesIdempotencyKey } from "../routes.js";

/**
 * The key a request carries: undefined without the header, 400 unless it is 1..255 visible ASCII characters.
 * @example parseIdempotencyKey(c.req.header("Idempotency-Key")) // "order-7" | undefined
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!VALID_KEY.test(header)) {
    throw new ValidationError(`${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters`);
  }
  return header;
}

/**
 * What makes two requests "the same request": SHA-256 (hex) over method, path and the raw body
 * bytes exactly as received (a reformatted JSON body is a different request).
 * @example requestFingerprint("POST", "/api/issues", new TextEncoder().encode('{"title":"x"}'))
 */
export function requestFingerprint(method: string, path: string, body: Uint8Array): string {
  // Neither an upper-case method nor a URL path contains a space or a newline: the prefix is unambiguous.
  return createHash("sha256").update(`${method.toUpperCase()} ${path}\n`, "utf8").update(body).digest("hex");
}

/**
 * Honours `Idempotency-Key` on the routes it guards; requests without the header pass through.
 * Runs after auth and the body limit. 2xx and 4xx responses are kept and replayed; a 5xx or a
 * thrown error releases the key so the client can retry. Keys are not scoped by route: one key
 * space for the whole API (see ./idempotency-store.ts); a request is its method, path and body, and
 * who sent it unless the root key did.
 * @example app.post("/api/issues", auth, limit, idempotency({ db }), handler)
 */
export function idempotency({ db, now = () => new Date() }: IdempotencyOptions): MiddlewareHandler<AppEnv> {
  const store = new IdempotencyStore(db);
  return async (c, next) => {
    const key = parseIdempotencyKey(c.req.header(IDEMPOTENCY_KEY_HEADER));
    if (key === undefined) return next();

    // Hono keeps the bytes, so the handler reads the same body afterwards.
    const body = new Uint8Array(await c.req.arrayBuffer());
    // A key of its own replays only its own requests: another caller's same key and request is
    // another request (409), never a replay of an answer it was not given. The root key's
    // fingerprint stays as it always was.
    const caller = c.get("caller");
    const fingerprint = requestFingerprint(c.req.method, c.req.path, body);
    const requestHash =
      caller && caller.kind !== "root"
        ? createHash("sha256").update(`${caller.kind}:${caller.id}\n${fingerprint}`, "utf8").digest("hex")
        : fingerprint;
    const claim = await store.claim(key, requestHash, now());
    if (!claim.claimed) {
      if (claim.record.requestHash !== requestHash) throw new ConflictError(DIFFERENT_REQUEST_MESSAGE);
      if (claim.record.state !== "completed" || !claim.record.response) {
        // The first request may have died with its claim (a 503 before its release): say when the key frees.
        const secondsLeft = Math.ceil((claim.record.inProgressUntil - now().getTime()) / 1000);
        throw new ConflictError(IN_PROGRESS_MESSAGE, { retryAfterSeconds: Math.max(1, secondsLeft) });
      }
      return replay(c, claim.record.response);
    }

    const release = async () => {
      try {
        await store.release(key, claim.token);
      } catch (error) {
        // The claim's lease runs out on its own; the client still gets the real answer now.
        noteProblem(c, "idempotency key release failed", error);
      }
    };
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    if (c.res.status >= 500 || c.res.status < 200) {
      await release();
      return;
    }
    try {
      await store.complete(key, claim.token, await captured(c.res));
    } catch (error) {
      // The request did its work: answer it. A retry after the lease may run it again.
      noteProblem(c, "idempotency response not stored", error);
    }
  };
}

async function captured(response: Response): Promise<StoredResponse> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, body: await response.clone().text(), headers };
}

function replay(c: Context, response: StoredResponse): Response {
  const headers = { ...response.headers, [IDEMPOTENT_REPLAYED_HEADER]: "true" };
  if (NULL_BODY_STATUSES.has(response.status)) return c.body(null, response.status as StatusCode, headers);
  return c.body(response.body, response.status as ContentfulStatusCode, headers);
}
