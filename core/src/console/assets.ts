/**
 * @module console/assets — serving the web console (docs/api.md#console) from the files `console/build.ts`
 * wrote: the HTML shell for every page URL, and the hashed script and stylesheet under
 * `/app/assets/`. They are read from disk, not bundled, so no function grows: `dist/console` beside
 * `dist/functions` locally, `console/` beside `functions/` in the service function's package (SST
 * `copyFiles`), or `dist/console` from the source tree under `npm start`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { NotFoundError } from "../errors.js";

/** The console's folder in a function package, beside `functions/`. */
export const CONSOLE_PACKAGE_DIR = "console";

/**
 * What the service function's package carries beside its bundle (SST `copyFiles`, relative to the
 * project and the package root): the folder `console/build.ts` writes, which the deploy builds first.
 */
export const CONSOLE_COPY_FILES: readonly { from: string; to: string }[] = [
  { from: "dist/console", to: CONSOLE_PACKAGE_DIR },
];

/**
 * What the console's pages may load: scripts and styles from the service itself, calls to its own
 * API, nothing inline, nothing from another origin, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers on every console answer. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

// Where the files are, in the order tried: beside the bundle (dist/functions → dist/console; a
// package's functions/ → console/), then from the source tree (core/src/console → dist/console).
const CANDIDATES = [`../${CONSOLE_PACKAGE_DIR}/`, "../../../dist/console/"].map((relative) =>
  fileURLToPath(new URL(relative, import.meta.url)),
);

let folder: string | undefined;
function consoleFolder(): string {
  folder ??= CANDIDATES.find((candidate) => existsSync(`${candidate}index.html`));
  if (!folder) throw new NotFoundError("The console is not built (npm run build builds it)");
  return folder;
}

/** The names `console/build.ts` gives the script and the stylesheet: `app-` and esbuild's content hash. */
const ASSET_NAME = /^app-[0-9A-Z]+\.(js|css)$/;

// Scripts and stylesheets are named by their content, so a copy read once stays right.
const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * The page every console URL answers with; the browser's router shows the page the URL names. Read
 * on every request (a few hundred bytes), so a rebuild is served at once.
 */
export async function readConsoleShell(): Promise<Uint8Array<ArrayBuffer>> {
  return Uint8Array.from(await readFile(`${consoleFolder()}index.html`));
}

/**
 * One of the built script and stylesheet; a 404 for any other name.
 * @example const { body, contentType } = await readConsoleAsset("app-HDPOXB4Q.js");
 */
export async function readConsoleAsset(file: string): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const contentType = ASSET_NAME.test(file) ? MEDIA_TYPES[file.slice(file.lastIndexOf("."))] : undefined;
  if (!contentType) throw new NotFoundError(`No console asset ${file}`);
  let body = cache.get(file);
  if (!body) {
    body = readFile(`${consoleFolder()}${file}`).then(
      (buffer) => Uint8Array.from(buffer),
      (error: NodeJS.ErrnoException) => {
        throw error.code === "ENOENT" ? new NotFoundError(`No console asset ${file}`) : error;
      },
    );
    // A failed read is not kept: the next request tries again.
    body.catch(() => cache.delete(file));
    cache.set(file, body);
  }
  return { body: await body, contentType };
}
