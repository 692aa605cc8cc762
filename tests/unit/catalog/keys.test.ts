import { decodeTime, ulid } from "ulid";
import { describe, expect, it } from "vitest";
import {
  catalogSortKey,
  foldLabelName,
  GOAL_ID,
  GOAL_LISTINGS,
  goalKey,
  goalListings,
  LABEL_ID,
  LABEL_LISTINGS,
  labelKey,
  labelNameKey,
  newCatalogId,
  PROJECT_ID,
  PROJECT_LISTINGS,
  projectKey,
  projectListings,
  ulidFloor,
} from "../../../core/src/catalog/keys.js";
import { listingCountKey, listingEntryKey } from "../../../core/src/db/listing-index.js";

describe("catalog keys", () => {
  it("name the entity and version in every key", () => {
    expect(projectKey("prj_1")).toEqual({ pk: "$kaizen#project_1#prj_1", sk: "$kaizen#project_1" });
    expect(goalKey("gol_1")).toEqual({ pk: "$kaizen#goal_1#gol_1", sk: "$kaizen#goal_1" });
    expect(labelKey("lbl_1")).toEqual({ pk: "$kaizen#label_1#lbl_1", sk: "$kaizen#label_1" });
    expect(labelNameKey("Bug")).toEqual({ pk: "$kaizen#labelname_1#bug", sk: "$kaizen#labelname_1" });
    expect(listingEntryKey(PROJECT_LISTINGS.entity, "status=active", "01ARZ3NDEKTSV4RRFFQ69G5FAV").pk).toBe(
      "$kaizen#projectlist_1#status=active",
    );
    expect(listingCountKey(GOAL_LISTINGS.entity, "all", "000001").pk).toBe("$kaizen#goalcount_1#all");
    expect(LABEL_LISTINGS.entity).toBe("label");
  });

  it("fold label names so that names differing only in case claim the same key", () => {
    expect(labelNameKey("BUG")).toEqual(labelNameKey("bug"));
    expect(labelNameKey("Bug")).not.toEqual(labelNameKey("Bugs"));
    // Composed and decomposed forms of one name are the same name.
    expect(foldLabelName("Caf\u00e9")).toBe(foldLabelName("CAFE\u0301"));
  });

  it("make prefixed ULID ids whose time is createdAt, in creation order within a millisecond", () => {
    const at = Date.now() + 60_000;
    const ids = Array.from({ length: 50 }, () => newCatalogId("prj", at));
    const atIso = new Date(at).toISOString();
    expect(ids.every(({ id, createdAt }) => PROJECT_ID.test(id) && createdAt === atIso)).toBe(true);
    const keys = ids.map(({ id }) => catalogSortKey(id));
    expect([...keys].sort()).toEqual(keys);
    expect(decodeTime(keys[0] ?? "")).toBe(at);
    // A clock that steps back gets the previous instant, never an earlier id.
    const behind = newCatalogId("gol", at - 5_000);
    expect(GOAL_ID.test(behind.id)).toBe(true);
    expect(behind.createdAt).toBe(atIso);
    expect(catalogSortKey(behind.id) > (keys.at(-1) ?? "")).toBe(true);
    expect(LABEL_ID.test(newCatalogId("lbl").id)).toBe(true);
    expect(PROJECT_ID.test("prj_01ARZ3NDEKTSV4RRFFQ69G5FAU")).toBe(false); // U is not Crockford base32
  });

  it("bucket by day, with bounds that enclose the day's ids", () => {
    const sk = ulid(Date.parse("2026-05-06T07:30:00.000Z"));
    const bucket = LABEL_LISTINGS.bucketOf(sk);
    expect(LABEL_LISTINGS.bucketStart(bucket) <= sk).toBe(true);
    expect(sk < LABEL_LISTINGS.bucketEnd(bucket)).toBe(true);
    expect(LABEL_LISTINGS.bucketStart(bucket)).toBe(ulidFloor(Date.parse("2026-05-06T00:00:00.000Z")));
    expect(LABEL_LISTINGS.bucketEnd(bucket)).toBe(ulidFloor(Date.parse("2026-05-07T00:00:00.000Z")));
    const lastOfDay = ulid(Date.parse("2026-05-06T23:59:59.999Z"));
    expect(LABEL_LISTINGS.bucketOf(lastOfDay)).toBe(bucket);
    const nextDay = ulid(Date.parse("2026-05-07T00:00:00.000Z"));
    expect(LABEL_LISTINGS.bucketOf(nextDay) > bucket).toBe(true);
  });

  it("list each record in `all` and in one listing per filterable value", () => {
    expect(projectListings({ status: "active" })).toEqual(["all", "status=active"]);
    expect(goalListings({ status: "achieved", projectId: null })).toEqual(["all", "status=achieved"]);
    expect(goalListings({ status: "active", projectId: "prj_1" })).toEqual(["all", "status=active", "project=prj_1"]);
  });
});
