/**
 * Schema modules cost a Lambda bundle only the schemas it uses: each definition is a pure-annotated
 * call (core/src/schema.ts), so esbuild drops every one nothing reads, the response schemas above all.
 */
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { LAMBDA_BUILD_OPTIONS, ROOT } from "../../../scripts/build.js";
import { SCHEMA_MODULES } from "../../helpers/schema-modules.js";

/** The bundle of `contents` (an entry at the repository's root), built as the functions are. */
async function bundle(contents: string): Promise<{ text: string; inputs: Metafile["outputs"][string]["inputs"] }> {
  const result = await build({
    ...LAMBDA_BUILD_OPTIONS,
    stdin: { contents, resolveDir: ROOT, loader: "ts", sourcefile: "entry.ts" },
    // One file out: the schema modules load nothing on demand, so there is nothing to split.
    splitting: false,
    outfile: "entry.mjs",
    sourcemap: false,
    write: false,
    metafile: true,
  });
  const [output] = Object.values(result.metafile.outputs);
  return { text: result.outputFiles.map((file) => file.text).join(""), inputs: output?.inputs ?? {} };
}

describe("schema modules", () => {
  it("are found: every domain with a schemas.ts", () => {
    expect(SCHEMA_MODULES).toEqual(
      expect.arrayContaining([
        "core/src/issues/schemas.ts",
        "core/src/dispatch/schemas.ts",
        "core/src/service/schemas.ts",
      ]),
    );
  });

  it("add nothing to a bundle that imports them all and reads none of their schemas", async () => {
    const { inputs } = await bundle(SCHEMA_MODULES.map((path) => `import "./${path}";`).join("\n"));
    for (const path of SCHEMA_MODULES) expect(inputs[path]?.bytesInOutput ?? 0, path).toBe(0);
  });

  it("give a bundle that reads a request schema that schema and not the response schemas beside it", async () => {
    const { text, inputs } = await bundle(
      'import { createIssueBody } from "./core/src/issues/schemas.ts";\nconsole.log(createIssueBody);',
    );
    expect(inputs["core/src/issues/schemas.ts"]?.bytesInOutput).toBeGreaterThan(0);
    expect(text.includes("must be 1..500 characters"), "createIssueBody is in the bundle").toBe(true);
    // The response's `identifier` pattern is in the issue schema only, not in any request schema.
    expect(text.includes("^KZN-[1-9][0-9]*$"), "the issue's response schema is in the bundle").toBe(false);
  });
});
