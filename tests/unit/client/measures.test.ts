/** An experiment's measures as the CLI and the console print them: each value with its 95 % interval. */
import { describe, expect, it } from "vitest";
import { costText, rateText, scoreText } from "../../../client/measures.js";
import { meanInterval, wilson } from "../../../core/src/templates/experiment-figures.js";

describe("measures as people read them", () => {
  it("shows a rate in whole percents with its Wilson interval", () => {
    expect(rateText(wilson(8, 10))).toBe("80 % (49–94 %)");
    expect(rateText(wilson(0, 5))).toBe("0 % (0–43 %)");
    expect(rateText(wilson(5, 5))).toBe("100 % (57–100 %)");
  });

  it("shows a review score with two decimals and its t interval, clipped to the scale", () => {
    expect(scoreText({ value: 4.1, low: 3.85, high: 4.35, samples: 12 })).toBe("4.10 (3.85–4.35)");
    expect(scoreText(meanInterval(2, 6, 20, 1, 5))).toBe("3.00 (1.00–5.00)");
  });

  it("shows a cost in dollars: three decimals under a dollar, two from one", () => {
    expect(costText({ value: 0.12, low: 0.1, high: 0.14, samples: 9 })).toBe("$0.120 ($0.100–$0.140)");
    expect(costText({ value: 1.5, low: 0.25, high: 2.75, samples: 4 })).toBe("$1.50 ($0.25–$2.75)");
  });

  it("shows the value alone under two samples, and a dash without data", () => {
    expect(scoreText(meanInterval(1, 4, 16, 1, 5))).toBe("4.00");
    expect(costText({ value: 0.3, low: null, high: null, samples: 1 })).toBe("$0.300");
    for (const text of [rateText, scoreText, costText]) expect(text(null)).toBe("—");
  });
});
