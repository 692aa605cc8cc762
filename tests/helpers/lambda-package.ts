/**
 * The built service bundle in a folder laid out as a Lambda package (`functions/service.mjs` plus
 * what SST's `copyFiles` adds, files or folders), away from the repository's node_modules and dist/.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Context } from "aws-lambda";
import { inject } from "vitest";
import { packageFiles } from "../../scripts/build.js";
import { apiGatewayEvent } from "./apigw.js";
import type { Handler } from "./lambda.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Packages of the service function, each loaded once with `env` set while its module initialises.
 * @example const packages = servicePackages(); const handler = await packages.handler(DOCS_COPY_FILES, env);
 */
export function servicePackages() {
  const roots: string[] = [];
  return {
    async handler(copyFiles: readonly { from: string; to: string }[], env: Record<string, string>): Promise<Handler> {
      const root = mkdtempSync(join(tmpdir(), "kaizen-lambda-package-"));
      roots.push(root);
      mkdirSync(join(root, "functions", "chunks"), { recursive: true });
      const bundles = dirname(inject("bundles").service ?? "");
      for (const file of packageFiles("service", bundles)) cpSync(join(bundles, file), join(root, "functions", file));
      for (const { from, to } of copyFiles) cpSync(join(ROOT, from), join(root, to), { recursive: true });
      const saved = { ...process.env };
      Object.assign(process.env, env);
      try {
        const url = pathToFileURL(join(root, "functions", "service.mjs")).href;
        return ((await import(/* @vite-ignore */ url)) as { handler: Handler }).handler;
      } finally {
        for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
        Object.assign(process.env, saved);
      }
    },
    /** Removes every package made. */
    remove() {
      for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A GET through the handler, its body as bytes whatever the media type. */
export async function getBytes(handler: Handler, path: string) {
  const result = (await handler(apiGatewayEvent({ method: "GET", path }), {} as Context)) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    isBase64Encoded: boolean;
  };
  return { ...result, body: Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8") };
}
