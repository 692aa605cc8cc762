/** The modules of core/src that define zod schemas (core/src/schema.ts), as paths from the repository's root. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../scripts/build.js";

export const SCHEMA_MODULES = [
  ...readdirSync(join(ROOT, "core", "src"))
    .map((domain) => `core/src/${domain}/schemas.ts`)
    .filter((path) => existsSync(join(ROOT, path))),
  "core/src/issues/relation-schemas.ts",
  "core/src/http/pagination.ts",
  "core/src/http/resource-fields.ts",
  "core/src/errors.ts",
];
