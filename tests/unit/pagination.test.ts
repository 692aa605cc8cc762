import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { ValidationError } from "../../core/src/errors.js";
import { linkHeader, pageOffset, paginationQuery } from "../../core/src/http/pagination.js";
import { parseWith } from "../../core/src/http/validation.js";

const query = z.strictObject(paginationQuery());

describe("pagination query", () => {
  it("defaults to page 1 of 20", () => {
    expect(parseWith(query, {}, "query")).toEqual({ page: 1, limit: 20 });
  });

  it("accepts the bounds", () => {
    expect(parseWith(query, { page: "10000", limit: "100" }, "query")).toEqual({ page: 10000, limit: 100 });
    expect(parseWith(query, { page: "1", limit: "1" }, "query")).toEqual({ page: 1, limit: 1 });
  });

  it.each([
    ["page", "0"],
    ["page", "-1"],
    ["page", "1.5"],
    ["page", "abc"],
    ["page", ""],
    ["page", "10001"],
    ["page", " 2"],
    ["limit", "0"],
    ["limit", "101"],
    ["limit", "1e2"],
    ["limit", ""],
  ])("refuses %s=%j with a message naming the parameter", (name, value) => {
    const attempt = () => parseWith(query, { [name]: value }, "query");
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow(new RegExp(`^${name}: ${name} must be an integer between 1 and`));
  });

  it("computes offsets as (page - 1) * limit", () => {
    expect(pageOffset({ page: 1, limit: 20 })).toBe(0);
    expect(pageOffset({ page: 500, limit: 20 })).toBe(9980);
  });
});

describe("linkHeader", () => {
  const url = "https://api.example.com/api/issues?status=todo&page=2&limit=20";

  it("links next and prev with every other parameter kept", () => {
    expect(linkHeader(url, { page: 2, limit: 20 }, 45)).toBe(
      '<https://api.example.com/api/issues?status=todo&page=3&limit=20>; rel="next", ' +
        '<https://api.example.com/api/issues?status=todo&page=1&limit=20>; rel="prev"',
    );
  });

  it("has no next on the last page and no prev on the first", () => {
    expect(linkHeader(url, { page: 3, limit: 20 }, 45)).toBe(
      '<https://api.example.com/api/issues?status=todo&page=2&limit=20>; rel="prev"',
    );
    expect(linkHeader(url, { page: 1, limit: 20 }, 45)).toBe(
      '<https://api.example.com/api/issues?status=todo&page=2&limit=20>; rel="next"',
    );
    expect(linkHeader(url, { page: 1, limit: 20 }, 20)).toBeUndefined();
  });

  it("points prev at the last page from past the end", () => {
    expect(linkHeader(url, { page: 9, limit: 20 }, 45)).toBe(
      '<https://api.example.com/api/issues?status=todo&page=3&limit=20>; rel="prev"',
    );
  });
});
