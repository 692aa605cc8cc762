import { describe, expect, it } from "vitest";
import {
  compositeScore,
  foldComposites,
  needsImprovement,
  nextReviewScore,
  REVIEW_ALPHA,
  scoreAfter,
} from "../../../core/src/prompts/scoring.js";

describe("review scoring", () => {
  it("weighs the newest review by 0.3", () => {
    expect(REVIEW_ALPHA).toBe(0.3);
  });

  it.each([
    [{ clarity: 5, completeness: 5, relevance: 5 }, 5],
    [{ clarity: 1, completeness: 1, relevance: 1 }, 1],
    [{ clarity: 5, completeness: 4, relevance: 3 }, 4],
    [{ clarity: 2, completeness: 3, relevance: 3 }, 8 / 3],
  ])("composite of %o is the mean, %d", (review, expected) => {
    expect(compositeScore(review)).toBeCloseTo(expected, 12);
  });

  it("sets the score from the first review and moves it by α after", () => {
    expect(nextReviewScore(null, 2)).toBe(2);
    expect(nextReviewScore(5, 1)).toBe(3.8); // 0.3·1 + 0.7·5
    expect(nextReviewScore(3.8, 3)).toBe(3.56); // 0.3·3 + 0.7·3.8
  });

  it.each([
    [[], null],
    [[4], 4],
    [[5, 1], 3.8],
    [[5, 1, 3], 3.56],
    [[5, 1, 3, 5], 3.992], // 0.3·5 + 0.7·3.56
    [[1, 1, 1, 1], 1],
    [[3, 14 / 3], 3.5], // 0.3·(14/3) + 0.7·3: exactly the threshold
  ])("score after %j is %s", (composites, expected) => {
    expect(scoreAfter(composites)).toBe(expected);
  });

  it("folds in order: the same reviews in another order give another score", () => {
    expect(scoreAfter([1, 5])).toBe(2.2); // 0.3·5 + 0.7·1
    expect(scoreAfter([5, 1])).toBe(3.8);
  });

  it.each([
    ["no reviews", 0, null, false],
    ["2 reviews, low score: too few to judge", 2, 1, false],
    ["3 reviews, 3.49", 3, 3.49, true],
    ["3 reviews, exactly 3.5", 3, 3.5, false],
    ["3 reviews, 3.51", 3, 3.51, false],
    ["10 reviews, 1", 10, 1, true],
    ["14 reviews, good", 14, 4.8, false],
    ["15 reviews, good", 15, 4.8, true],
    ["16 reviews, good", 16, 5, true],
  ])("needsImprovement: %s", (_name, reviewCount, reviewScore, expected) => {
    expect(needsImprovement({ reviewCount, reviewScore })).toBe(expected);
  });

  it("a version at exactly 3.5 after three reviews does not need improving", () => {
    const reviewScore = scoreAfter([4, 4, 7 / 3]); // 4, 4, then 0.3·(7/3) + 0.7·4 = 3.5
    expect(reviewScore).toBe(3.5);
    expect(needsImprovement({ reviewCount: 3, reviewScore })).toBe(false);
  });
});

describe("folding reviews into a tally", () => {
  it("takes composites in order, as one review after another would", () => {
    const composites = [5, 1, 3, 5];
    const { tally } = foldComposites({ reviewCount: 0, reviewScore: null }, composites);
    expect(tally).toEqual({ reviewCount: 4, reviewScore: scoreAfter(composites) });
    const resumed = foldComposites({ reviewCount: 2, reviewScore: scoreAfter([5, 1]) }, [3, 5]);
    expect(resumed.tally).toEqual(tally);
  });

  it("names the first review after which the version needs improvement, with the tally there", () => {
    expect(foldComposites({ reviewCount: 2, reviewScore: 2 }, [1, 5])).toEqual({
      tally: { reviewCount: 4, reviewScore: 2.69 },
      needing: { index: 0, tally: { reviewCount: 3, reviewScore: 1.7 } },
    });
    expect(foldComposites({ reviewCount: 13, reviewScore: 5 }, [5, 5, 5]).needing).toEqual({
      index: 1,
      tally: { reviewCount: 15, reviewScore: 5 },
    });
    expect(foldComposites({ reviewCount: 0, reviewScore: null }, [5, 5, 5]).needing).toBeUndefined();
    expect(foldComposites({ reviewCount: 0, reviewScore: null }, []).needing).toBeUndefined();
  });
});
