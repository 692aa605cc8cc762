import { describe, expect, it } from "vitest";
import { newIssue } from "../../core/src/issues/issue-item.js";
import { issueStore } from "../../core/src/services.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";

type Created = { data: { id: string; number: number; createdAt: string } };

describe("concurrent creates", () => {
  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("give numbers 1..20 exactly, in createdAt order, all listed", async () => {
      const t: TestApp = await testApp({}, { emulateConflicts });
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.request("/api/issues", jsonPost({ title: `Race ${i}`, type: "task" })),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
      const created = await Promise.all(responses.map(async (response) => ((await response.json()) as Created).data));
      const numbers = created.map((issue) => issue.number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(created.map((issue) => issue.id)).size).toBe(20);

      const byNumber = [...created].sort((a, b) => a.number - b.number);
      const times = byNumber.map((issue) => issue.createdAt);
      expect([...times].sort()).toEqual(times);

      const listed = (await (
        await t.app.request("/api/issues?limit=100&sort=createdAt", { headers: AUTH })
      ).json()) as {
        data: { number: number }[];
        total: number;
      };
      expect(listed.total).toBe(20);
      expect(listed.data.map((issue) => issue.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const triage = (await (await t.app.request("/api/issues?status=triage", { headers: AUTH })).json()) as {
        total: number;
      };
      expect(triage.total).toBe(20);
    });
  });
});

describe("creation clock", () => {
  it("never gives an issue a createdAt before the previous issue's, even when the clock steps back", async () => {
    const t: TestApp = await testApp();
    const store = issueStore({ db: t.db });
    const fields = newIssue({ title: "clock", type: "task" });
    const ahead = await store.create(fields, () => new Date("2030-01-01T00:00:00.000Z"));
    const behind = await store.create(fields, () => new Date("2020-01-01T00:00:00.000Z"));
    const later = await store.create(fields, () => new Date("2031-01-01T00:00:00.000Z"));
    expect([ahead.issue.number, behind.issue.number, later.issue.number]).toEqual([1, 2, 3]);
    expect(behind.issue.createdAt).toBe("2030-01-01T00:00:00.000Z");
    expect(later.issue.createdAt).toBe("2031-01-01T00:00:00.000Z");
  });
});
