import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import {
  deliveryKey,
  fingerprintKey,
  newSignalId,
  payloadChunkKey,
  SIGNAL_LISTINGS,
  signalKey,
  signalListings,
  signalSortKey,
  timeFloor,
} from "../../../core/src/signals/keys.js";

describe("signal keys", () => {
  it("name the entity and version, and keep a signal's chunks in its partition", () => {
    expect(signalKey("sig_1")).toEqual({ pk: "$kaizen#signal_1#sig_1", sk: "$kaizen#signal_1" });
    expect(payloadChunkKey("sig_1", 3)).toEqual({ pk: "$kaizen#signal_1#sig_1", sk: "$kaizen#signalpayload_1#0003" });
    expect(deliveryKey("codehost", "abc")).toEqual({ pk: "$kaizen#delivery_1#codehost#abc", sk: "$kaizen#delivery_1" });
    expect(fingerprintKey("codehost:issue:o/r#1").pk).toBe("$kaizen#fingerprint_1#codehost:issue:o/r#1");
  });

  it("hash key parts that would be too long for DynamoDB, keeping them distinct", () => {
    const long = "x".repeat(3000);
    const key = fingerprintKey(long).pk;
    expect(key.length).toBeLessThan(200);
    expect(key).not.toBe(fingerprintKey(`${long}y`).pk);
    expect(deliveryKey("analytics", long).pk).toMatch(/^\$kaizen#delivery_1#analytics#sha256:[0-9a-f]{64}$/);
  });

  it("give ids whose time is receivedAt, sorting in time order", () => {
    const { id, receivedAt } = newSignalId(Date.parse("2026-05-06T07:08:09.010Z"));
    expect(receivedAt).toBe("2026-05-06T07:08:09.010Z");
    expect(decodeTime(signalSortKey(id))).toBe(Date.parse(receivedAt));
    const earlier = newSignalId(Date.parse("2026-05-06T07:08:09.009Z")).id;
    expect(signalSortKey(earlier) < signalSortKey(id)).toBe(true);
  });

  it("bucket by hour, with bounds that enclose the hour's ids", () => {
    const at = Date.parse("2026-05-06T07:30:00.000Z");
    const sk = signalSortKey(newSignalId(at).id);
    const bucket = SIGNAL_LISTINGS.bucketOf(sk);
    expect(sk >= SIGNAL_LISTINGS.bucketStart(bucket)).toBe(true);
    expect(sk < SIGNAL_LISTINGS.bucketEnd(bucket)).toBe(true);
    expect(SIGNAL_LISTINGS.bucketStart(bucket)).toBe(timeFloor(Date.parse("2026-05-06T07:00:00.000Z")));
    const nextHour = signalSortKey(newSignalId(Date.parse("2026-05-06T08:00:00.000Z")).id);
    expect(SIGNAL_LISTINGS.bucketOf(nextHour) > bucket).toBe(true);
    expect(nextHour >= SIGNAL_LISTINGS.bucketEnd(bucket)).toBe(true);
  });

  it("list a signal in all, its source, type, severity, action and issue", () => {
    expect(
      signalListings({ source: "codehost", type: "push", severity: "low", action: "recorded", issueId: null }),
    ).toEqual(["all", "source=codehost", "type=push", "severity=low", "action=recorded"]);
    expect(
      signalListings({ source: "ops", type: "x", severity: "high", action: "opened", issueId: "iss_1" }),
    ).toContain("issue=iss_1");
  });
});
