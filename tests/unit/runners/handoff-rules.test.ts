/** What hosted runners' hand-offs decide without I/O (core/src/runners/handoff-rules.ts): triggers, filters, backoff. */
import { describe, expect, it } from "vitest";
import type { ChangeRecord } from "../../../core/src/db/changes.js";
import {
  endedDispatch,
  hasRoom,
  newlyEligible,
  refusalBackoffMs,
  takes,
} from "../../../core/src/runners/handoff-rules.js";
import { runnerFixture } from "../../helpers/runner-fixture.js";

const change = (oldImage: Record<string, unknown> | undefined, newImage: Record<string, unknown> | undefined) =>
  ({
    id: "r1",
    kind: oldImage ? "MODIFY" : "INSERT",
    sequenceNumber: "1",
    keys: { pk: "p", sk: "s" },
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
    at: 0,
  }) as ChangeRecord;

const issue = (fields: Record<string, unknown>) => ({
  entity: "issue",
  id: "iss_1",
  type: "task",
  projectId: null,
  status: "todo",
  blockedBy: [],
  ...fields,
});

const runner = runnerFixture;

describe("hand-off rules", () => {
  it("back off 30 s after a refusal, doubling with each in a row, up to 30 min", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(refusalBackoffMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000,
    ]);
  });

  it.each([
    ["an issue made in todo", undefined, issue({}), true],
    ["an issue moved to todo", issue({ status: "backlog" }), issue({}), true],
    ["its last blocker gone", issue({ blockedBy: ["iss_2"] }), issue({}), true],
    ["an eligible issue changed otherwise", issue({ title: "a" }), issue({ title: "b" }), false],
    ["an issue still blocked", issue({ status: "backlog" }), issue({ blockedBy: ["iss_2"] }), false],
    ["an issue deleted", issue({}), issue({ deletedAt: "2026-01-01T00:00:00.000Z" }), false],
    ["an issue claimed", issue({}), issue({ status: "in_progress" }), false],
    ["another kind of item", undefined, { ...issue({}), entity: "dispatch" }, false],
  ])("find an issue newly eligible: %s", (_what, before, after, eligible) => {
    expect(newlyEligible(change(before, after))).toEqual(
      eligible ? { id: "iss_1", projectId: null, type: "task" } : undefined,
    );
  });

  it.each([
    ["active", "completed", "dsp_1"],
    ["waiting", "stopped", "dsp_1"],
    ["active", "released", "dsp_1"],
    ["active", "expired", "dsp_1"],
    ["active", "waiting", undefined],
    ["completed", "completed", undefined],
  ])("find a dispatch ending: %s to %s", (from, to, ended) => {
    const dispatch = (status: string) => ({ entity: "dispatch", id: "dsp_1", status });
    expect(endedDispatch(change(dispatch(from), dispatch(to)))).toBe(ended);
  });

  it("take the issues a runner's filters name, and hand off only with room, on, and not backing off", () => {
    const task = { projectId: "prj_a", type: "task" as const };
    expect(takes(runner(), task)).toBe(true);
    expect(takes(runner({ filters: { projectId: "prj_a", types: ["task"] } }), task)).toBe(true);
    expect(takes(runner({ filters: { projectId: "prj_b", types: null } }), task)).toBe(false);
    expect(takes(runner({ filters: { projectId: null, types: ["plan"] } }), task)).toBe(false);
    const now = new Date("2026-01-01T00:10:00.000Z");
    expect(hasRoom(runner(), now)).toBe(true);
    expect(hasRoom(runner({ activeDispatches: 2 }), now)).toBe(false);
    expect(hasRoom(runner({ active: false }), now)).toBe(false);
    expect(hasRoom(runner({ retryAfter: "2026-01-01T00:10:01.000Z" }), now)).toBe(false);
    expect(hasRoom(runner({ retryAfter: "2026-01-01T00:10:00.000Z" }), now)).toBe(true);
  });
});
