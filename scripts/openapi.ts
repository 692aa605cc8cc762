/**
 * @module scripts/openapi — `npm run openapi`: writes docs/openapi.json from the route table and the
 * zod schemas of requests and answers (core/src/openapi), and the typed client's types
 * (client/api-types.ts) from that document with openapi-typescript. The service serves the document, so the generator stays out of
 * every Lambda bundle; tests fail when either file drifts from the schemas.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { buildOpenApiDocument } from "../core/src/openapi/document.js";
import pkg from "../package.json" with { type: "json" };

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const OPENAPI_FILE = join(ROOT, "docs", "openapi.json");
export const CLIENT_TYPES_FILE = join(ROOT, "client", "api-types.ts");

/** The document the schemas and the route table describe now. */
export function currentOpenApiDocument(): Record<string, unknown> {
  return buildOpenApiDocument({ version: pkg.version, description: pkg.description });
}

/** `text` as the project's formatter (biome) lays out a file at `path`. */
function formatted(path: string, text: string): string {
  const biome = spawnSync(join(ROOT, "node_modules", ".bin", "biome"), ["format", `--stdin-file-path=${path}`], {
    cwd: ROOT,
    input: text,
    encoding: "utf8",
  });
  if (biome.status !== 0) throw new Error(`biome could not format ${path}: ${biome.stderr}`);
  return biome.stdout;
}

/** The document as docs/openapi.json holds it: JSON as the project's formatter (biome) lays it out. */
export function openApiText(): string {
  return formatted("docs/openapi.json", `${JSON.stringify(currentOpenApiDocument(), null, 2)}\n`);
}

/** client/api-types.ts as openapi-typescript writes it from the current document, formatted. */
export async function clientTypesText(): Promise<string> {
  const ast = await openapiTS(currentOpenApiDocument() as unknown as Parameters<typeof openapiTS>[0]);
  const header =
    "/**\n * @module client/api-types — the API's paths, operations and schemas as TypeScript types, generated\n" +
    " * from docs/openapi.json by openapi-typescript. Do not edit: run `npm run openapi`.\n */\n";
  return formatted("client/api-types.ts", `${header}${astToString(ast)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_FILE, openApiText());
  writeFileSync(CLIENT_TYPES_FILE, await clientTypesText());
  console.log("wrote docs/openapi.json and client/api-types.ts");
}
