/**
 * A cold start builds no zod schema (core/src/schema.ts): importing every schema module calls no
 * zod builder; a schema is built on its first use, once.
 */
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ROOT } from "../../scripts/build.js";
import { SCHEMA_MODULES } from "../helpers/schema-modules.js";

const calls = vi.hoisted(() => ({ count: 0 }));

// Every zod/mini function, counted: a call while the modules load is a schema built at import.
vi.mock("zod/mini", async (importOriginal) => {
  const zod = await importOriginal<Record<string, unknown>>();
  return Object.fromEntries(
    Object.entries(zod).map(([name, value]) => [
      name,
      typeof value === "function" && !/^[A-Z$]/.test(name)
        ? (...args: unknown[]) => {
            calls.count++;
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value,
    ]),
  );
});

/** Every schema module, and the module that parses with them. */
const LOADED = [...SCHEMA_MODULES, "core/src/http/validation.ts"];

describe("schemas are built on first use", () => {
  beforeEach(() => {
    vi.resetModules();
    calls.count = 0;
  });

  it("importing every schema module and the families' handlers builds none", async () => {
    for (const path of LOADED) await import(join(ROOT, path));
    await import(join(ROOT, "core/src/families.ts"));
    expect(calls.count).toBe(0);
  });

  it("builds a schema when it is first asked for, and only then", async () => {
    const { createIssueBody } = await import(join(ROOT, "core/src/issues/schemas.ts"));
    expect(calls.count).toBe(0);
    const schema = createIssueBody();
    const built = calls.count;
    expect(built).toBeGreaterThan(0);
    expect(createIssueBody()).toBe(schema);
    expect(calls.count).toBe(built);
  });

  it("a built schema still validates", async () => {
    const { createIssueBody } = await import(join(ROOT, "core/src/issues/schemas.ts"));
    const { parseWith } = await import(join(ROOT, "core/src/http/validation.ts"));
    expect(parseWith(createIssueBody(), { title: "t", type: "task" }, "body")).toMatchObject({ title: "t" });
    expect(() => parseWith(createIssueBody(), { title: "", type: "task" }, "body")).toThrow(
      "title: must be 1..500 characters",
    );
  });
});
