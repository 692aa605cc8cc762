/** @module dispatch/token — the secret a claim hands its agent (docs/api.md#dispatch): made, stored as a hash, checked. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { DispatchTokenScope, DispatchTokens, KeyGrants, TokenGrant } from "../http/auth.js";
import { parseIssueRef } from "../issues/keys.js";

/** Crockford base32 as a ULID spells it; the first character is at most 7 because a ULID is 128 bits. */
const ULID = "[0-7][0-9A-HJKMNP-TV-Z]{25}";
const DISPATCH_ID = new RegExp(`^dsp_(${ULID})$`);
const SHA256_HEX = /^[0-9a-f]{64}$/i;
const DIGEST_BYTES = 32;

/**
 * Shape: `kzd_` + the dispatch id's ULID (26 chars, Crockford base32 uppercase) + `_` + 64 lowercase
 * hex (32 random bytes). The id is inside so a request carrying only the token names its dispatch.
 * @example DISPATCH_TOKEN_PATTERN.test(`kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`) // true
 */
export const DISPATCH_TOKEN_PATTERN = new RegExp(`^kzd_(${ULID})_[0-9a-f]{64}$`);

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * A fresh token for `dispatchId` and the hash to store in its place (the token itself is shown once).
 * Throws on an id that is not `dsp_<ULID>`: ids are made by the server, so that is a bug, not a request.
 * @example const { token, hash } = newDispatchToken("dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2W") // token "kzd_01J2…_3f9c…"
 */
export function newDispatchToken(dispatchId: string): { token: string; hash: string } {
  const match = DISPATCH_ID.exec(dispatchId);
  if (!match) throw new Error(`Not a dispatch id: ${dispatchId}`);
  const token = `kzd_${match[1]}_${randomBytes(32).toString("hex")}`;
  return { token, hash: sha256(token).toString("hex") };
}

/**
 * The dispatch a token was made for, read from its shape alone; it proves nothing until
 * `tokenMatches` accepts the token against that dispatch's stored hash.
 * @example dispatchIdOfToken(token) // "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2W"; undefined for "Bearer xyz"
 */
export function dispatchIdOfToken(token: string): string | undefined {
  const match = DISPATCH_TOKEN_PATTERN.exec(token);
  return match ? `dsp_${match[1]}` : undefined;
}

/**
 * Whether `token` hashes to `storedHash`. Both sides are 32-byte digests before `timingSafeEqual`
 * sees them, so the time taken says nothing about the token; a stored value that is not 64 hex is
 * compared against zeros (never throws) and always fails.
 * @example tokenMatches(presented, dispatch.tokenHash) // true only for the token that claim returned
 */
export function tokenMatches(token: string, storedHash: string): boolean {
  const storedIsDigest = SHA256_HEX.test(storedHash);
  const stored = storedIsDigest ? Buffer.from(storedHash, "hex") : Buffer.alloc(DIGEST_BYTES);
  // Compare even when the stored value is unusable so every failure takes the same path.
  const equal = timingSafeEqual(sha256(token), stored);
  return storedIsDigest && equal;
}

/** What a token check needs to know of the dispatch a token names. */
export interface TokenDispatch {
  id: string;
  issueId: string;
  issueNumber: number;
  promptId: string | null;
  /** `expired` once its lease ran out, even before anything marked it so. */
  status: string;
  tokenHash: string;
  /** The dispatch as the check read it, for the request's handler to start from (opaque here). */
  read?: unknown;
  /** The API key of its own that claimed it, if one did. */
  claimedByKeyId?: string | null;
}

/**
 * What the token of `dispatch` may do now: while the dispatch is open (active, or waiting for a
 * person), act on its own dispatch, issue (by id or `KZN-<number>`) or prompt; once stopped, on its
 * own dispatch only; once ended otherwise, nothing (undefined).
 */
function grantOf(dispatch: TokenDispatch): TokenGrant | undefined {
  // A stopped dispatch's token still names it, so its calls there answer why it stopped (409);
  // it acts on nothing else.
  const stopped = dispatch.status === "stopped";
  const open = dispatch.status === "active" || dispatch.status === "waiting";
  if (!open && !stopped) return undefined;
  return {
    dispatchId: dispatch.id,
    ...(dispatch.read === undefined ? {} : { read: dispatch.read }),
    owns: (scope, id) => (!stopped || scope === "dispatch") && namesOwnResource(scope, id, dispatch),
  };
}

/**
 * The check the app's bearer auth is handed (http/auth.ts `DispatchTokens`): a token names its
 * dispatch, which `lookup` reads; it holds while it matches the stored hash, and grants what
 * {@link grantOf} says of its dispatch.
 * @example bearerAuth({ apiKey, dispatchTokens: dispatchTokenCheck((id) => tokenDispatchOf(db, id, now)) })
 */
export function dispatchTokenCheck(lookup: (dispatchId: string) => Promise<TokenDispatch | undefined>): DispatchTokens {
  return {
    async verify(presented) {
      const dispatchId = dispatchIdOfToken(presented);
      if (dispatchId === undefined) return undefined;
      const dispatch = await lookup(dispatchId);
      // Hash even for an unknown dispatch (against nothing, which never matches) so both cost the same.
      const matches = tokenMatches(presented, dispatch?.tokenHash ?? "");
      return dispatch && matches ? grantOf(dispatch) : undefined;
    },
  };
}

/**
 * What a `dispatch` key may do on the dispatches it claimed (docs/security.md#scopes), each check
 * reading dispatch `dispatchId` through `lookup` once and handing on what it read, as a token check
 * does: `ownsDispatch`, whether key `keyId` claimed it (an agent's steps, the key's own scope, which
 * answer for themselves once it ended); `tokenGrantOf`, what its token may do now ({@link grantOf})
 * when key `keyId` claimed it, for the routes beyond the key's scopes that a token takes.
 * @example const keys = { grantOf, ...keyDispatchChecks((id) => tokenDispatchOf(db, id, now)) };
 */
export function keyDispatchChecks(
  lookup: (dispatchId: string) => Promise<TokenDispatch | undefined>,
): Pick<KeyGrants, "ownsDispatch" | "tokenGrantOf"> {
  const claimed = async (keyId: string, dispatchId: string) => {
    // Not a dispatch id: nothing to read, and not one the key claimed.
    if (!DISPATCH_ID.test(dispatchId)) return undefined;
    const dispatch = await lookup(dispatchId);
    return dispatch?.claimedByKeyId === keyId ? dispatch : undefined;
  };
  return {
    async ownsDispatch(keyId, dispatchId) {
      const dispatch = await claimed(keyId, dispatchId);
      if (!dispatch) return undefined;
      return dispatch.read === undefined ? {} : { read: dispatch.read };
    },
    async tokenGrantOf(keyId, dispatchId) {
      const dispatch = await claimed(keyId, dispatchId);
      return dispatch ? grantOf(dispatch) : undefined;
    },
  };
}

/** Whether a path's `:id` is the dispatch's own dispatch, issue (by id or `KZN-<number>`) or prompt. */
function namesOwnResource(scope: DispatchTokenScope, id: string | undefined, dispatch: TokenDispatch): boolean {
  if (id === undefined) return false;
  switch (scope) {
    case "dispatch":
      return id === dispatch.id;
    case "issue":
      return id === dispatch.issueId || parseIssueRef(id) === dispatch.issueNumber;
    case "prompt":
      return dispatch.promptId !== null && id === dispatch.promptId;
  }
}
