/**
 * Schema modules cost a Lambda bundle only the schemas it uses: building a schema has no effect at
 * load (http/resource-fields), so esbuild drops every one nothing reads.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
import { LAMBDA_BUILD_OPTIONS, ROOT } from "../../../scripts/build.js";

/** Every module that builds schemas, as esbuild's metafile names it. */
const SCHEMA_MODULES = [
  ...readdirSync(join(ROOT, "core", "src"))
    .map((domain) => `core/src/${domain}/schemas.ts`)
    .filter((path) => existsSync(join(ROOT, path))),
  "core/src/http/pagination.ts",
  "core/src/http/resource-fields.ts",
  "core/src/errors.ts",
];

/** The bundle of `contents` (an entry at the repository's root), built as the functions are. */
async function bundle(contents: string): Promise<{ text: string; inputs: Metafile["outputs"][string]["inputs"] }> {
  const result = await build({
    ...LAMBDA_BUILD_OPTIONS,
    stdin: { contents, resolveDir: ROOT, loader: "ts", sourcefile: "entry.ts" },
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
      expect.arrayContaining(["core/src/issues/schemas.ts", "core/src/dispatch/schemas.ts"]),
    );
  });

  it("add nothing to a bundle that imports them all and reads none of their schemas", async () => {
    const { inputs } = await bundle(SCHEMA_MODULES.map((path) => `import "./${path}";`).join("\n"));
    for (const path of SCHEMA_MODULES) expect(inputs[path]?.bytesInOutput ?? 0, path).toBe(0);
  });
});
