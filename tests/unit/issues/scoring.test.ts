import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ISSUE_TYPES, type IssueType } from "../../../core/src/issues/schemas.js";
import {
  IMPACT_THRESHOLDS_BEFORE,
  impactBonus,
  impactChanges,
  queueSortKey,
  type Scored,
  scoreOf,
} from "../../../core/src/issues/scoring.js";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const NOW = new Date("2026-06-01T00:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe("scoreOf", () => {
  it.each([
    {
      priority: 1,
      type: "signal",
      goal: true,
      createdAt: ago(36 * HOUR_MS),
      signals: 1,
      expected: [100, 50, 20, 1.5, 0],
    },
    { priority: 2, type: "hypothesis", goal: false, createdAt: ago(0), signals: 0, expected: [75, 40, 0, 0, 0] },
    {
      priority: 3,
      type: "plan",
      goal: true,
      createdAt: ago(12 * HOUR_MS),
      signals: 5,
      expected: [50, 30, 20, 0.5, 20],
    },
    { priority: 4, type: "task", goal: false, createdAt: ago(10 * DAY_MS), signals: 2, expected: [25, 20, 0, 10, 10] },
    {
      priority: 0,
      type: "monitor",
      goal: true,
      createdAt: ago(6 * HOUR_MS),
      signals: 500,
      expected: [10, 10, 20, 0.25, 50],
    },
    // Clock skew can put createdAt after now: the age term stays at zero rather than going negative.
    { priority: 1, type: "task", goal: false, createdAt: ago(-DAY_MS), signals: 31, expected: [100, 20, 0, 0, 40] },
    { priority: 0, type: "signal", goal: false, createdAt: ago(-1), signals: 32, expected: [10, 50, 0, 0, 50] },
  ] as const)(
    "priority $priority, $type, goal $goal, created $createdAt, $signals signals",
    ({ priority, type, goal, createdAt, signals, expected }) => {
      const [p, t, g, age, impact] = expected;
      const { score, breakdown } = scoreOf({ priority, type, createdAt, number: 1, signalCount: signals }, goal, NOW);
      expect(breakdown).toEqual({ priority: p, type: t, goal: g, age, impact });
      expect(score).toBe(p + t + g + age + impact);
    },
  );

  it("counts age to the millisecond", () => {
    const { breakdown } = scoreOf(
      { priority: 1, type: "signal", createdAt: ago(1), number: 1, signalCount: 1 },
      false,
      NOW,
    );
    expect(breakdown.age).toBe(1 / DAY_MS);
  });
});

describe("impactBonus", () => {
  it("is 10 per doubling of the signals, at most 50", () => {
    const expected: [number, number][] = [
      [0, 0],
      [1, 0],
      [2, 10],
      [3, 10],
      [4, 20],
      [7, 20],
      [8, 30],
      [16, 40],
      [31, 40],
      [32, 50],
      [500, 50],
      [1_000_000, 50],
    ];
    for (const [count, bonus] of expected) expect(impactBonus(count), String(count)).toBe(bonus);
  });

  it("changes with one more signal only from the counts listed, six values in all", () => {
    const from = Array.from({ length: 2_000 }, (_, count) => count).filter((count) => impactChanges(count, count + 1));
    expect(from).toEqual([...IMPACT_THRESHOLDS_BEFORE]);
    expect(new Set(Array.from({ length: 2_000 }, (_, count) => impactBonus(count))).size).toBe(6);
  });
});

interface Generated {
  priority: number;
  type: IssueType;
  goalActive: boolean;
  createdAtMs: number;
  signalCount: number;
}

const WINDOW_MS = 400 * DAY_MS;
const generated: fc.Arbitrary<Generated> = fc.record({
  priority: fc.integer({ min: 0, max: 4 }),
  type: fc.constantFrom(...ISSUE_TYPES),
  goalActive: fc.boolean(),
  signalCount: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(1, 2, 4, 1_000)),
  createdAtMs: fc.oneof(
    fc.integer({ min: -WINDOW_MS, max: WINDOW_MS }).map((offset) => NOW.getTime() + offset),
    // Whole days and a few fixed instants make equal scores and equal createdAt common, so the
    // tie-breaks are exercised rather than left to chance.
    fc.integer({ min: -400, max: 400 }).map((days) => NOW.getTime() + days * DAY_MS),
    fc.constantFrom(NOW.getTime() - 5 * DAY_MS, NOW.getTime() - 25 * DAY_MS),
  ),
});

