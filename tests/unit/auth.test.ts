import { describe, expect, it } from "vitest";
import { API_KEY_PATTERN } from "../../core/src/config.js";
import { generateApiKey, secretsEqual } from "../../core/src/http/auth.js";

describe("secretsEqual", () => {
  it("is true only for identical secrets, whatever their lengths", () => {
    expect(secretsEqual("kaizen_abc", "kaizen_abc")).toBe(true);
    expect(secretsEqual("kaizen_abc", "kaizen_abd")).toBe(false);
    expect(secretsEqual("kaizen_ab", "kaizen_abc")).toBe(false);
    expect(secretsEqual("", "kaizen_abc")).toBe(false);
    expect(secretsEqual("🔑", "🔑")).toBe(true);
  });
});

describe("generateApiKey", () => {
  it("makes keys of the documented format that differ every time", () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
  });
});
