import { describe, expect, it } from "vitest";
import { classifyWebhookDelivery, issueReferences, mergedPullRequest } from "../../../core/src/signals/rules.js";
import { codehostExamples, deliveryOf } from "../../helpers/fixtures.js";

describe("issueReferences", () => {
  it.each<[string, Parameters<typeof issueReferences>[0], number[]]>([
    ["a mention in the title", { title: "Fix login (KZN-12)" }, [12]],
    ["a mention in the body, any case", { body: "Closes kzn-7 and Kzn-3." }, [3, 7]],
    ["a mention glued to other text", { title: "[KZN-5]fix", body: "see foo/KZN-6" }, [5, 6]],
    ["repeated mentions once", { title: "KZN-4", body: "KZN-4, again KZN-4" }, [4]],
    ["leading zeros", { title: "KZN-007" }, [7]],
    ["a branch kaizen/<n>", { headBranch: "kaizen/12" }, [12]],
    ["a branch kaizen/<n>-slug", { headBranch: "kaizen/12-fix-login" }, [12]],
    ["a branch kaizen/<n>/more", { headBranch: "kaizen/12/retry" }, [12]],
    ["a fully qualified branch", { headBranch: "refs/heads/kaizen/9" }, [9]],
    [
      "title, body and branch together, sorted",
      { title: "KZN-30", body: "KZN-2", headBranch: "kaizen/11-x" },
      [2, 11, 30],
    ],
    ["nothing when absent", { title: null, body: null, headBranch: null }, []],
    ["not KZN- without digits", { title: "KZN-", body: "KZN-x" }, []],
    ["not issue 0", { title: "KZN-0", headBranch: "kaizen/0" }, []],
    ["not a number too large to be exact", { title: "KZN-99999999999999999999" }, []],
    ["not a branch that only contains kaizen/", { headBranch: "feature/kaizen/12" }, []],
    ["not kaizen/ followed by a non-number", { headBranch: "kaizen/x12" }, []],
    ["not kaizen-12 as a branch", { headBranch: "kaizen-12" }, []],
  ])("%s", (_, pr, numbers) => {
    expect(issueReferences(pr)).toEqual(numbers);
  });
});

describe("mergedPullRequest", () => {
  const merged = {
    action: "closed",
    number: 42,
    pull_request: {
      number: 42,
      title: "Retry payment webhooks (KZN-12)",
      body: "Also fixes KZN-3.",
      html_url: "https://codehost.example/acme/shop/pull/42",
      merged: true,
      merged_at: "2024-11-22T12:00:00Z",
      head: { ref: "kaizen/15-retry" },
    },
  };
  const closedPr = { source: "codehost", type: "pull_request.closed" };

  it("gives the facts of a merged pull request and the issues it names", () => {
    expect(mergedPullRequest(closedPr, merged)).toEqual({
      number: 42,
      title: "Retry payment webhooks (KZN-12)",
      url: "https://codehost.example/acme/shop/pull/42",
      mergedAt: "2024-11-22T12:00:00Z",
      headBranch: "kaizen/15-retry",
      references: [3, 12, 15],
    });
  });

  it("fills what a sparse payload leaves out with null", () => {
    const sparse = { action: "closed", number: 5, pull_request: { merged: true } };
    expect(mergedPullRequest(closedPr, sparse)).toEqual({
      number: 5,
      title: "Pull request #5",
      url: null,
      mergedAt: null,
      headBranch: null,
      references: [],
    });
  });

  it("is null for anything that is not a merged pull_request.closed from the code host", () => {
    const unmerged = { ...merged, pull_request: { ...merged.pull_request, merged: false } };
    expect(mergedPullRequest(closedPr, unmerged)).toBeNull();
    expect(mergedPullRequest({ source: "codehost", type: "pull_request.opened" }, merged)).toBeNull();
    expect(mergedPullRequest({ source: "manual", type: "pull_request.closed" }, merged)).toBeNull();
    expect(mergedPullRequest(closedPr, { pull_request: { merged: "true", number: 1 } })).toBeNull();
    expect(mergedPullRequest(closedPr, { pull_request: { merged: true, number: "1" } })).toBeNull();
    expect(mergedPullRequest(closedPr, null)).toBeNull();
  });

  it("reads the real closed examples: none of them is merged, and a merged copy names its issue", () => {
    const closed = codehostExamples(["pull_request"]).filter((example) => example.action === "closed");
    expect(closed.length).toBeGreaterThan(0);
    for (const { body } of closed) {
      const signal = classifyWebhookDelivery(deliveryOf("codehost", { "X-Codehost-Event": "pull_request" }, body));
      expect(signal.type).toBe("pull_request.closed");
      expect(mergedPullRequest({ source: "codehost", ...signal }, body)).toBeNull();

      const pr = body.pull_request as Record<string, unknown>;
      const mergedCopy = {
        ...body,
        pull_request: { ...pr, merged: true, merged_at: "2024-11-22T12:00:00Z", title: `${pr.title} (KZN-8)` },
      };
      expect(mergedPullRequest({ source: "codehost", ...signal }, mergedCopy)).toMatchObject({
        number: pr.number,
        url: pr.html_url,
        mergedAt: "2024-11-22T12:00:00Z",
        headBranch: (pr.head as { ref: string }).ref,
        references: [8],
      });
    }
  });
});
