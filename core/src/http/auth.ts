/** @module http/auth — bearer authentication for `/api/*`: the service key (docs/api.md#authentication) and dispatch tokens (docs/api.md#dispatch). */
import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { API_KEY_PATTERN } from "../config.js";
import { ConfigurationError, ForbiddenError, UnauthorizedError } from "../errors.js";
import { type RouteSpec, SCOPES, type Scope, scopeAllows } from "../routes.js";
import { secretsEqual } from "./constant-time.js";
import type { AppEnv, Caller } from "./env.js";

export { secretsEqual } from "./constant-time.js";

/** The one 401 message: missing, malformed and wrong keys are indistinguishable to the caller. */
export const BEARER_FAILURE_MESSAGE = "Missing or malformed Authorization header";

/** The 403 message for a valid dispatch token used outside its own dispatch (docs/api.md#status-codes). */
export const TOKEN_FORBIDDEN_MESSAGE = "Token not allowed for this resource";

const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

/**
 * What every 401 of a bearer route carries besides its body: the scheme to authenticate with (RFC 6750,
 * docs/api.md#authentication), which MCP clients read before they ask for a credential.
 */
export const BEARER_CHALLENGE: Readonly<Record<string, string>> = { "WWW-Authenticate": "Bearer" };

function refused(): UnauthorizedError {
  return new UnauthorizedError(BEARER_FAILURE_MESSAGE, { ...BEARER_CHALLENGE });
}

/** The root key as a caller, and its previous value during a rotation (docs/operations.md#rotating-secrets). */
const ROOT: Caller = { kind: "root", id: "root", name: "root key", scopes: SCOPES, projectIds: null };
const ROOT_PREVIOUS: Caller = { ...ROOT, id: "root-previous", name: "previous root key" };

/** The resource a route's `:id` names for a dispatch token (RouteSpec `token`). */
export type DispatchTokenScope = NonNullable<RouteSpec["token"]>;

/** A dispatch token that checked out: its dispatch, and which resources it may act on. */
export interface TokenGrant {
  dispatchId: string;
  /** What the check read of the dispatch (opaque to this layer): its handler may start from it. */
  read?: unknown;
  /** Whether the resource a route's `:id` names (for the route's scope) is the dispatch's own. */
  owns(scope: DispatchTokenScope, id: string | undefined): boolean;
}

/**
 * Dispatch tokens, as the dispatch domain checks them (handed in by the composition root): the
 * grant of a token that matches an active dispatch, undefined for an unknown, wrong or ended one.
 */
export interface DispatchTokens {
  verify(presented: string): Promise<TokenGrant | undefined>;
}

/** What an API key of its own grants (docs/security.md), as the access domain checks it: undefined for an unknown, revoked or expired key. */
export interface KeyGrants {
  grantOf(
    presented: string,
  ): Promise<{ id: string; name: string; scopes: readonly Scope[]; projectIds: readonly string[] | null } | undefined>;
  /**
   * Whether dispatch `dispatchId` is one key `keyId` claimed, as the dispatch domain reads it (with
   * what it read, for the handler): a `dispatch` key works on its own dispatches only.
   */
  ownsDispatch(keyId: string, dispatchId: string): Promise<{ read?: unknown } | undefined>;
  /**
   * What the token of dispatch `dispatchId` may do now, when key `keyId` claimed it (undefined when
   * it did not, or once the token would be refused): a `dispatch` key acts there as that token.
   */
  tokenGrantOf(keyId: string, dispatchId: string): Promise<TokenGrant | undefined>;
}

/**
 * How a family finds the dispatch working what a token route's `:id` names (RouteSpec `token`), for a
 * `dispatch` key: an issue's open dispatch, the dispatch a prompt was rendered for (null or
 * undefined: none). A dispatch route's `:id` is the dispatch itself.
 */
export type DispatchLookups = Partial<
  Record<Exclude<DispatchTokenScope, "dispatch">, (ref: string) => Promise<string | null | undefined>>
>;

export interface BearerAuthOptions {
  apiKey: string | undefined;
  /** The root key before its last rotation, accepted beside `apiKey` (docs/operations.md#rotating-secrets). */
  previousApiKey?: string | undefined;
  /** Accepts dispatch tokens too, checked by the dispatch domain; service key only when unset. */
  dispatchTokens?: DispatchTokens;
  /** Which resource the route's `:id` names, for a token to act on; no scope: tokens are refused (403). */
  scope?: DispatchTokenScope;
  /** Accepts API keys of their own too, checked by the access domain; the root key only when unset. */
  keys?: KeyGrants;
  /** The scope the route needs of a key (its declaration's). */
  keyScope?: Scope;
  /** Which dispatch works the issue or prompt the route's `:id` names, for a `dispatch` key acting as its token. */
  dispatchOf?: DispatchLookups;
  /**
   * Lets in every valid credential whatever its scopes or dispatch (RouteSpec `anyCaller`): the
   * handler acts in the caller's name, and each of its calls is checked on its own.
   */
  anyCaller?: boolean;
}

