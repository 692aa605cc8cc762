import { describe, expect, it } from "vitest";
import { webhookDeliveryHeaders } from "../../../core/src/webhooks/headers.js";

/** A case-insensitive header lookup, as Hono's. */
function lookup(headers: Record<string, string>) {
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return (name: string) => byName.get(name.toLowerCase());
}

describe("deliveryHeaders (docs/api.md#webhook-verification)", () => {
  it("read each provider's own header under the neutral name", () => {
    const github = webhookDeliveryHeaders(
      "codehost",
      lookup({
        "x-github-event": "issues",
        "x-github-delivery": "d-1",
        "x-github-hook-id": "7",
        "x-hub-signature-256": "sha256=ab",
      }),
    );
    expect(["X-Codehost-Event", "X-Codehost-Delivery", "X-Codehost-Hook-ID"].map(github.header)).toEqual([
      "issues",
      "d-1",
      "7",
    ]);
    expect(github.signature).toBe("sha256=ab");
    const sentry = webhookDeliveryHeaders(
      "errortracker",
      lookup({
        "Sentry-Hook-Resource": "issue",
        "Sentry-Hook-Timestamp": "1",
        "Sentry-Hook-Signature": "cd",
        "Request-ID": "r",
      }),
    );
    expect(["X-Errortracker-Hook-Resource", "X-Errortracker-Hook-Timestamp", "Request-ID"].map(sentry.header)).toEqual([
      "issue",
      "1",
      "r",
    ]);
    expect(sentry.signature).toBe("cd");
  });

  it("let the neutral name win, and a blank one give way", () => {
    const both = webhookDeliveryHeaders("codehost", lookup({ "X-Codehost-Event": "issues", "X-GitHub-Event": "push" }));
    expect(both.header("X-Codehost-Event")).toBe("issues");
    const blank = webhookDeliveryHeaders("codehost", lookup({ "X-Codehost-Event": "  ", "X-GitHub-Event": "push" }));
    expect(blank.header("X-Codehost-Event")).toBe("push");
    expect(webhookDeliveryHeaders("codehost", lookup({})).header("X-Codehost-Event")).toBeUndefined();
  });

  it("call two signatures that differ a conflict; the same one (code-host hex in any case) is not", () => {
    const differ = webhookDeliveryHeaders(
      "errortracker",
      lookup({ "X-Errortracker-Hook-Signature": "aa", "Sentry-Hook-Signature": "bb" }),
    );
    expect(differ.signature).toBe("conflict");
    const same = webhookDeliveryHeaders(
      "codehost",
      lookup({ "X-Codehost-Signature-256": "sha256=ABCD", "X-Hub-Signature-256": "sha256=abcd" }),
    );
    expect(same.signature).toBe("sha256=ABCD");
    // Sentry's hex is verified as lowercase only, so case matters there.
    const cased = webhookDeliveryHeaders(
      "errortracker",
      lookup({ "X-Errortracker-Hook-Signature": "ab", "Sentry-Hook-Signature": "AB" }),
    );
    expect(cased.signature).toBe("conflict");
  });

  it("give the analytics receiver only its neutral secret header", () => {
    expect(webhookDeliveryHeaders("analytics", lookup({ "X-Analytics-Secret": "s" })).signature).toBe("s");
    expect(webhookDeliveryHeaders("analytics", lookup({ "X-Hub-Signature-256": "s" })).signature).toBeUndefined();
  });
});
