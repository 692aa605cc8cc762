/**
 * The arithmetic of experiments (docs/api.md#experiments): the per-issue split, the 95 % intervals, and the
 * decision rule, on known values.
 */
import { monotonicFactory, ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { armOf } from "../../../core/src/templates/arms.js";
import {
  type ArmCounts,
  armFigures,
  compare,
  meanInterval,
  NO_COUNTS,
  verdict,
  wilson,
} from "../../../core/src/templates/experiment-figures.js";

const issueIds = (n: number) => {
  const next = monotonicFactory();
  return Array.from({ length: n }, () => `iss_${next()}`);
};

describe("the split", () => {
  it.each([1, 5, 10, 20, 33, 50])("gives the candidate %i percent of 1,000 issues, within ±5 points", (percent) => {
    for (const experiment of [`exp_${ulid()}`, `exp_${ulid()}`, `exp_${ulid()}`]) {
      const ids = issueIds(1000);
      const candidates = ids.filter((id) => armOf({ id: experiment, trafficPercent: percent }, id) === "candidate");
      expect(Math.abs(candidates.length / 10 - percent)).toBeLessThanOrEqual(5);
    }
  });

  it("keeps an issue in its arm, and splits anew for another experiment", () => {
    const ids = issueIds(400);
    const first = { id: `exp_${ulid()}`, trafficPercent: 50 };
    const second = { id: `exp_${ulid()}`, trafficPercent: 50 };
    const arms = ids.map((id) => armOf(first, id));
    expect(ids.map((id) => armOf(first, id))).toEqual(arms);
    const moved = ids.filter((id, i) => armOf(second, id) !== arms[i]).length;
    // Independent halves: about half the issues change sides (200 ± 60 is over 6 standard deviations).
    expect(moved).toBeGreaterThan(140);
    expect(moved).toBeLessThan(260);
  });

  it("puts the same issues in the candidate arm as the share grows (a bigger share only adds)", () => {
    const experiment = `exp_${ulid()}`;
    const ids = issueIds(300);
    const at = (percent: number) =>
      new Set(ids.filter((id) => armOf({ id: experiment, trafficPercent: percent }, id) === "candidate"));
    const small = at(10);
    const large = at(40);
    for (const id of small) expect(large.has(id)).toBe(true);
  });
});

describe("intervals", () => {
  it("Wilson: known values, bounds within 0..1, none without trials", () => {
    expect(wilson(8, 10)).toEqual({ value: 0.8, low: 0.490162, high: 0.943318, samples: 10 });
    expect(wilson(0, 6)).toMatchObject({ value: 0, low: 0 });
    expect(wilson(6, 6)).toMatchObject({ value: 1, high: 1 });
    expect(wilson(6, 6)?.low).toBeCloseTo(0.609666, 5);
    expect(wilson(0, 0)).toBeNull();
  });

  it("Student's t from the running sums: known values, clipped to the scale, no interval under two samples", () => {
    // 2, 4, 6: mean 4, s = 2, t(0.975, 2) = 4.303, half-width 4.303 × 2 / √3 = 4.968676.
    const spread = meanInterval(3, 12, 56, 0, 100);
    expect(spread?.value).toBe(4);
    expect(spread?.low).toBe(0);
    expect(spread?.high).toBeCloseTo(8.968676, 5);
    expect(meanInterval(3, 12, 56, 1, 5)).toMatchObject({ low: 1, high: 5 });
    expect(meanInterval(1, 3, 9, 1, 5)).toEqual({ value: 3, low: null, high: null, samples: 1 });
    expect(meanInterval(0, 0, 0, 1, 5)).toBeNull();
    // Equal samples: no spread, whatever the rounding of the sums.
    expect(meanInterval(40, 0.1 * 40, 0.01 * 40, 0, 1)).toMatchObject({ value: 0.1, low: 0.1, high: 0.1 });
    // Past 30 degrees of freedom the normal z.
    const many = meanInterval(101, 101 * 3, 101 * 9 + 100, 1, 5);
    expect(many?.high).toBeCloseTo(3 + 1.959964 * Math.sqrt(1 / 101), 5);
  });

  it("arm figures: composite scores from summed ratings, costs from reported ones", () => {
    const counts: ArmCounts = {
      ...NO_COUNTS,
      claims: 5,
      finished: 4,
      completed: 3,
      failed: 1,
      reviews: 2,
      // (5 + 4 + 3) and (2 + 2 + 2): composites 4 and 2.
      ratings: 18,
      ratingsSquared: 144 + 36,
      costReports: 2,
      cost: 3,
      costSquared: 5,
    };
    const figures = armFigures(counts);
    expect(figures).toMatchObject({ claims: 5, finished: 4, completions: 3, failures: 1, reviews: 2 });
    expect(figures.completionRate).toMatchObject({ value: 0.75, samples: 4 });
    expect(figures.reviewScore).toMatchObject({ value: 3, samples: 2, low: 1, high: 5 });
    expect(figures.costUsd).toMatchObject({ value: 1.5, samples: 2, low: 0 });
  });
});

describe("the rule", () => {
  const arm = (
    completed: number,
    finished: number,
    reviews: number[] = [],
    watched: { verified: number; regressed: number } = { verified: 0, regressed: 0 },
  ): ReturnType<typeof armFigures> =>
    armFigures({
      ...NO_COUNTS,
      ...watched,
      finished,
      completed,
      reviews: reviews.length,
      ratings: reviews.reduce((sum, composite) => sum + 3 * composite, 0),
      ratingsSquared: reviews.reduce((sum, composite) => sum + 9 * composite * composite, 0),
    });

  it("compares on intervals apart; a measure without an interval has too few data", () => {
    expect(compare(wilson(20, 20), wilson(2, 20))).toBe("better");
    expect(compare(wilson(2, 20), wilson(20, 20))).toBe("worse");
    expect(compare(wilson(10, 20), wilson(12, 20))).toBe("overlapping");
    expect(compare(meanInterval(1, 5, 25, 1, 5), meanInterval(5, 10, 20, 1, 5))).toBe("too-few-data");
    expect(compare(null, wilson(1, 2))).toBe("too-few-data");
  });

  it("waits for minSamples finished dispatches in both arms", () => {
    expect(verdict(arm(19, 19), arm(0, 19), 20)).toEqual({
      decided: false,
      reason: "waiting for 20 finished dispatches in each arm (candidate 19, control 19)",
    });
    expect(verdict(arm(20, 20), arm(0, 20), 20)).toMatchObject({ decided: true, outcome: "winner" });
  });

  it("a winner: better on one measure, no worse on the other (too few data counts as no worse)", () => {
    expect(verdict(arm(20, 20), arm(5, 20), 20)).toEqual({
      decided: true,
      outcome: "winner",
      reason: "candidate better: completion rate better, review score too few data, verified rate too few data",
    });
    const good = [5, 5, 4.67, 5, 5, 4.67, 5, 5];
    const poor = [2, 2.33, 2, 1.67, 2, 2.33, 2, 2];
    expect(verdict(arm(10, 20, good), arm(10, 20, poor), 20)).toEqual({
      decided: true,
      outcome: "winner",
      reason: "candidate better: completion rate overlapping, review score better, verified rate too few data",
    });
  });

  it("a loser: worse on one measure, better on neither", () => {
    expect(verdict(arm(3, 20), arm(18, 20), 20)).toEqual({
      decided: true,
      outcome: "loser",
      reason: "candidate worse: completion rate worse, review score too few data, verified rate too few data",
    });
  });

  it("decides on the verified rate too: completing as often but regressing more loses, holding more wins", () => {
    const holds = { verified: 18, regressed: 2 };
    const regresses = { verified: 6, regressed: 14 };
    expect(verdict(arm(18, 20, [], regresses), arm(18, 20, [], holds), 20)).toEqual({
      decided: true,
      outcome: "loser",
      reason: "candidate worse: completion rate overlapping, review score too few data, verified rate worse",
    });
    expect(verdict(arm(18, 20, [], holds), arm(18, 20, [], regresses), 20)).toMatchObject({
      decided: true,
      outcome: "winner",
    });
    // Too few watches ended in either arm: the verified rate counts as no worse.
    expect(verdict(arm(18, 20, [], { verified: 0, regressed: 1 }), arm(18, 20, [], holds), 20)).toMatchObject({
      decided: false,
    });
  });

  it("figures the verified rate with its Wilson interval and the outcome counts", () => {
    const figures = armFigures({ ...NO_COUNTS, merged: 10, reworked: 3, verified: 8, regressed: 2 });
    expect(figures).toMatchObject({ merged: 10, reworked: 3, verified: 8, regressed: 2 });
    expect(figures.verifiedRate).toEqual(wilson(8, 10));
    expect(armFigures(NO_COUNTS).verifiedRate).toBeNull();
  });

  it("runs on while the measures overlap, or when one is better and the other worse", () => {
    expect(verdict(arm(11, 20), arm(9, 20), 20)).toMatchObject({ decided: false });
    const good = [5, 5, 4.67, 5, 5, 4.67, 5, 5];
    const poor = [2, 2.33, 2, 1.67, 2, 2.33, 2, 2];
    expect(verdict(arm(2, 20, good), arm(19, 20, poor), 20)).toEqual({
      decided: false,
      reason: "no difference yet: completion rate worse, review score better, verified rate too few data",
    });
  });
});
