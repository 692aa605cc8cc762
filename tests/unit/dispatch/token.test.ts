import { createHash, timingSafeEqual } from "node:crypto";
import { ulid } from "ulid";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DISPATCH_TOKEN_PATTERN,
  dispatchIdOfToken,
  newDispatchToken,
  tokenMatches,
} from "../../../core/src/dispatch/token.js";

// ESM namespaces cannot be spied on in place, so node:crypto is replaced by itself with
// timingSafeEqual wrapped: the real comparison still runs, and the calls can be inspected.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const newDispatchId = () => `dsp_${ulid()}`;

afterEach(() => {
  vi.mocked(timingSafeEqual).mockClear();
});

describe("newDispatchToken", () => {
  it("makes tokens of the documented shape carrying the dispatch's ULID", () => {
    const id = newDispatchId();
    const { token } = newDispatchToken(id);
    expect(token).toMatch(DISPATCH_TOKEN_PATTERN);
    expect(token).toMatch(/^kzd_[0-9A-HJKMNP-TV-Z]{26}_[0-9a-f]{64}$/);
    expect(token.slice(4, 30)).toBe(id.slice(4));
  });

  it("makes a different token every time, even for one dispatch", () => {
    const id = newDispatchId();
    const tokens = new Set(Array.from({ length: 1_000 }, () => newDispatchToken(id).token));
    expect(tokens.size).toBe(1_000);
  });

  it("returns the sha256 hex of the token as the hash, never the token itself", () => {
    const { token, hash } = newDispatchToken(newDispatchId());
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(token);
    expect(token).not.toContain(hash);
    expect(hash).toBe(createHash("sha256").update(token, "utf8").digest("hex"));
  });

  it.each([
    "",
    "dsp_",
    "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V2W",
    "dsp_01j2zq5k8y3m4n6p7r9s0t1v2w",
    "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2",
    "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2WX",
    "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2I",
    "dsp_81J2ZQ5K8Y3M4N6P7R9S0T1V2W",
  ])("refuses %j, which is not a dispatch id", (id) => {
    expect(() => newDispatchToken(id)).toThrow(/Not a dispatch id/);
  });
});

describe("dispatchIdOfToken", () => {
  it("reads back the dispatch id the token was made for", () => {
    for (let i = 0; i < 100; i++) {
      const id = newDispatchId();
      expect(dispatchIdOfToken(newDispatchToken(id).token)).toBe(id);
    }
  });

  it.each([
    "",
    "kzd_",
    `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"a".repeat(63)}`,
    `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"a".repeat(65)}`,
    `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"A".repeat(64)}`,
    `kzd_01j2zq5k8y3m4n6p7r9s0t1v2w_${"a".repeat(64)}`,
    `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W-${"a".repeat(64)}`,
    ` kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"a".repeat(64)}`,
    `Bearer kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"a".repeat(64)}`,
    `kaizen_${"a".repeat(64)}`,
  ])("is undefined for %j", (token) => {
    expect(dispatchIdOfToken(token)).toBeUndefined();
  });
});

describe("tokenMatches", () => {
  it("accepts only the token the hash was made from", () => {
    const { token, hash } = newDispatchToken(newDispatchId());
    expect(tokenMatches(token, hash)).toBe(true);
    expect(tokenMatches(token, hash.toUpperCase())).toBe(true);
    const lastHex = token.at(-1) === "0" ? "1" : "0";
    expect(tokenMatches(`${token.slice(0, -1)}${lastHex}`, hash)).toBe(false);
    expect(tokenMatches(`${token} `, hash)).toBe(false);
    expect(tokenMatches(hash, hash)).toBe(false);
    expect(tokenMatches("", hash)).toBe(false);
  });

  it("refuses a token of another dispatch, and another token of the same dispatch", () => {
    const id = newDispatchId();
    const mine = newDispatchToken(id);
    const again = newDispatchToken(id);
    const other = newDispatchToken(newDispatchId());
    expect(tokenMatches(other.token, mine.hash)).toBe(false);
    expect(tokenMatches(mine.token, other.hash)).toBe(false);
    expect(tokenMatches(again.token, mine.hash)).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["too short", "ab".repeat(31)],
    ["too long", "ab".repeat(33)],
    ["odd length", "a".repeat(63)],
    ["not hex", "z".repeat(64)],
    ["hex with a stray character", `${"a".repeat(63)}g`],
    ["base64 of a digest", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="],
    ["the token itself", "token"],
  ])("is false, not a throw, for a stored hash that is %s", (_, stored) => {
    const { token } = newDispatchToken(newDispatchId());
    const storedValue = stored === "token" ? token : stored;
    expect(() => tokenMatches(token, storedValue)).not.toThrow();
    expect(tokenMatches(token, storedValue)).toBe(false);
  });

  it("compares 32-byte digests with timingSafeEqual, whatever the lengths of token and stored value", async () => {
    // Loaded afresh, so it binds the wrapped node:crypto even where an earlier file of this worker
    // loaded it first (the unit tier shares modules between files).
    vi.resetModules();
    const fresh = await import("../../../core/src/dispatch/token.js");
    const { hash } = fresh.newDispatchToken(newDispatchId());
    const presented = ["", "x", "kzd_", "k".repeat(10_000), "🔑"];
    const stored = [hash, "", "abc", "f".repeat(128)];
    for (const token of presented) for (const value of stored) expect(fresh.tokenMatches(token, value)).toBe(false);

    const spy = vi.mocked(timingSafeEqual);
    expect(spy).toHaveBeenCalledTimes(presented.length * stored.length);
    for (const [a, b] of spy.mock.calls) {
      expect(a.byteLength).toBe(32);
      expect(b.byteLength).toBe(32);
    }
  });
});
