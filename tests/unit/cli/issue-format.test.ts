/** `kaizen issues show`: an issue's pull requests and review feedback as the CLI prints them (docs/api.md#review). */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../../client/cli/commands/issues.js";
import { newIssue } from "../../../core/src/issues/issue-item.js";
import type { Issue } from "../../../core/src/issues/schemas.js";

const issue: Issue = {
  ...newIssue({ title: "Checkout fails on an empty cart", type: "task", status: "todo" }),
  id: "iss_01JD0000000000000000000042",
  number: 42,
  identifier: "KZN-42",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  pullRequests: [
    {
      number: 7,
      title: "Total an empty cart as 0",
      url: "https://codehost.example/acme/shop/pull/7",
      repository: "acme/shop",
      state: "open",
      mergedAt: null,
    },
  ],
  reviewRounds: 1,
  feedback: [
    {
      kind: "changes_requested",
      author: "reviewer-b",
      body: "cart.ts:12\n\nStill NaN for an empty cart.",
      url: null,
      at: "2026-01-02T10:00:00.000Z",
      pullRequest: { repository: "acme/shop", number: 7 },
    },
  ],
};

describe("formatIssue", () => {
  it("prints each pull request with its repository and state, and the feedback with who said it on which pull request", () => {
    const text = formatIssue(issue, false);
    expect(text).toContain("acme/shop#7  Total an empty cart as 0  (open)  https://codehost.example/acme/shop/pull/7");
    expect(text).toContain("Review feedback, sent back 1 time(s)");
    expect(text).toMatch(
      /changes_requested by reviewer-b on #7\n {4}cart\.ts:12\n {4}\n {4}Still NaN for an empty cart\./,
    );
  });

  it("prints where the merged fix stands", () => {
    const watched = {
      status: "regressed" as const,
      mergedAt: "2026-01-03T10:00:00.000Z",
      until: "2026-01-06T10:00:00.000Z",
      regressedAt: "2026-01-04T08:30:00.000Z",
      signalId: "sig_01JD0000000000000000000001",
      dispatchId: null,
    };
    expect(formatIssue({ ...issue, verification: watched }, false)).toMatch(
      /^verification\s+regressed \S.* \(merged \S.*\)$/m,
    );
    expect(
      formatIssue({ ...issue, verification: { ...watched, status: "pending", regressedAt: null } }, false),
    ).toMatch(/^verification\s+pending, watched until \S.* \(merged \S.*\)$/m);
    expect(formatIssue(issue, false)).not.toMatch(/^verification/m);
  });

  it("prints no feedback section for an issue review has not spoken of", () => {
    expect(formatIssue({ ...issue, feedback: [], reviewRounds: 0 }, false)).not.toContain("Review feedback");
  });
});
