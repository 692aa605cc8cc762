/**
 * Commits, pull requests, watches and review feedback as items hold them, read as the API answers
 * them (core/src/issues/stored-work.ts, docs/api.md#identifiers-and-fields): every optional field
 * null when an item written before it was filled in lacks it, every time a client or the code host
 * sent in UTC with milliseconds when it was kept as sent.
 */
import { describe, expect, it } from "vitest";
import { storedFeedback, storedWork } from "../../../core/src/issues/stored-work.js";

describe("stored pull requests and commits", () => {
  it("read every optional field the item lacks as null, and keep those it holds", () => {
    const { pullRequests, commits } = storedWork({
      pullRequests: [{ number: 2, title: "x", state: "closed", repository: null }],
      commits: [{ sha: "abc1234", message: "Fix", author: "ana" }],
    });
    expect(pullRequests).toEqual([
      { number: 2, title: "x", url: null, repository: null, state: "closed", mergedAt: null },
    ]);
    expect(commits).toEqual([{ sha: "abc1234", message: "Fix", url: null, author: "ana", timestamp: null }]);
    const whole = {
      number: 7,
      title: "Retry",
      url: "https://codehost.example/acme/shop/pull/7",
      repository: "acme/shop",
      state: "merged",
      mergedAt: "2026-11-29T00:00:00.000Z",
    };
    expect(storedWork({ pullRequests: [whole] }).pullRequests).toEqual([whole]);
  });

  it("are none, and the watch null, when the item holds none", () => {
    expect(storedWork({})).toEqual({ commits: [], pullRequests: [], verification: null });
    expect(storedWork({ verification: null }).verification).toBeNull();
  });

  it("read their times in UTC with milliseconds", () => {
    const { pullRequests, commits } = storedWork({
      pullRequests: [{ number: 2, title: "x", mergedAt: "2026-11-29T00:00:00Z" }],
      commits: [{ sha: "abc1234", message: "m", timestamp: "2026-11-29T01:00:00+01:00" }],
    });
    expect(pullRequests[0]?.mergedAt).toBe("2026-11-29T00:00:00.000Z");
    expect(commits[0]?.timestamp).toBe("2026-11-29T00:00:00.000Z");
  });
});

describe("a stored watch and stored feedback", () => {
  it("read the code host's times in UTC with milliseconds, keeping the rest as stored", () => {
    const watch = {
      status: "regressed",
      mergedAt: "2026-11-29T00:00:00Z",
      until: "2026-12-02T00:00:00.000Z",
      regressedAt: "2026-11-30T00:00:00.000Z",
      signalId: "sig_01JD0000000000000000000001",
      dispatchId: null,
    };
    expect(storedWork({ verification: watch }).verification).toEqual({
      ...watch,
      mergedAt: "2026-11-29T00:00:00.000Z",
    });
    const entry = {
      kind: "approved",
      author: "ana",
      body: "Looks right.",
      url: null,
      at: "2026-11-20T12:00:00+02:00",
      pullRequest: { repository: "acme/shop", number: 2 },
    };
    expect(storedFeedback([entry])).toEqual([{ ...entry, at: "2026-11-20T10:00:00.000Z" }]);
    expect(storedFeedback(undefined)).toEqual([]);
  });
});
