import { describe, expect, it } from "vitest";
import { PROMPT_PAYLOAD_BYTES, promptPayload } from "../../../core/src/templates/prompt-context-builder.js";
import { boundedPromptText, MAX_PROMPT_BYTES } from "../../../core/src/templates/prompt-renderer.js";

describe("boundedPromptText", () => {
  it("leaves text within the limit alone", () => {
    const text = "é".repeat(MAX_PROMPT_BYTES / 2);
    expect(boundedPromptText(text)).toBe(text);
  });

  it.each([
    ["ASCII", "a"],
    ["two-byte", "é"],
    ["three-byte", "漢"],
    ["four-byte", "🚀"],
  ])("cuts longer %s text at a character boundary, within the limit, with a note", (_name, unit) => {
    const text = unit.repeat(MAX_PROMPT_BYTES + 1);
    const bounded = boundedPromptText(text);
    expect(Buffer.byteLength(bounded, "utf8")).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
    expect(Buffer.byteLength(bounded, "utf8")).toBeGreaterThan(MAX_PROMPT_BYTES - 200);
    expect(bounded).toMatch(/\[This prompt was cut at 300 KB; .*\]$/);
    expect(bounded).not.toContain("\uFFFD");
    expect(text.startsWith(bounded.slice(0, bounded.indexOf("\n\n[This prompt")))).toBe(true);
  });
});

describe("promptPayload", () => {
  it("keeps a payload up to the limit whole and names a larger one with where to read it", () => {
    const small = { message: "x".repeat(PROMPT_PAYLOAD_BYTES - 20) };
    expect(promptPayload("sig_1", small, "https://k.example")).toBe(small);
    const large = { message: "x".repeat(PROMPT_PAYLOAD_BYTES) };
    expect(promptPayload("sig_1", large, "https://k.example")).toEqual({
      truncated: true,
      bytes: Buffer.byteLength(JSON.stringify(large)),
      url: "https://k.example/api/signals/sig_1",
    });
  });
});
