import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { PreconditionFailedError } from "../../core/src/errors.js";
import { checkVersion, expectedVersion } from "../../core/src/http/conditional.js";
import { contentEtagOf } from "../../core/src/http/respond.js";

async function parse(header: string | undefined): Promise<readonly number[] | undefined | "412"> {
  const app = new Hono();
  app.get("/", (c) => {
    try {
      return c.json({ version: expectedVersion(c) ?? null });
    } catch (error) {
      if (error instanceof PreconditionFailedError) return c.json({ version: "412" });
      throw error;
    }
  });
  const response = await app.request("/", { headers: header === undefined ? {} : { "If-Match": header } });
  const { version } = (await response.json()) as { version: number[] | null | "412" };
  return version ?? undefined;
}

describe("If-Match", () => {
  it("reads one strong version tag", async () => {
    expect(await parse('"7"')).toEqual([7]);
    expect(await parse(' "12" ')).toEqual([12]);
  });

  it("reads a list of tags as any of the versions its strong tags name", async () => {
    expect(await parse('"7", "1"')).toEqual([7, 1]);
    expect(await parse('"7","1"')).toEqual([7, 1]);
    // Weak tags and tags that name no version of ours never match; the others of the list still can.
    expect(await parse('W/"1", "2"')).toEqual([2]);
    expect(await parse('"abc", "0", "3"')).toEqual([3]);
    // Empty members are allowed in a list (RFC 9110 section 5.6.1), a comma inside a tag is the tag's.
    expect(await parse(' , "4",, "5" ,')).toEqual([4, 5]);
    expect(await parse('"a,b", "6"')).toEqual([6]);
  });

  it("means any version when absent or *", async () => {
    expect(await parse(undefined)).toBeUndefined();
    expect(await parse("*")).toBeUndefined();
  });

  it("can never match weak or malformed tags, nor a list of only those", async () => {
    for (const header of ['W/"7"', "7", '"abc"', '"0"', '"-1"', 'W/"1", W/"2"', '"0", "abc"', ","]) {
      expect(await parse(header), header).toBe("412");
    }
    // The weak tag of a computed document (http/respond.ts) is one of those.
    expect(await parse(contentEtagOf({ total: 3 }))).toBe("412");
  });

  it("refuses a whole list with a member that is not an entity tag, as a single malformed tag", async () => {
    for (const header of ['"1", 2', '"1" "2"', '"1", *', '"1", "2', '"1";"2"', '"1", W/2', '"1", "a b"']) {
      expect(await parse(header), header).toBe("412");
    }
  });

  it("compares with the current version: a match is any version listed", () => {
    expect(() => checkVersion(undefined, 3)).not.toThrow();
    expect(() => checkVersion([3], 3)).not.toThrow();
    expect(() => checkVersion([7, 3], 3)).not.toThrow();
    expect(() => checkVersion([2], 3)).toThrow(PreconditionFailedError);
    expect(() => checkVersion([7, 2], 3)).toThrow(PreconditionFailedError);
  });
});
