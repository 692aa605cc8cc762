import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  createGoalBody,
  createLabelBody,
  createProjectBody,
  listGoalsQuery,
  listProjectsQuery,
  patchGoalBody,
  patchProjectBody,
} from "../../../core/src/catalog/schemas.js";

describe("catalog schemas", () => {
  it("store label colours lowercase, accepting either case", () => {
    expect(z.parse(createLabelBody(), { name: "bug", color: "#A1b2C3" })).toEqual({ name: "bug", color: "#a1b2c3" });
    expect(z.safeParse(createLabelBody(), { name: "bug", color: "a1b2c3" }).success).toBe(false);
  });

  it("leave optional fields absent on create so the service applies defaults", () => {
    expect(z.parse(createProjectBody(), { name: "p" })).toEqual({ name: "p" });
    expect(z.parse(createGoalBody(), { title: "g", targetValue: 0, currentValue: -1.5 })).toEqual({
      title: "g",
      targetValue: 0,
      currentValue: -1.5,
    });
  });

  it("take any subset on PATCH, null to clear optional fields, but never null for required ones", () => {
    expect(z.parse(patchProjectBody(), {})).toEqual({});
    expect(z.parse(patchProjectBody(), { description: null, goalId: null })).toEqual({
      description: null,
      goalId: null,
    });
    expect(z.safeParse(patchProjectBody(), { name: null }).success).toBe(false);
    expect(z.safeParse(patchGoalBody(), { status: null }).success).toBe(false);
    expect(z.safeParse(patchGoalBody(), { unknown: 1 }).success).toBe(false);
  });

  it("default pagination and refuse unknown query parameters", () => {
    expect(z.parse(listProjectsQuery(), {})).toEqual({ page: 1, limit: 20 });
    expect(z.parse(listGoalsQuery(), { status: "active", limit: "5" })).toEqual({
      page: 1,
      limit: 5,
      status: "active",
    });
    expect(z.safeParse(listGoalsQuery(), { sort: "name" }).success).toBe(false);
  });
});
