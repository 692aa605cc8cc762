import { describe, expect, it } from "vitest";
import { issueReferences } from "../../../core/src/signals/rules.js";

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
