import { describe, expect, it } from "vitest";
import {
  createCommentBody,
  listCommentsQuery,
  MAX_AUTHOR_NAME_LENGTH,
  MAX_BODY_LENGTH,
} from "../../../core/src/comments/schemas.js";
import { ValidationError } from "../../../core/src/errors.js";
import { parseWith } from "../../../core/src/http/validation.js";

const PARENT = "cmt_01JD0000000000000000000001";
const valid = { body: "Looks like a **race** in checkout.", authorName: "Ada", authorType: "human" };

function bodyError(input: unknown): string {
  try {
    parseWith(createCommentBody(), input, "body");
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error("expected a validation error");
}

function queryError(input: Record<string, string>): string {
  try {
    parseWith(listCommentsQuery(), input, "query");
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error("expected a validation error");
}

describe("comment body", () => {
  it("takes the contract's fields, parentId optional or null", () => {
    expect(parseWith(createCommentBody(), valid, "body")).toEqual(valid);
    expect(parseWith(createCommentBody(), { ...valid, authorType: "agent", parentId: PARENT }, "body").parentId).toBe(
      PARENT,
    );
    expect(parseWith(createCommentBody(), { ...valid, parentId: null }, "body").parentId).toBeNull();
  });

  it("keeps the body as written (Markdown whitespace matters)", () => {
    const body = "  - item\n\n```\ncode\n```\n";
    expect(parseWith(createCommentBody(), { ...valid, body }, "body").body).toBe(body);
  });

  it("takes bodies of 1..50000 characters and names of 1..100", () => {
    expect(() => parseWith(createCommentBody(), { ...valid, body: "x" }, "body")).not.toThrow();
    expect(() => parseWith(createCommentBody(), { ...valid, body: "x".repeat(MAX_BODY_LENGTH) }, "body")).not.toThrow();
    expect(() =>
      parseWith(createCommentBody(), { ...valid, authorName: "a".repeat(MAX_AUTHOR_NAME_LENGTH) }, "body"),
    ).not.toThrow();
  });

  it.each([
    ["an empty body", { ...valid, body: "" }, /^body: must be 1\.\.50000 characters/],
    ["a blank body", { ...valid, body: " \n\t " }, /^body: must be 1\.\.50000 characters, not all whitespace/],
    ["a body too long", { ...valid, body: "x".repeat(MAX_BODY_LENGTH + 1) }, /^body: must be 1\.\.50000 characters/],
    ["a missing body", { authorName: "Ada", authorType: "human" }, /^body: /],
    ["a non-string body", { ...valid, body: 42 }, /^body: /],
    ["an empty author name", { ...valid, authorName: "" }, /^authorName: must be 1\.\.100 characters/],
    ["an author name too long", { ...valid, authorName: "a".repeat(101) }, /^authorName: must be 1\.\.100 characters/],
    ["a bad author type", { ...valid, authorType: "robot" }, /^authorType: /],
    ["a missing author type", { body: "x", authorName: "Ada" }, /^authorType: /],
    ["an unknown field", { ...valid, author: "Ada" }, /unknown field: author/],
    ["a parentId that is not a comment id", { ...valid, parentId: "iss_01JD0000000000000000000000" }, /^parentId: /],
    ["a body that is not an object", [valid], /expected object/],
  ])("refuses %s", (_name, input, message) => {
    expect(bodyError(input)).toMatch(message);
  });
});

describe("comment list query", () => {
  it("defaults the page and takes a parentId filter", () => {
    expect(parseWith(listCommentsQuery(), {}, "query")).toEqual({ page: 1, limit: 20 });
    expect(parseWith(listCommentsQuery(), { parentId: PARENT, page: "2", limit: "5" }, "query")).toEqual({
      page: 2,
      limit: 5,
      parentId: PARENT,
    });
  });

  it.each([
    ["an unknown parameter", { sort: "createdAt" }, /unknown field: sort/],
    ["a malformed parentId", { parentId: "nope" }, /^parentId: must be a comment id/],
    ["limit 0", { limit: "0" }, /^limit: /],
    ["limit over 100", { limit: "101" }, /^limit: /],
    ["page abc", { page: "abc" }, /^page: /],
  ])("refuses %s", (_name, input, message) => {
    expect(queryError(input)).toMatch(message);
  });
});
