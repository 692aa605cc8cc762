/** What the logs may say (core/src/http/logger.ts): credentials in text the service did not compose are cut out. */
import { describe, expect, it } from "vitest";
import { loggedError, redactSecrets } from "../../../core/src/http/logger.js";

describe("redactSecrets", () => {
  it.each([
    [`key kaizen_${"ab".repeat(32)} refused`, "key [redacted] refused"],
    [`token kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0f".repeat(32)}`, "token [redacted]"],
    ["hand-off with ghp_abcdefghijklmnopqrstuvwxyz0123 failed", "hand-off with [redacted] failed"],
    ["github_pat_11ABCDEFG0abcdefghijklmnop_qrstuvwxyz in a message", "[redacted] in a message"],
    ["Authorization: Bearer anything-at-all", "Authorization: [redacted]"],
    ["nothing secret in ghp_short", "nothing secret in ghp_short"],
  ])("%s", (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it("applies to an error's message, stack and causes", () => {
    const error = new Error("refused", { cause: new Error("with ghp_abcdefghijklmnopqrstuvwxyz0123") });
    const logged = loggedError(error);
    expect(JSON.stringify(logged)).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123");
    expect(logged.cause?.message).toBe("with [redacted]");
  });
});
