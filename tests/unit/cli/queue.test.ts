/**
 * `kaizen queue` against a stub that records the request (in process, no server): the table in the
 * preview's order, and the issues claims pass over now marked with why in a `HELD BY` column, which
 * a page with none held leaves out (docs/api.md#queue-preview).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inProcessKaizen, withStub } from "../../helpers/cli-stub.js";

const cwd = mkdtempSync(join(tmpdir(), "kaizen-cli-queue-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const kaizen = inProcessKaizen(cwd);

function item(n: number, heldBy: string | null) {
  return {
    issue: {
      id: `iss_${n}`,
      identifier: `KZN-${n}`,
      title: `Issue ${n}`,
      type: "bug",
      status: "todo",
      priority: "high",
    },
    score: 130 - n,
    breakdown: { priority: 75, type: 40, goal: 0, age: 1.5, impact: 10 },
    heldBy,
  };
}

/** The table's lines, cells split on runs of two spaces or more. */
const cells = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => line.trim().split(/\s{2,}/));

describe("kaizen queue", () => {
  it("marks the issues claims pass over now with why, in their place", async () => {
    const page = [item(1, null), item(2, "review-capacity"), item(3, "daily-cost-budget"), item(4, null)];
    await withStub(
      () => ({ status: 200, json: { data: page, total: 4 } }),
      async (url, seen) => {
        const run = await kaizen(["queue"], { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" });
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
        expect(seen[0]?.url).toBe("/api/dispatch/queue?page=1&limit=20");
        const [header, ...rows] = cells(run.stdout);
        expect(header?.at(-1)).toBe("HELD BY");
        expect(rows.slice(0, 4).map((row) => [row[2], row.at(-1)])).toEqual([
          ["KZN-1", "75+40+0+1.5+10"],
          ["KZN-2", "review-capacity"],
          ["KZN-3", "daily-cost-budget"],
          ["KZN-4", "75+40+0+1.5+10"],
        ]);
      },
    );
  });

  it("leaves the column out when nothing on the page is held", async () => {
    await withStub(
      () => ({ status: 200, json: { data: [item(1, null)], total: 1 } }),
      async (url) => {
        const run = await kaizen(["queue"], { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" });
        expect(run.status).toBe(0);
        expect(cells(run.stdout)[0]).toEqual([
          "#",
          "SCORE",
          "ISSUE",
          "TYPE",
          "PRIORITY",
          "TITLE",
          "PRIORITY+TYPE+GOAL+AGE+IMPACT",
        ]);
      },
    );
  });
});
