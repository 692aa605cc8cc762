import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import { RIDDEN_STEP_BACK_MS, timeOfId, ulidSource } from "../../../core/src/db/ids.js";

const AT = Date.parse("2026-11-28T09:00:00.000Z");

describe("ulidSource", () => {
  it("sorts ids made in the same millisecond in the order they were made", () => {
    const next = ulidSource();
    const ids = Array.from({ length: 50 }, () => next(AT));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => decodeTime(id) === AT)).toBe(true);
  });

  it("rides over a clock that steps back a little: the id keeps the previous instant and sorts after", () => {
    const next = ulidSource();
    const before = next(AT);
    const behind = next(AT - 5_000);
    expect(decodeTime(behind)).toBe(AT);
    expect(behind > before).toBe(true);
    // The edge of what is ridden over is still ridden over.
    expect(decodeTime(next(AT - RIDDEN_STEP_BACK_MS))).toBe(AT);
  });

  it("follows a clock that steps back further, and orders ids from there", () => {
    const next = ulidSource();
    next(AT + 3 * 86_400_000);
    const earlier = AT - 1;
    const first = next(earlier);
    expect(decodeTime(first)).toBe(earlier);
    const second = next(earlier);
    expect(second > first).toBe(true);
    expect(decodeTime(next(AT))).toBe(AT);
  });

  it("with nothing ridden over, every id names its own instant, and same-millisecond ids still sort", () => {
    const next = ulidSource(0);
    next(AT);
    const [first, second] = [next(AT - 1), next(AT - 1)];
    expect([decodeTime(first), decodeTime(second)]).toEqual([AT - 1, AT - 1]);
    expect(second > first).toBe(true);
  });
});

describe("timeOfId", () => {
  it("reads the instant a Kaizen id was made at from its ULID, and nothing from anything else", () => {
    const ulid = ulidSource()(AT);
    expect(timeOfId(`iss_${ulid}`)).toBe(AT);
    expect(timeOfId(`dsp_${ulid}`)).toBe(AT);
    expect(timeOfId(ulid)).toBeUndefined();
    expect(timeOfId("KZN-7")).toBeUndefined();
    expect(timeOfId(`iss_${ulid}x`)).toBeUndefined();
  });
});
