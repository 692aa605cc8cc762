/**
 * Pull requests and commits as items hold them, read as the API answers them
 * (core/src/issues/stored-work.ts, docs/api.md#identifiers-and-fields): every optional field null
 * when an item written before it was filled in lacks it.
 */
import { describe, expect, it } from "vitest";
import { storedCommits, storedPullRequests } from "../../../core/src/issues/stored-work.js";

describe("stored pull requests", () => {
  it("read every optional field the item lacks as null, and keep those it holds", () => {
    expect(storedPullRequests([{ number: 2, title: "x", state: "closed", repository: null }])).toEqual([
      { number: 2, title: "x", url: null, repository: null, state: "closed", mergedAt: null },
    ]);
    const whole = {
      number: 7,
      title: "Retry",
      url: "https://codehost.example/acme/shop/pull/7",
      repository: "acme/shop",
      state: "merged",
      mergedAt: "2026-11-29T00:00:00.000Z",
    };
    expect(storedPullRequests([whole])).toEqual([whole]);
  });

  it("are none when the item holds none", () => {
    expect(storedPullRequests(undefined)).toEqual([]);
    expect(storedPullRequests(null)).toEqual([]);
  });
});

describe("stored commits", () => {
  it("read every optional field the item lacks as null", () => {
    expect(storedCommits([{ sha: "abc1234", message: "Fix" }])).toEqual([
      { sha: "abc1234", message: "Fix", url: null, author: null, timestamp: null },
    ]);
    expect(storedCommits([{ sha: "abc1234", message: "Fix", author: "ana" }])[0]?.author).toBe("ana");
    expect(storedCommits(undefined)).toEqual([]);
  });
});
