/**
 * @module console/build — builds the web console (docs/api.md#console) into a folder of static files: one
 * script and one stylesheet named by their content's hash, and the `index.html` shell that loads
 * them. The service serves that folder at `/app` (core/src/console/assets.ts); `npm start`, `npm run
 * build` and the deploy build it here, so no Lambda bundle carries it.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Where `npm start`, `npm run build` and the deploy put the console. */
export const CONSOLE_BUILD_DIR = join(HERE, "..", "dist", "console");

/** The HTML every console page starts from: no inline script or style, so the CSP can forbid both. */
export function consoleShell(script: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Kaizen console</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/app/assets/${stylesheet}">
  <script type="module" src="/app/assets/${script}"></script>
</head>
<body>
  <div id="app"><p class="boot">Loading the Kaizen console…</p></div>
  <noscript>The Kaizen console needs JavaScript.</noscript>
</body>
</html>
`;
}

/**
 * Builds the console into `outdir` and returns the names of its files. Safe while a server reads
 * the folder: the files are written beside it and moved in one by one (a rename replaces a file in
 * one step), the shell last, and only then are the files of an earlier build removed.
 * @example await buildConsole(); // dist/console/index.html, app-3F2K….js, app-9QX1….css
 */
export async function buildConsole(outdir = CONSOLE_BUILD_DIR): Promise<string[]> {
  mkdirSync(dirname(outdir), { recursive: true });
  const staging = mkdtempSync(`${outdir}.building-`);
  try {
    const result = await build({
      entryPoints: { app: join(HERE, "src", "main.tsx") },
      outdir: staging,
      bundle: true,
      format: "esm",
      platform: "browser",
      target: ["chrome114", "firefox115", "safari16"],
      minify: true,
      sourcemap: false,
      jsx: "automatic",
      jsxImportSource: "preact",
      entryNames: "[name]-[hash]",
      legalComments: "none",
      logLevel: "warning",
      metafile: true,
    });
    const assets = Object.keys(result.metafile.outputs).map((file) => basename(file));
    const script = assets.find((file) => file.endsWith(".js"));
    const stylesheet = assets.find((file) => file.endsWith(".css"));
    if (!script || !stylesheet)
      throw new Error(`The console build wrote ${assets.join(", ")}: no script or stylesheet`);
    writeFileSync(join(staging, "index.html"), consoleShell(script, stylesheet));
    mkdirSync(outdir, { recursive: true });
    const files = [...assets, "index.html"];
    for (const file of files) renameSync(join(staging, file), join(outdir, file));
    for (const file of readdirSync(outdir)) if (!files.includes(file)) rmSync(join(outdir, file), { force: true });
    return files.sort();
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await buildConsole();
  console.log(`console: ${files.map((file) => join("dist", "console", file)).join(", ")}`);
}
