/**
 * Timestamps as the API answers them, ISO-8601 UTC with milliseconds (docs/api.md#identifiers-and-fields):
 * the request field every timestamp a client sends goes through (core/src/http/resource-fields.ts),
 * and the reads of providers' times and of times stored before they were normalised
 * (core/src/http/timestamps.ts).
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { TIMESTAMP_MESSAGE, timestampGiven } from "../../../core/src/http/resource-fields.js";
import { providerTimestamp, storedTimestamp, utcTimestamp } from "../../../core/src/http/timestamps.js";

const API_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("a timestamp a client sends", () => {
  const field = timestampGiven();

  it.each([
    ["2030-01-01T00:00:00Z", "2030-01-01T00:00:00.000Z"],
    ["2030-01-01T00:00:00.000Z", "2030-01-01T00:00:00.000Z"],
    ["2030-01-01T02:30:00+02:30", "2030-01-01T00:00:00.000Z"],
    ["2029-12-31T19:00:00-05:00", "2030-01-01T00:00:00.000Z"],
    ["2030-01-01T00:00:00.123456789Z", "2030-01-01T00:00:00.123Z"],
    ["2030-01-01T00:00:00.5Z", "2030-01-01T00:00:00.500Z"],
  ])("%s is taken as %s", (given, kept) => {
    expect(z.parse(field, given)).toBe(kept);
  });

  it.each(["2030-01-01", "2030-01-01T00:00:00", "2030-02-30T00:00:00Z", "tomorrow", "1893456000"])(
    "%s is refused, with the message of every timestamp field",
    (given) => {
      const result = z.safeParse(field, given);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(TIMESTAMP_MESSAGE);
    },
  );

  it("is shown in the OpenAPI document as a date-time, sent and answered", () => {
    expect(z.toJSONSchema(field, { io: "input" })).toMatchObject({ type: "string", format: "date-time" });
    expect(z.toJSONSchema(field, { io: "output" })).toMatchObject({ type: "string", format: "date-time" });
  });
});

describe("a provider's time", () => {
  it("is read in the API's form, whatever its offset and precision", () => {
    expect(providerTimestamp("2026-11-29T00:00:00Z")).toBe("2026-11-29T00:00:00.000Z");
    expect(providerTimestamp("2026-11-29T09:00:00+09:00")).toBe("2026-11-29T00:00:00.000Z");
    expect(providerTimestamp("2026-11-29T09:00:00+0900")).toBe("2026-11-29T00:00:00.000Z");
    expect(providerTimestamp("2026-11-29T00:00:00.120000Z")).toBe("2026-11-29T00:00:00.120Z");
  });

  it("is none when it names no instant: not a string, no offset, or not a time at all", () => {
    for (const value of [undefined, null, 1795910400, "", "yesterday", "2026-11-29", "2026-11-29T00:00:00"]) {
      expect(providerTimestamp(value), String(value)).toBeUndefined();
    }
  });
});

describe("a stored time", () => {
  it("reads in the API's form when an earlier release kept it as sent", () => {
    expect(storedTimestamp("2030-01-01T00:00:00Z")).toBe("2030-01-01T00:00:00.000Z");
    expect(storedTimestamp("2030-01-01T01:00:00+01:00")).toBe("2030-01-01T00:00:00.000Z");
    expect(storedTimestamp("2030-01-01T00:00:00.000Z")).toBe("2030-01-01T00:00:00.000Z");
  });

  it("reads as stored when it names no instant, and as null when absent", () => {
    expect(storedTimestamp("soon")).toBe("soon");
    expect(storedTimestamp(undefined)).toBeNull();
    expect(storedTimestamp(null)).toBeNull();
  });

  it("is written once in the API's form, which normalising again leaves alone", () => {
    const once = utcTimestamp("2030-06-01T12:00:00-07:00");
    expect(once).toMatch(API_FORM);
    expect(utcTimestamp(once)).toBe(once);
    expect(storedTimestamp(once)).toBe(once);
  });
});
