/**
 * @module scripts/openapi — `npm run openapi`: writes docs/openapi.json from the route table and the
 * zod schemas (core/src/openapi). The service serves that file, so the generator stays out of every
 * Lambda bundle; a test fails when the file and the schemas drift apart.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "../core/src/openapi/document.js";
import pkg from "../package.json" with { type: "json" };

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const OPENAPI_FILE = join(ROOT, "docs", "openapi.json");

/** The document the schemas and the route table describe now. */
export function currentOpenApiDocument(): Record<string, unknown> {
  return buildOpenApiDocument({ version: pkg.version, description: pkg.description });
}

/** The document as docs/openapi.json holds it: JSON as the project's formatter (biome) lays it out. */
export function openApiText(): string {
  const text = `${JSON.stringify(currentOpenApiDocument(), null, 2)}\n`;
  const biome = spawnSync(
    join(ROOT, "node_modules", ".bin", "biome"),
    ["format", "--stdin-file-path=docs/openapi.json"],
    { cwd: ROOT, input: text, encoding: "utf8" },
  );
  if (biome.status !== 0) throw new Error(`biome could not format the document: ${biome.stderr}`);
  return biome.stdout;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log("wrote docs/openapi.json");
}
