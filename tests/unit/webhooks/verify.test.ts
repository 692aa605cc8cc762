import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  signCodehost,
  signErrortracker,
  verifyAnalyticsSecret,
  verifyCodehostSignature,
  verifyErrortrackerSignature,
} from "../../../core/src/webhooks/verify.js";
import { fixtureBytes, loadFixture } from "../../helpers/fixtures.js";

const SECRET = "whsec_c0dehost-test";
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A copy of `bytes` with one byte changed. */
function tampered(bytes: Uint8Array, at: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

describe("signCodehost", () => {
  it("is sha256= and the HMAC-SHA256 hex of the raw bytes (a string signs as its UTF-8 bytes)", () => {
    const expected = createHmac("sha256", SECRET).update(Buffer.from('{"zen":"ok"}')).digest("hex");
    expect(signCodehost(utf8('{"zen":"ok"}'), SECRET)).toBe(`sha256=${expected}`);
    expect(signCodehost('{"zen":"ok"}', SECRET)).toBe(`sha256=${expected}`);
  });
});

describe("verifyCodehostSignature", () => {
  const body = utf8('{"action":"opened","issue":{"number":1,"title":"Login fails"}}');
  const header = signCodehost(body, SECRET);

  it("accepts the sender's signature, in either hex case", () => {
    expect(verifyCodehostSignature(body, header, SECRET)).toBe(true);
    expect(verifyCodehostSignature(body, `sha256=${header.slice(7).toUpperCase()}`, SECRET)).toBe(true);
    expect(verifyCodehostSignature(body, `SHA256=${header.slice(7)}`, SECRET)).toBe(true);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["without the sha256= prefix", header.slice(7)],
    ["with another algorithm", `sha1=${header.slice(7)}`],
    ["truncated", header.slice(0, -1)],
    ["too long", `${header}0`],
    ["not hex", `sha256=${"z".repeat(64)}`],
    ["with two signatures", `${header},${header}`],
  ])("rejects a header that is %s", (_, presented) => {
    expect(verifyCodehostSignature(body, presented, SECRET)).toBe(false);
  });

  it("rejects a wrong secret and an empty (unconfigured) one", () => {
    expect(verifyCodehostSignature(body, header, `${SECRET}x`)).toBe(false);
    expect(verifyCodehostSignature(body, signCodehost(body, ""), "")).toBe(false);
  });

  it("rejects the body with any single byte changed", () => {
    for (const at of [0, 10, body.length - 1]) {
      expect(verifyCodehostSignature(tampered(body, at), header, SECRET)).toBe(false);
    }
  });

  it("signs bytes, not JSON: multi-byte UTF-8 verifies exactly as sent, and escapes are not literals", () => {
    const literal = utf8('{"title":"Café ☕ 🚀 登录失败"}');
    expect(verifyCodehostSignature(literal, signCodehost(literal, SECRET), SECRET)).toBe(true);

    const escaped = utf8('{"title":"Caf\\u00e9"}');
    const plain = utf8('{"title":"Café"}');
    expect(JSON.parse(new TextDecoder().decode(escaped))).toEqual(JSON.parse(new TextDecoder().decode(plain)));
    expect(verifyCodehostSignature(escaped, signCodehost(plain, SECRET), SECRET)).toBe(false);
    expect(verifyCodehostSignature(plain, signCodehost(escaped, SECRET), SECRET)).toBe(false);

    const spaced = utf8('{"a": 1}');
    expect(verifyCodehostSignature(spaced, signCodehost('{"a":1}', SECRET), SECRET)).toBe(false);
  });

  it("verifies a body that is not JSON at all (a form-encoded delivery)", () => {
    const form = utf8(`payload=${encodeURIComponent('{"zen":"Design for failure."}')}`);
    expect(verifyCodehostSignature(form, signCodehost(form, SECRET), SECRET)).toBe(true);
  });
});

describe("signErrortracker", () => {
  it("is the lowercase HMAC-SHA256 hex of the text as given", () => {
    const expected = createHmac("sha256", SECRET).update('{"a":1}', "utf8").digest("hex");
    expect(signErrortracker('{"a":1}', SECRET)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("verifyErrortrackerSignature", () => {
  const payload = loadFixture("errortracker/issue.created.json");
  const rawBody = fixtureBytes("errortracker/issue.created.json");
  const header = signErrortracker(JSON.stringify(payload), SECRET);

  it("accepts the signature of the payload's JSON.stringify form, whatever the delivered whitespace", () => {
    // The fixture file is pretty-printed: its bytes differ from the signed text, its JSON does not.
    expect(new TextDecoder().decode(rawBody)).not.toBe(JSON.stringify(payload));
    expect(verifyErrortrackerSignature(rawBody, header, SECRET)).toBe(true);
    expect(verifyErrortrackerSignature(utf8('{"a": 1}'), signErrortracker('{"a":1}', SECRET), SECRET)).toBe(true);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["uppercase", header.toUpperCase()],
    ["prefixed", `sha256=${header}`],
    ["truncated", header.slice(0, -1)],
  ])("rejects a header that is %s", (_, presented) => {
    expect(verifyErrortrackerSignature(rawBody, presented, SECRET)).toBe(false);
  });

  it("verifies a body that is not JSON on its own bytes, so the receiver can answer 400 for it", () => {
    const notJson = utf8("{not json");
    expect(verifyErrortrackerSignature(notJson, signErrortracker("{not json", SECRET), SECRET)).toBe(true);
    expect(verifyErrortrackerSignature(notJson, signErrortracker("{not json", "another-secret"), SECRET)).toBe(false);
    expect(verifyErrortrackerSignature(notJson, header, SECRET)).toBe(false);
  });

  it("rejects a wrong secret and an empty (unconfigured) one", () => {
    expect(verifyErrortrackerSignature(rawBody, header, "another-secret")).toBe(false);
    expect(verifyErrortrackerSignature(rawBody, signErrortracker(JSON.stringify(payload), ""), "")).toBe(false);
  });

  it("rejects a payload with one value changed", () => {
    const body = utf8('{"action":"created","data":{"issue":{"id":"1"}}}');
    const signature = signErrortracker('{"action":"created","data":{"issue":{"id":"1"}}}', SECRET);
    expect(verifyErrortrackerSignature(body, signature, SECRET)).toBe(true);
    expect(
      verifyErrortrackerSignature(utf8('{"action":"created","data":{"issue":{"id":"2"}}}'), signature, SECRET),
    ).toBe(false);
    // A byte of whitespace is not a change; a byte in a value is.
    expect(
      verifyErrortrackerSignature(utf8('{"action": "created","data":{"issue":{"id":"1"}}}'), signature, SECRET),
    ).toBe(true);
  });

  it("treats \\u00e9 and a literal é alike (both parse to the same string) and verifies emoji and CJK", () => {
    const signature = signErrortracker(JSON.stringify({ title: "Café" }), SECRET);
    expect(verifyErrortrackerSignature(utf8('{"title":"Caf\\u00e9"}'), signature, SECRET)).toBe(true);
    expect(verifyErrortrackerSignature(utf8('{"title":"Café"}'), signature, SECRET)).toBe(true);

    const wide = { title: "TypeError: 无法读取属性 🚨", culprit: "ログイン" };
    expect(
      verifyErrortrackerSignature(
        utf8(JSON.stringify(wide, null, 2)),
        signErrortracker(JSON.stringify(wide), SECRET),
        SECRET,
      ),
    ).toBe(true);
  });

  it("never throws for a body that is not UTF-8 JSON: it verifies on the body's bytes, and on nothing else", () => {
    for (const body of [utf8(""), utf8("not json"), utf8('{"a":'), new Uint8Array([0x7b, 0xff, 0x7d])]) {
      const onBytes = createHmac("sha256", SECRET).update(body).digest("hex");
      expect(verifyErrortrackerSignature(body, onBytes, SECRET)).toBe(true);
      expect(verifyErrortrackerSignature(body, signErrortracker("{}", SECRET), SECRET)).toBe(false);
    }
  });
});

describe("verifyAnalyticsSecret", () => {
  it("accepts exactly the configured secret", () => {
    expect(verifyAnalyticsSecret(SECRET, SECRET)).toBe(true);
    expect(verifyAnalyticsSecret("ключ 🔑", "ключ 🔑")).toBe(true);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["a prefix", SECRET.slice(0, -1)],
    ["longer", `${SECRET} `],
    ["another case", SECRET.toUpperCase()],
  ])("rejects a header that is %s", (_, presented) => {
    expect(verifyAnalyticsSecret(presented, SECRET)).toBe(false);
  });

  it("rejects everything when the secret is empty (unconfigured)", () => {
    expect(verifyAnalyticsSecret("", "")).toBe(false);
  });
});
