import { describe, expect, it } from "vitest";
import { listingCountKey, listingEntryKey } from "../../../core/src/db/listing-index.js";
import {
  BUCKET_SIZE,
  ISSUE_LISTINGS,
  issueKey,
  issueRef,
  listingName,
  listingsOf,
  numberEntryKey,
  padNumber,
  parseIssueRef,
} from "../../../core/src/issues/keys.js";

describe("issue keys", () => {
  it("puts entity and version in every key", () => {
    expect(issueKey("iss_1")).toEqual({ pk: "$kaizen#issue_1#iss_1", sk: "$kaizen#issue_1" });
    expect(listingEntryKey("issue", listingName({ field: "status", value: "todo" }), padNumber(42))).toEqual({
      pk: "$kaizen#issuelist_1#status=todo",
      sk: "000000000042",
    });
    expect(numberEntryKey(7)).toEqual({ pk: "$kaizen#issuelist_1#all", sk: "000000000007" });
    expect(listingCountKey("issue", "all", ISSUE_LISTINGS.bucketOf(padNumber(312)))).toEqual({
      pk: "$kaizen#issuecount_1#all",
      sk: "0000000003",
    });
  });

  it("pads numbers so string order is number order", () => {
    const numbers = [1, 9, 10, 99, 100, 12345, 999_999_999];
    const sorted = [...numbers].map(padNumber).sort();
    expect(sorted).toEqual(numbers.map(padNumber));
  });

  it("groups numbers into ordered buckets whose bounds enclose their entries", () => {
    const { bucketOf, bucketStart, bucketEnd } = ISSUE_LISTINGS;
    expect(bucketOf(padNumber(1))).toBe("0000000000");
    expect(bucketOf(padNumber(BUCKET_SIZE - 1))).toBe("0000000000");
    expect(bucketOf(padNumber(BUCKET_SIZE))).toBe("0000000001");
    for (const n of [1, 99, 100, 101, 250, 9999, 123456]) {
      const sk = padNumber(n);
      const bucket = bucketOf(sk);
      expect(sk >= bucketStart(bucket)).toBe(true);
      expect(sk < bucketEnd(bucket)).toBe(true);
      expect(bucketEnd(bucket)).toBe(bucketStart(bucketOf(padNumber(n + BUCKET_SIZE))));
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
