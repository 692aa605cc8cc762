/**
 * What becomes of a completed dispatch's work (core/src/dispatch/outcome-marks.ts, docs/api.md#outcomes):
 * each mark changes the outcome once and names what it counts; a mark told twice, or about a watch
 * that is not the dispatch's pending one, counts nothing.
 */
import { describe, expect, it } from "vitest";
import { markOutcome, reportedOutcome, storedOutcome } from "../../../core/src/dispatch/outcome-marks.js";
import type { Verification } from "../../../core/src/issues/schemas.js";

const completed = reportedOutcome({ summary: "Fixed the timeout", commits: [], pullRequests: [] });
const watch: Verification = {
  status: "pending",
  mergedAt: "2026-03-02T09:00:00.000Z",
  until: "2026-03-05T09:00:00.000Z",
  regressedAt: null,
  signalId: null,
  dispatchId: "dsp_01HAAAAAAAAAAAAAAAAAAAAAAA",
};

describe("outcome marks", () => {
  it("start a completed outcome with no review round and no watch; old stored outcomes read the same", () => {
    expect(completed).toEqual({
      summary: "Fixed the timeout",
      commits: [],
      pullRequests: [],
      reviewRounds: 0,
      verification: null,
    });
    expect(storedOutcome({ summary: "Old", commits: [], pullRequests: [] })).toMatchObject({
      reviewRounds: 0,
      verification: null,
    });
    expect(storedOutcome(null)).toBeNull();
  });

  it("count reworked once, however many rounds review sends the work back", () => {
    const first = markOutcome(completed, { kind: "reworked" });
    expect(first).toEqual({ outcome: { ...completed, reviewRounds: 1 }, counted: ["reworked"] });
    const second = markOutcome(first?.outcome ?? completed, { kind: "reworked" });
    expect(second).toEqual({ outcome: { ...completed, reviewRounds: 2 }, counted: [] });
  });

  it("count merged at the first merge only, starting the watch", () => {
    const merged = markOutcome(completed, { kind: "merged", verification: watch });
    expect(merged).toEqual({ outcome: { ...completed, verification: watch }, counted: ["merged"] });
    expect(
      markOutcome(merged?.outcome ?? completed, {
        kind: "merged",
        verification: { ...watch, mergedAt: "2026-03-09T00:00:00.000Z" },
      }),
    ).toBeNull();
  });

  it("end the pending watch verified or regressed once, and only the watch begun at that merge", () => {
    const watched = { ...completed, verification: watch };
    const verified = markOutcome(watched, { kind: "verified", mergedAt: watch.mergedAt });
    expect(verified).toEqual({
      outcome: { ...watched, verification: { ...watch, status: "verified" } },
      counted: ["verified"],
    });
    expect(markOutcome(verified?.outcome ?? watched, { kind: "verified", mergedAt: watch.mergedAt })).toBeNull();
    expect(
      markOutcome(verified?.outcome ?? watched, {
        kind: "regressed",
        mergedAt: watch.mergedAt,
        regressedAt: "2026-03-06T00:00:00.000Z",
        signalId: "sig_1",
      }),
    ).toBeNull();
    const regressed = markOutcome(watched, {
      kind: "regressed",
      mergedAt: watch.mergedAt,
      regressedAt: "2026-03-03T00:00:00.000Z",
      signalId: "sig_1",
    });
    expect(regressed).toEqual({
      outcome: {
        ...watched,
        verification: { ...watch, status: "regressed", regressedAt: "2026-03-03T00:00:00.000Z", signalId: "sig_1" },
      },
      counted: ["regressed"],
    });
    expect(markOutcome(watched, { kind: "verified", mergedAt: "2026-01-01T00:00:00.000Z" })).toBeNull();
    expect(markOutcome(completed, { kind: "verified", mergedAt: watch.mergedAt })).toBeNull();
  });
});
