/**
 * Pull requests, commits, review feedback and verification as items hold them, read as the API
 * answers them (core/src/issues/stored-work.ts, docs/api.md#identifiers-and-fields): every optional
 * field null when an item written before it was filled in lacks it, every time UTC with milliseconds
 * when it was kept as a client or provider sent it.
 */
import { describe, expect, it } from "vitest";
import {
  storedCommits,
  storedFeedback,
  storedPullRequests,
  storedVerification,
} from "../../../core/src/issues/stored-work.js";

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

describe("stored times", () => {
  it("read in UTC with milliseconds on pull requests and commits", () => {
    expect(storedPullRequests([{ number: 2, title: "x", mergedAt: "2026-11-29T00:00:00Z" }])[0]?.mergedAt).toBe(
      "2026-11-29T00:00:00.000Z",
    );
    expect(
      storedCommits([{ sha: "abc1234", message: "m", timestamp: "2026-11-29T01:00:00+01:00" }])[0]?.timestamp,
    ).toBe("2026-11-29T00:00:00.000Z");
  });

  it("read so on feedback and on a watch, keeping the rest as stored", () => {
    const entry = {
      kind: "approved",
      author: "ana",
      body: "Looks right.",
      url: null,
      at: "2026-11-20T10:00:00Z",
      pullRequest: { repository: "acme/shop", number: 2 },
    };
    expect(storedFeedback([entry])).toEqual([{ ...entry, at: "2026-11-20T10:00:00.000Z" }]);
    const watch = {
      status: "regressed",
      mergedAt: "2026-11-29T00:00:00Z",
      until: "2026-12-02T00:00:00.000Z",
      regressedAt: "2026-11-30T00:00:00.000Z",
      signalId: "sig_01JD0000000000000000000001",
      dispatchId: null,
    };
    expect(storedVerification(watch)).toEqual({ ...watch, mergedAt: "2026-11-29T00:00:00.000Z" });
    expect(storedVerification({ ...watch, regressedAt: undefined })?.regressedAt).toBeNull();
    expect(storedVerification(undefined)).toBeNull();
  });
});
