/**
 * Which writes are a change the audit log records (core/src/db/item-kinds.ts `isRecordedChange`):
 * the bookkeeping a request does on its way never carries its record, every kind of resource does.
 */
import { describe, expect, it } from "vitest";
import { auditKey } from "../../../core/src/access/audit-keys.js";
import { apiKeyKey } from "../../../core/src/access/keys.js";
import { isRecordedChange } from "../../../core/src/db/item-kinds.js";
import { claimerKey } from "../../../core/src/dispatch/keys.js";
import { idempotencyRecordKey } from "../../../core/src/http/idempotency-store.js";
import { issueKey } from "../../../core/src/issues/keys.js";
import { deliveryKey, signalSourceKey } from "../../../core/src/signals/keys.js";

describe("recorded changes", () => {
  it("leave out what a request writes on its way (idempotency, numbers, reservations, its place in line) and the log itself", () => {
    expect(isRecordedChange(String(signalSourceKey("pager").pk))).toBe(false);
    expect(isRecordedChange(String(deliveryKey("codehost", "d1").pk))).toBe(false);
    expect(isRecordedChange(String(idempotencyRecordKey("k").pk))).toBe(false);
    expect(isRecordedChange(String(claimerKey("all", "c1").pk))).toBe(false);
    expect(isRecordedChange(String(auditKey("aud_01ARZ3NDEKTSV4RRFFQ69G5FAV").pk))).toBe(false);
    expect(isRecordedChange("$kaizen#stream")).toBe(false);
  });

  it("count every resource, whatever its id", () => {
    expect(isRecordedChange(String(issueKey("iss_01ARZ3NDEKTSV4RRFFQ69G5FAV").pk))).toBe(true);
    expect(isRecordedChange(String(apiKeyKey("key_01ARZ3NDEKTSV4RRFFQ69G5FAV").pk))).toBe(true);
    // A kind whose name begins like an unrecorded one is still a change.
    expect(isRecordedChange("$kaizen#auditx_1#a")).toBe(true);
  });
});
