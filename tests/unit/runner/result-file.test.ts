/** What a finished command reports to `kaizen run`: its result file, else its last answer or lines. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fallbackSummary, readResultFile } from "../../../client/runner/result-file.js";
import { runSettings } from "../../../client/runner/run-settings.js";

const dir = mkdtempSync(join(tmpdir(), "kaizen-result-"));
function file(text: string): string {
  const path = join(dir, `${Math.random()}.json`);
  writeFileSync(path, text);
  return path;
}

describe("readResultFile", () => {
  it("reads the summary, commits and pull requests, with a message and a title defaulted", () => {
    const path = file(
      JSON.stringify({
        summary: "Retry payments",
        commits: [{ sha: "4f2a9c1" }],
        pullRequests: [{ number: 42, url: "https://code.example/acme/shop/pull/42" }],
      }),
    );
    expect(readResultFile(path)).toEqual({
      summary: "Retry payments",
      commits: [{ sha: "4f2a9c1", message: "" }],
      pullRequests: [{ number: 42, title: "", url: "https://code.example/acme/shop/pull/42" }],
    });
  });

  it("is undefined without a file, and says what is wrong with one it cannot use", () => {
    expect(readResultFile(join(dir, "none.json"))).toBeUndefined();
    expect(readResultFile(file("{"))?.problem).toMatch(/^KAIZEN_RESULT_FILE is not JSON/);
    expect(readResultFile(file("[]"))).toEqual({ problem: "KAIZEN_RESULT_FILE is not a JSON object" });
    expect(readResultFile(file(JSON.stringify({ summary: "s", commits: [{ message: "m" }] })))).toEqual({
      summary: "s",
      problem: "commits has an entry without its sha",
    });
  });
});

describe("fallbackSummary", () => {
  it("takes the last answer, else the last 20 lines, else the exit", () => {
    expect(fallbackSummary("Fixed it", ["x"], "exited with status 0")).toBe("Fixed it");
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    expect(fallbackSummary(undefined, lines, "exited with status 1")).toBe(lines.slice(10).join("\n"));
    expect(fallbackSummary(" ", [], "exited with status 1")).toBe(
      "The command exited with status 1 without a summary.",
    );
  });
});

describe("runSettings", () => {
  it("takes whole milliseconds from the environment and names a variable it refuses", () => {
    expect(runSettings({ KAIZEN_RUN_KILL_GRACE_MS: "500" }).settings.killGraceMs).toBe(500);
    expect(runSettings({}).settings).toEqual({
      checkMs: 5000,
      batchMs: 1000,
      killGraceMs: 10_000,
      pollMs: 2000,
      maxPollMs: 60_000,
    });
    expect(runSettings({ KAIZEN_RUN_CHECK_MS: "soon" }).invalid).toBe(
      "KAIZEN_RUN_CHECK_MS must be a whole number of milliseconds from 10 to 3600000 (got soon)",
    );
  });
});
