import { describe, expect, it } from "vitest";
import { decodePayload, encodePayload, PAYLOAD_CHUNK_BYTES } from "../../../core/src/signals/payload.js";

describe("payload codec", () => {
  it("round-trips text exactly, multi-byte included, and counts UTF-8 bytes", () => {
    const text = '{"title":"Crash 🚀 漢字 é","escaped":"\\u00e9","n":1.50}';
    const encoded = encodePayload(text);
    expect(encoded.bytes).toBe(Buffer.byteLength(text, "utf8"));
    expect(encoded.chunks).toHaveLength(1);
    expect(decodePayload(encoded.chunks)).toBe(text);
  });

  it("compresses what compresses and splits what does not into chunks under the item limit", () => {
    const repetitive = JSON.stringify({ commits: Array(20_000).fill({ message: "fix the checkout flow" }) });
    expect(encodePayload(repetitive).chunks).toHaveLength(1);
    const random = Buffer.from(Array.from({ length: 1_000_000 }, () => Math.floor(Math.random() * 256))).toString(
      "base64",
    );
    const text = JSON.stringify({ noise: random });
    const encoded = encodePayload(text);
    expect(encoded.chunks.length).toBeGreaterThan(1);
    expect(encoded.chunks.every((chunk) => chunk.length <= PAYLOAD_CHUNK_BYTES)).toBe(true);
    expect(decodePayload(encoded.chunks)).toBe(text);
  });
});
