/** The usage counts' keys and writes (stats/usage-stats.ts), without a database. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { spreadBaseSortKey } from "../../../core/src/db/spread.js";
import { agentLoadKey } from "../../../core/src/dispatch/keys.js";
import {
  decodeAgent,
  encodeAgent,
  usageAdditions,
  usageCountKey,
  usageDay,
} from "../../../core/src/stats/usage-stats.js";

describe("agent names in keys", () => {
  it("never hold the separator or the shard mark, and read back as given", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100, unit: "grapheme" }), (agent) => {
        const encoded = encodeAgent(agent);
        expect(encoded).not.toMatch(/[#~]/);
        expect(decodeAgent(encoded)).toBe(agent);
        const key = usageCountKey("2026-01-02", { kind: "agent", agent }, "cost");
        expect(spreadBaseSortKey(`${key.sk}~07`)).toBe(key.sk);
        expect(agentLoadKey("prj_01ARZ3NDEKTSV4RRFFQ69G5FAV", agent).sk).toBe(encoded);
      }),
    );
    expect(encodeAgent("a#1~%")).toBe("a%231%7E%25");
    expect(decodeAgent("%2F%25")).toBe("%2F%");
  });
});

describe("usageAdditions", () => {
  it("adds a report to the day of finishedAt (UTC), in all, for the agent and the project; unreported parts write nothing", () => {
    expect(usageDay("2026-03-09T23:59:59.999Z")).toBe("2026-03-09");
    const writes = usageAdditions("2026-03-09T23:59:59.999Z", "a", "prj_X", {
      inputTokens: 5,
      outputTokens: null,
      costUsd: 0,
    });
    expect(writes.map((write) => [write.SpreadAdd?.Key.pk, write.SpreadAdd?.Key.sk, write.SpreadAdd?.delta])).toEqual([
      ["$kaizen#usage_1#2026-03-09", "all#reported", 1],
      ["$kaizen#usage_1#2026-03-09", "all#cost-reported", 1],
      ["$kaizen#usage_1#2026-03-09", "all#tokens-in", 5],
      ["$kaizen#usage_1#2026-03-09", "agent#a#reported", 1],
      ["$kaizen#usage_1#2026-03-09", "agent#a#cost-reported", 1],
      ["$kaizen#usage_1#2026-03-09", "agent#a#tokens-in", 5],
      ["$kaizen#usage_1#2026-03-09", "project#prj_X#reported", 1],
      ["$kaizen#usage_1#2026-03-09", "project#prj_X#cost-reported", 1],
      ["$kaizen#usage_1#2026-03-09", "project#prj_X#tokens-in", 5],
    ]);
    expect(
      usageAdditions("2026-03-10T00:00:00.000Z", "a", null, { inputTokens: null, outputTokens: null, costUsd: null }),
    ).toHaveLength(2);
  });
});
