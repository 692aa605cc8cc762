/**
 * @module scripts/build — bundles every `functions/<family>.ts` into `dist/functions/<family>.mjs`
 * (ESM, minified, node20, source maps, AWS SDK included and tree-shaken), with what it loads only on
 * demand in chunks beside it; run as `npm run build`, it also builds the web console into
 * `dist/console` (console/build.ts), which the service function serves from its package.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Metafile } from "esbuild";
import { buildConsole, CONSOLE_BUILD_DIR } from "../console/build.js";
import { LAMBDA_BUNDLE_DEFINE } from "../core/src/openapi/text.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const FUNCTIONS_DIR = join(ROOT, "functions");
export const BUNDLE_DIR = join(ROOT, "dist", "functions");

/** esbuild settings shared by the function bundles and the bench's reference bundle. */
export const LAMBDA_BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  sourcemap: true,
  outExtension: { ".js": ".mjs" },
  mainFields: ["module", "main"],
  // Some dependencies are CommonJS and call require(); give ESM bundles one.
  banner: {
    js: "import{createRequire as __kzCreateRequire}from'node:module';const require=__kzCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
  legalComments: "none",
  // A dynamic import() becomes a chunk file read when first called, not at a cold start: Handlebars'
  // compiler is needed only where template content is written (templates/render.ts).
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // The routes' OpenAPI text folds away (`doc: TEXT && {…}`, core/src/openapi/declare.ts): the service
  // serves the prebuilt document, so no function needs it (docs/contributing.md#budgets).
  define: LAMBDA_BUNDLE_DEFINE,
};

/** The family names that have a handler file. */
export function functionNames(): string[] {
  return readdirSync(FUNCTIONS_DIR)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => basename(file, ".ts"))
    .sort();
}

/**
 * Bundles one function into `outdir` on its own, as the deploy does (SST builds each function apart),
 * so its chunks hold only its own code; returns esbuild's metafile of what it wrote.
 */
export async function buildFunction(name: string, outdir = BUNDLE_DIR): Promise<Metafile> {
  const result = await build({
    ...LAMBDA_BUILD_OPTIONS,
    entryPoints: [join(FUNCTIONS_DIR, `${name}.ts`)],
    outdir,
    chunkNames: `chunks/${name}-[name]-[hash]`,
    metafile: true,
  });
  return result.metafile;
}

/** The files of one function's package in `outdir`, relative to it: its entry and its chunks, with their source maps. */
export function packageFiles(name: string, outdir = BUNDLE_DIR): string[] {
  const chunks = existsSync(join(outdir, "chunks"))
    ? readdirSync(join(outdir, "chunks"))
        .filter((file) => file.startsWith(`${name}-`))
        .map((file) => join("chunks", file))
    : [];
  return [`${name}.mjs`, `${name}.mjs.map`, ...chunks];
}

/** Bundles every function; returns the bundle paths by family. */
export async function buildFunctions(outdir = BUNDLE_DIR): Promise<Record<string, string>> {
  const names = functionNames();
  await Promise.all(names.map((name) => buildFunction(name, outdir)));
  return Object.fromEntries(names.map((name) => [name, join(outdir, `${name}.mjs`)]));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [bundles, consoleFiles] = await Promise.all([buildFunctions(), buildConsole()]);
  for (const [name, file] of Object.entries(bundles)) console.log(`${name}: ${file.slice(ROOT.length + 1)}`);
  console.log(
    `console: ${consoleFiles.map((file) => join(CONSOLE_BUILD_DIR, file).slice(ROOT.length + 1)).join(", ")}`,
  );
}