/** Issues with distinct numbers that increase with createdAt, in random order. */
const issueSets = fc
  .array(generated, { minLength: 1, maxLength: 40, size: "medium" })
  .map((items) => {
    const byCreation = items
      .map((item, index) => ({ item, index }))
      .sort((a, b) => a.item.createdAtMs - b.item.createdAtMs);
    const numbers = new Map(byCreation.map(({ index }, rank) => [index, rank + 1]));
    return items.map((item, index) => ({
      issue: {
        priority: item.priority,
        type: item.type,
        createdAt: new Date(item.createdAtMs).toISOString(),
        number: numbers.get(index) ?? 0,
        signalCount: item.signalCount,
      } satisfies Scored,
      goalActive: item.goalActive,
    }));
  })
  // Shuffled after numbering, or a stable sort would put tied issues in number order by accident.
  .chain((set) => fc.shuffledSubarray(set, { minLength: set.length, maxLength: set.length }));

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("queueSortKey", () => {
  it("orders issues by score at now descending, then createdAt ascending, then number ascending", () => {
    fc.assert(
      fc.property(
        issueSets.chain((set) => {
          const latest = Math.max(...set.map(({ issue }) => Date.parse(issue.createdAt)));
          return fc.tuple(
            fc.constant(set),
            fc.integer({ min: 0, max: 2 * WINDOW_MS }).map((after) => latest + after),
          );
        }),
        ([set, nowMs]) => {
          const now = new Date(nowMs);
          const rows = set.map(({ issue, goalActive }) => {
            const { score, breakdown } = scoreOf(issue, goalActive, now);
            const createdAtMs = Date.parse(issue.createdAt);
            // The score in milliseconds as an exact integer: float days would make ties flaky.
            const exactScore =
              (breakdown.priority + breakdown.type + breakdown.goal + breakdown.impact) * DAY_MS +
              (nowMs - createdAtMs);
            expect(score).toBeCloseTo(exactScore / DAY_MS, 6);
            return { number: issue.number, createdAtMs, exactScore, key: queueSortKey(issue, goalActive) };
          });
          const byKey = [...rows].sort((a, b) => compareStrings(a.key, b.key)).map((row) => row.number);
          const byScore = [...rows]
            .sort((a, b) => b.exactScore - a.exactScore || a.createdAtMs - b.createdAtMs || a.number - b.number)
            .map((row) => row.number);
          expect(byKey).toEqual(byScore);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("is fixed-width for createdAt from 2001 to 2100, so string order is numeric order", () => {
    const KEY_SHAPE = /^\d{16}#\d{15}#\d{12}$/;
    const keyed = fc.record({
      priority: fc.integer({ min: 0, max: 4 }),
      type: fc.constantFrom(...ISSUE_TYPES),
      goalActive: fc.boolean(),
      signalCount: fc.integer({ min: 0, max: 100 }),
      createdAt: fc.date({
        min: new Date("2001-01-01T00:00:00.000Z"),
        max: new Date("2100-12-31T23:59:59.999Z"),
        noInvalidDate: true,
      }),
      // Up to the 12 digits the key reserves for the issue number.
      number: fc
        .tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 999_999 }))
        .map(([high, low]) => high * 1_000_000 + low),
    });
    const keyOf = (row: {
      priority: number;
      type: IssueType;
      goalActive: boolean;
      signalCount: number;
      createdAt: Date;
      number: number;
    }) =>
      queueSortKey(
        {
          priority: row.priority,
          type: row.type,
          createdAt: row.createdAt.toISOString(),
          number: row.number,
          signalCount: row.signalCount,
        },
        row.goalActive,
      );
    /** The key's three parts as numbers, compared in order. */
    const numericParts = (key: string) => key.split("#").map(Number);

    fc.assert(
      fc.property(keyed, keyed, (a, b) => {
        const [keyA, keyB] = [keyOf(a), keyOf(b)];
        expect(keyA).toMatch(KEY_SHAPE);
        expect(keyA).toHaveLength(keyB.length);
        const partsA = numericParts(keyA);
        const partsB = numericParts(keyB);
        const firstDifference = partsA.findIndex((part, i) => part !== partsB[i]);
        const numeric =
          firstDifference === -1 ? 0 : Math.sign((partsA[firstDifference] ?? 0) - (partsB[firstDifference] ?? 0));
        expect(compareStrings(keyA, keyB)).toBe(numeric);
      }),
      { numRuns: 1_000 },
    );

    // The extremes: highest base at the earliest instant, lowest base at the latest, largest number.
    const earliest = queueSortKey(
      { priority: 1, type: "signal", createdAt: "2001-01-01T00:00:00.000Z", number: 1, signalCount: 64 },
      true,
    );
    const latest = queueSortKey(
      { priority: 0, type: "monitor", createdAt: "2100-12-31T23:59:59.999Z", number: 999_999_999_999, signalCount: 0 },
      false,
    );
    expect(earliest).toMatch(KEY_SHAPE);
    expect(latest).toMatch(KEY_SHAPE);
    expect(earliest < latest).toBe(true);
  });
});
