/**
 * @module openapi/docs-page — the `/docs` reference page: Swagger UI (swagger-ui-dist) rendering
 * `/api/openapi.json`, its files served by the service itself so the page needs no other host.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { NotFoundError } from "../errors.js";

/** The npm package whose prebuilt files the page loads. */
export const DOCS_UI_PACKAGE = "swagger-ui-dist";

/** Every file `/docs/assets/:file` serves, with its media type; anything else is a 404. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/**
 * What a Lambda package must carry beside the bundle for the page to work: the served files plus
 * the package's licence, at the place Node's resolution finds them from `functions/service.mjs`
 * (SST `copyFiles`, from and to relative to the project and the package root).
 */
export const DOCS_COPY_FILES: readonly { from: string; to: string }[] = [
  ...Object.keys(DOCS_ASSETS),
  "LICENSE",
  "NOTICE",
].map((file) => ({ from: `node_modules/${DOCS_UI_PACKAGE}/${file}`, to: `node_modules/${DOCS_UI_PACKAGE}/${file}` }));

export const DOCS_HTML_CONTENT_TYPE = "text/html; charset=utf-8";

/** The page: Swagger UI with no online validator badge (it would call another host) and no top bar. */
export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Kaizen API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: "/api/openapi.json",
      dom_id: "#swagger-ui",
      deepLinking: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
    });
  </script>
</body>
</html>
`;

// Resolved from this module's own location: node_modules locally, the copied files in a Lambda package.
const resolvePackageFile = createRequire(import.meta.url).resolve;
const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * One of the page's files and its media type; a 404 for a name that is not one of {@link DOCS_ASSETS}.
 * @example const { body, contentType } = await readDocsAsset("swagger-ui.css");
 */
export async function readDocsAsset(file: string): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const contentType = Object.hasOwn(DOCS_ASSETS, file) ? DOCS_ASSETS[file] : undefined;
  if (!contentType) throw new NotFoundError(`No docs asset ${file}`);
  let body = cache.get(file);
  if (!body) {
    body = readFile(resolvePackageFile(`${DOCS_UI_PACKAGE}/${file}`)).then((buffer) => Uint8Array.from(buffer));
    // A failed read is not kept: the next request tries again.
    body.catch(() => cache.delete(file));
    cache.set(file, body);
  }
  return { body: await body, contentType };
}
