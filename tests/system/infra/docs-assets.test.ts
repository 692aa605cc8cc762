/**
 * The service function's Lambda package carries the `/docs` page's files and the built web console
 * (SST `copyFiles`), and no other function carries them: infra/api.ts evaluated against the SST recorder.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CONSOLE_BUILD_DIR } from "../../../console/build.js";
import { LINKED } from "../../../core/src/config.js";
import { CONSOLE_COPY_FILES, CONSOLE_PACKAGE_DIR } from "../../../core/src/console/assets.js";
import { DOCS_ASSETS, DOCS_COPY_FILES, DOCS_UI_PACKAGE } from "../../../core/src/openapi/docs-page.js";
import { installSstRecorder, uninstallSstRecorder } from "../../helpers/sst-recorder.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

afterEach(() => {
  uninstallSstRecorder();
  vi.unstubAllEnvs();
});

async function recordedFunctions() {
  vi.stubEnv("PUBLIC_BASE_URL", undefined);
  vi.stubEnv("CORS_ALLOWED_ORIGINS", undefined);
  const recording = installSstRecorder({ secrets: { [LINKED.serviceApiKey]: `kaizen_${"ab".repeat(32)}` } });
  vi.resetModules();
  for (const module of ["infra/table.ts", "infra/secrets.ts", "infra/api.ts"]) {
    await import(/* @vite-ignore */ join(ROOT, module));
  }
  return recording.ofKind("sst.aws.Function");
}

describe("the docs assets in the Lambda packages", () => {
  it("are copied into the service function's package, every served file with the package's licence", async () => {
    const service = (await recordedFunctions()).find(
      (fn) => (fn.args as { handler: string }).handler === "functions/service.handler",
    );
    expect(service).toBeDefined();
    const copyFiles = (service?.args as { copyFiles?: { from: string; to: string }[] } | undefined)?.copyFiles;
    expect(copyFiles).toEqual([...DOCS_COPY_FILES, ...CONSOLE_COPY_FILES]);
    const copied = (copyFiles ?? []).map(({ to }) => to);
    for (const file of [...Object.keys(DOCS_ASSETS), "LICENSE"]) {
      expect(copied).toContain(`node_modules/${DOCS_UI_PACKAGE}/${file}`);
    }
    for (const { from, to } of DOCS_COPY_FILES) {
      expect(existsSync(join(ROOT, from)), from).toBe(true);
      // Where Node's resolution finds the package from functions/service.mjs at the package root.
      expect(to).toBe(from);
      expect(to.startsWith(`node_modules/${DOCS_UI_PACKAGE}/`)).toBe(true);
    }
  });

  it("include the built web console, at the folder the service reads it from in a package", async () => {
    const service = (await recordedFunctions()).find(
      (fn) => (fn.args as { handler: string }).handler === "functions/service.handler",
    );
    const copyFiles = (service?.args as { copyFiles?: { from: string; to: string }[] } | undefined)?.copyFiles ?? [];
    const consoleCopy = copyFiles.filter(({ to }) => to === CONSOLE_PACKAGE_DIR);
    expect(consoleCopy).toEqual([{ from: relative(ROOT, CONSOLE_BUILD_DIR), to: CONSOLE_PACKAGE_DIR }]);
    // The deploy builds it first (sst.config.ts); the test run's global setup has built it here.
    const built = readdirSync(CONSOLE_BUILD_DIR);
    expect(built).toContain("index.html");
    expect(built.filter((file) => /^app-[0-9A-Z]+\.(js|css)$/.test(file))).toHaveLength(2);
  });

  it("are not copied into any other function's package", async () => {
    const others = (await recordedFunctions()).filter(
      (fn) => (fn.args as { handler: string }).handler !== "functions/service.handler",
    );
    expect(others.length).toBeGreaterThan(0);
    for (const fn of others) expect((fn.args as { copyFiles?: unknown }).copyFiles, fn.name).toBeUndefined();
  });
});
