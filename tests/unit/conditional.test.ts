import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { PreconditionFailedError } from "../../core/src/errors.js";
import { checkVersion, expectedVersion } from "../../core/src/http/conditional.js";
import { contentEtagOf } from "../../core/src/http/respond.js";

async function parse(header: string | undefined): Promise<number | undefined | "412"> {
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
  const { version } = (await response.json()) as { version: number | null | "412" };
  return version ?? undefined;
}

describe("If-Match", () => {
  it("reads one strong version tag", async () => {
    expect(await parse('"7"')).toBe(7);
    expect(await parse(' "12" ')).toBe(12);
  });

  it("means any version when absent or *", async () => {
    expect(await parse(undefined)).toBeUndefined();
    expect(await parse("*")).toBeUndefined();
  });

  it("can never match weak, malformed or several tags", async () => {
    for (const header of ['W/"7"', "7", '"abc"', '"0"', '"1", "2"', '"-1"']) expect(await parse(header)).toBe("412");
    // The weak tag of a computed document (http/respond.ts) is one of those.
    expect(await parse(contentEtagOf({ total: 3 }))).toBe("412");
  });

  it("compares with the current version", () => {
    expect(() => checkVersion(undefined, 3)).not.toThrow();
    expect(() => checkVersion(3, 3)).not.toThrow();
    expect(() => checkVersion(2, 3)).toThrow(PreconditionFailedError);
  });
});