/**
 * Requires `Authorization: Bearer <key>` equal to `apiKey` (or `previousApiKey`, during a rotation) or, with `dispatchTokens`, the token of an
 * active dispatch whose own resource the route's `:id` names (`scope`); the dispatch's id is then
 * in `c.get("dispatchId")`. A token that is unknown, wrong or ended is a 401 like a wrong key (each
 * with {@link BEARER_CHALLENGE}); a live token outside its dispatch is a 403. An API key needs the
 * route's scope (`keyScope`), but a `dispatch` key passes where the token of a dispatch it claimed
 * would (`scope`, `dispatchOf`), and works on no dispatch it did not claim. With `anyCaller`, any
 * valid key or live token passes whatever its scopes or dispatch. With no key configured every
 * request fails closed with 500, whatever it carries.
 * @example app.post("/api/dispatch/:id/heartbeat", bearerAuth({ apiKey, dispatchTokens, scope: "dispatch" }), handler)
 */
export function bearerAuth({
  apiKey,
  previousApiKey,
  dispatchTokens,
  scope,
  keys,
  keyScope,
  dispatchOf,
  anyCaller = false,
}: BearerAuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (apiKey === undefined) throw new ConfigurationError("SERVICE_API_KEY is not configured");
    const match = BEARER.exec(c.req.header("Authorization") ?? "");
    const presented = match?.[1] ?? "";
    // Compare even when the header is malformed, and against both keys whichever matches, so every
    // failure (and every success) costs the same.
    const current = secretsEqual(presented, apiKey);
    const previous = secretsEqual(presented, previousApiKey ?? apiKey) && previousApiKey !== undefined;
    if (match && (current || previous)) {
      c.set("caller", current ? ROOT : ROOT_PREVIOUS);
      return next();
    }
    if (keys && API_KEY_PATTERN.test(presented)) {
      const grant = await keys.grantOf(presented);
      if (!grant) throw refused();
      // Known before any refusal, so a 403 is recorded with who was refused.
      c.set("caller", {
        kind: "key",
        id: grant.id,
        name: grant.name,
        scopes: grant.scopes,
        projectIds: grant.projectIds,
      });
      if (anyCaller) return next();
      if (!keyScope || !grant.scopes.some((held) => scopeAllows(held, keyScope))) {
        // A dispatch key acts, on a dispatch it claimed, as that dispatch's token (docs/security.md#scopes).
        const asToken =
          scope && grant.scopes.includes("dispatch")
            ? await claimedDispatchGrant(keys, grant.id, scope, c.req.param("id"), dispatchOf)
            : undefined;
        if (!asToken) throw new ForbiddenError(`Key ${grant.name} lacks the ${keyScope ?? "admin"} scope`);
        if (asToken.read !== undefined) c.set("dispatchRead", asToken.read);
        return next();
      }
      // A dispatch key (not admin) works on the dispatches it claimed, and on no other.
      if (keyScope === "dispatch" && scope === "dispatch" && !grant.scopes.includes("admin")) {
        const dispatchId = c.req.param("id") ?? "";
        const owned = await keys.ownsDispatch(grant.id, dispatchId);
        if (!owned) throw new ForbiddenError(`Key ${grant.name} did not claim dispatch ${dispatchId}`);
        if (owned.read !== undefined) c.set("dispatchRead", owned.read);
      }
      return next();
    }
    if (!dispatchTokens) throw refused();
    const grant = await dispatchTokens.verify(presented);
    if (!grant) throw refused();
    c.set("caller", { kind: "dispatch", id: grant.dispatchId, name: grant.dispatchId, scopes: [], projectIds: null });
    if (!anyCaller && (!scope || !grant.owns(scope, c.req.param("id"))))
      throw new ForbiddenError(TOKEN_FORBIDDEN_MESSAGE);
    c.set("dispatchId", grant.dispatchId);
    if (grant.read !== undefined) c.set("dispatchRead", grant.read);
    return next();
  };
}

/**
 * The grant of the dispatch key `keyId` claimed that works what a token route's `:id` names (its
 * `scope`; an issue's or prompt's dispatch found through `dispatchOf`), when that dispatch's token
 * would be let through on the route; undefined otherwise.
 */
async function claimedDispatchGrant(
  keys: KeyGrants,
  keyId: string,
  scope: DispatchTokenScope,
  id: string | undefined,
  dispatchOf: DispatchLookups | undefined,
): Promise<TokenGrant | undefined> {
  if (id === undefined) return undefined;
  const dispatchId = scope === "dispatch" ? id : await dispatchOf?.[scope]?.(id);
  const grant = dispatchId ? await keys.tokenGrantOf(keyId, dispatchId) : undefined;
  return grant?.owns(scope, id) ? grant : undefined;
}

/**
 * The credential an `Authorization: Bearer <credential>` header presents; undefined for any other header.
 * @example presentedCredential("Bearer kzd_01J…_3f9c…") // "kzd_01J…_3f9c…"
 */
export function presentedCredential(header: string | undefined): string | undefined {
  return BEARER.exec(header ?? "")?.[1];
}

/**
 * A fresh service API key in the format of docs/api.md#authentication.
 * @example generateApiKey() // "kaizen_3f9c…" (64 hex characters)
 */
export function generateApiKey(): string {
  return `kaizen_${randomBytes(32).toString("hex")}`;
}
