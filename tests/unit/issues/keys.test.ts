import { describe, expect, it } from "vitest";
import {
  BUCKET_SIZE,
  bucketOf,
  bucketStartSk,
  countKey,
  issueKey,
  issueRef,
  listingEntryKey,
  listingsOf,
  padNumber,
  parseIssueRef,
} from "../../../core/src/issues/keys.js";

describe("issue keys", () => {
  it("puts entity and version in every key", () => {
    expect(issueKey("iss_1")).toEqual({ pk: "$kaizen#issue_1#iss_1", sk: "$kaizen#issue_1" });
    expect(listingEntryKey({ field: "status", value: "todo" }, 42)).toEqual({
      pk: "$kaizen#issuelist_1#status=todo",
      sk: "000000000042",
    });
    expect(countKey({ field: "all" }, 3)).toEqual({ pk: "$kaizen#issuecount_1#all", sk: "0000000003" });
  });

  it("pads numbers so string order is number order", () => {
    const numbers = [1, 9, 10, 99, 100, 12345, 999_999_999];
    const sorted = [...numbers].map(padNumber).sort();
    expect(sorted).toEqual(numbers.map(padNumber));
  });

  it("groups numbers into buckets whose start keys bound their entries", () => {
    expect(bucketOf(1)).toBe(0);
    expect(bucketOf(BUCKET_SIZE - 1)).toBe(0);
    expect(bucketOf(BUCKET_SIZE)).toBe(1);
    for (const n of [1, 99, 100, 101, 250, 9999]) {
      const bucket = bucketOf(n);
      expect(padNumber(n) >= bucketStartSk(bucket)).toBe(true);
      expect(padNumber(n) < bucketStartSk(bucket + 1)).toBe(true);
    }
  });

  it("lists an issue in all, its status, type, priority, project and each label", () => {
    expect(
      listingsOf({ status: "todo", type: "task", priority: 2, projectId: "prj_X", labels: ["bug", "ui"] }),
    ).toEqual([
      { field: "all" },
      { field: "status", value: "todo" },
      { field: "type", value: "task" },
      { field: "priority", value: 2 },
      { field: "project", value: "prj_X" },
      { field: "label", value: "bug" },
      { field: "label", value: "ui" },
    ]);
    expect(listingsOf({ status: "triage", type: "signal", priority: 0, projectId: null, labels: [] })).toHaveLength(4);
  });

  it("reads KZN references and nothing else", () => {
    expect(parseIssueRef("KZN-1")).toBe(1);
    expect(parseIssueRef("kzn-42")).toBe(42);
    expect(issueRef(7)).toBe("KZN-7");
    for (const ref of ["KZN-0", "KZN-01", "KZN-", "KZN-1a", "iss_1", "KZN-1234567890123"]) {
      expect(parseIssueRef(ref)).toBeUndefined();
    }
  });
});
