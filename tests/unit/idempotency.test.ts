import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../core/src/errors.js";
import { parseIdempotencyKey, requestFingerprint, takesIdempotencyKey } from "../../core/src/http/idempotency.js";
import { type IdempotencyRecord, isClaimable } from "../../core/src/http/idempotency-store.js";
import { allRoutes } from "../../core/src/routes.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseIdempotencyKey", () => {
  it("is undefined without the header", () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it("accepts 1 to 255 visible ASCII characters as they are", () => {
    for (const key of ["a", "!", "~", "order-7:retry/1", "x".repeat(255), "0f8fad5b-d9cb-469f-a165-70867728950e"]) {
      expect(parseIdempotencyKey(key)).toBe(key);
    }
  });

  it("refuses empty, too long, spaced, control and non-ASCII keys with a 400 naming the header", () => {
    for (const key of ["", "x".repeat(256), "a b", " ", "a\tb", "tab\x7f", "clé", "🔑"]) {
      let thrown: unknown;
      try {
        parseIdempotencyKey(key);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(key)).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).status).toBe(400);
      expect((thrown as ValidationError).message).toContain("Idempotency-Key");
    }
  });
});

describe("requestFingerprint", () => {
  it("is the SHA-256 of method, path and the raw body bytes", () => {
    const expected = createHash("sha256").update('POST /api/issues\n{"title":"x"}').digest("hex");
    expect(requestFingerprint("POST", "/api/issues", bytes('{"title":"x"}'))).toBe(expected);
    expect(requestFingerprint("post", "/api/issues", bytes('{"title":"x"}'))).toBe(expected);
  });

  it("differs for another method, path or body, including the same JSON formatted differently", () => {
    const base = requestFingerprint("POST", "/api/issues", bytes('{"title":"x"}'));
    expect(requestFingerprint("PUT", "/api/issues", bytes('{"title":"x"}'))).not.toBe(base);
    expect(requestFingerprint("POST", "/api/signals", bytes('{"title":"x"}'))).not.toBe(base);
    expect(requestFingerprint("POST", "/api/issues", bytes('{"title":"y"}'))).not.toBe(base);
    expect(requestFingerprint("POST", "/api/issues", bytes('{ "title": "x" }'))).not.toBe(base);
    expect(requestFingerprint("POST", "/api/issues", bytes(""))).not.toBe(base);
  });

  it("does not let the path run into the body", () => {
    expect(requestFingerprint("POST", "/api/a", bytes("b"))).not.toBe(requestFingerprint("POST", "/api/ab", bytes("")));
  });

  it("hashes multi-byte UTF-8 bodies byte for byte", () => {
    const text = '{"title":"🚀 出荷"}';
    const expected = createHash("sha256")
      .update(Buffer.concat([Buffer.from("POST /api/issues\n"), Buffer.from(text, "utf8")]))
      .digest("hex");
    expect(requestFingerprint("POST", "/api/issues", bytes(text))).toBe(expected);
  });
});

describe("takesIdempotencyKey", () => {
  it("guards the bearer POST routes under /api/ and nothing else", () => {
    const guarded = allRoutes()
      .filter(takesIdempotencyKey)
      .map((route) => route.path);
    expect(guarded).toContain("/api/issues");
    expect(guarded).toContain("/api/signals");
    for (const route of allRoutes().filter(takesIdempotencyKey)) {
      expect(route.method).toBe("POST");
      expect(route.auth).toBe("bearer");
    }
    for (const receiver of ["/api/signals/codehost", "/api/signals/errortracker", "/api/signals/analytics"]) {
      expect(guarded).not.toContain(receiver);
    }
  });
});

describe("isClaimable", () => {
  const now = new Date("2025-06-01T12:00:00.000Z");
  const seconds = now.getTime() / 1000;
  const record = (fields: Partial<IdempotencyRecord>): IdempotencyRecord => ({
    key: "k",
    requestHash: "h",
    state: "completed",
    expiresAt: seconds + 3600,
    inProgressUntil: 0,
    response: { status: 201, body: "{}", headers: {} },
    ...fields,
  });

  it("keeps a completed record until it expires", () => {
    expect(isClaimable(record({}), now)).toBe(false);
    expect(isClaimable(record({ expiresAt: seconds + 1 }), now)).toBe(false);
    expect(isClaimable(record({ expiresAt: seconds }), now)).toBe(true);
    expect(isClaimable(record({ expiresAt: seconds - 3600 }), now)).toBe(true);
  });

  it("keeps an in-progress claim while its lease runs, and frees it after", () => {
    const running = record({ state: "in_progress", response: null, inProgressUntil: now.getTime() + 1 });
    expect(isClaimable(running, now)).toBe(false);
    expect(isClaimable({ ...running, inProgressUntil: now.getTime() }, now)).toBe(true);
    expect(isClaimable({ ...running, inProgressUntil: 0 }, now)).toBe(true);
  });
});
