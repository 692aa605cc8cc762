/**
 * @module bench/bundles — bundle size and module init time of every function, each as a ratio to
 * the reference bundle (Hono + DynamoDBClient) built with the same esbuild options in the same run.
 */
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { buildFunctions, FUNCTIONS_DIR, LAMBDA_BUILD_OPTIONS, ROOT } from "../scripts/build.js";
import { median } from "./format.js";

export const REFERENCE = "reference";

export interface BundleFigures {
  name: string;
  file: string;
  bytes: number;
  /** Module init times in ms, one per fresh process. */
  initSamples: number[];
  initMedianMs: number;
  /** Output bytes by package (`kaizen` for this repository's own code), from esbuild's metafile. */
  composition: Map<string, number>;
}

export interface BundleReport {
  reference: BundleFigures;
  functions: BundleFigures[];
}

/** The environment a Lambda would give the module at init; nothing from this process leaks in. */
function initEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_REGION: "us-east-1",
    TABLE_NAME: "bench",
    // Port 9 (discard): nothing answers, and nothing should be asked at init.
    DYNAMODB_ENDPOINT: "http://127.0.0.1:9",
    SERVICE_API_KEY: `kaizen_${"0".repeat(64)}`,
    POWERTOOLS_LOG_LEVEL: "SILENT",
    AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: "1",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}

/** Imports `file` in a fresh `node` and returns the milliseconds the import took, timed inside that process. */
function timeImport(file: string): Promise<number> {
  const script = [
    "const started = performance.now();",
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    "process.stdout.write(String(performance.now() - started));",
    "process.exit(0);",
  ].join("\n");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--no-warnings", "--input-type=module", "-e", script], {
      env: initEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const value = Number(stdout.trim());
      if (code === 0 && stdout.trim() !== "" && Number.isFinite(value)) resolve(value);
      else reject(new Error(`importing ${file} failed (exit ${code}): ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/**
 * Builds the reference and every function into `outdir`, then times `runs` fresh imports of each,
 * interleaved round by round (and rotated) so machine noise lands on all of them alike.
 */
export async function measureBundles(outdir: string, runs: number, log: (line: string) => void): Promise<BundleReport> {
  const referenceEntry = join(ROOT, "bench", "reference.ts");
  await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [referenceEntry], outdir: join(outdir, "reference") });
  const functionFiles = await buildFunctions(join(outdir, "functions"));
  const entries: { name: string; file: string; source: string }[] = [
    { name: REFERENCE, file: join(outdir, "reference", "reference.mjs"), source: referenceEntry },
    ...Object.entries(functionFiles).map(([name, file]) => ({ name, file, source: join(FUNCTIONS_DIR, `${name}.ts`) })),
  ];
  const compositions = new Map<string, Map<string, number>>();
  for (const entry of entries) compositions.set(entry.name, await composition(entry.source, join(outdir, "meta")));
  const samples = new Map<string, number[]>(entries.map((entry) => [entry.name, []]));

  // One discarded import each: the first read of a file pays for the page cache.
  for (const entry of entries) await timeImport(entry.file);
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[(round + i) % entries.length];
      if (!entry) continue;
      samples.get(entry.name)?.push(await timeImport(entry.file));
    }
    if ((round + 1) % 5 === 0 || round + 1 === runs) log(`  init timing: ${round + 1}/${runs} rounds`);
  }

  const figures = entries.map((entry): BundleFigures => {
    const initSamples = samples.get(entry.name) ?? [];
    return {
      name: entry.name,
      file: entry.file,
      bytes: statSync(entry.file).size,
      initSamples,
      initMedianMs: median(initSamples),
      composition: compositions.get(entry.name) ?? new Map(),
    };
  });
  const [reference, ...functions] = figures;
  if (!reference) throw new Error("reference bundle missing");
  return { reference, functions };
}

/** Output bytes of one entry's bundle by package, built again (same options, not written) for its metafile. */
async function composition(entry: string, outdir: string): Promise<Map<string, number>> {
  const result = await build({ ...LAMBDA_BUILD_OPTIONS, entryPoints: [entry], outdir, write: false, metafile: true });
  const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined);
  const byPackage = new Map<string, number>();
  for (const [path, input] of Object.entries(output?.inputs ?? {})) {
    const name = packageOf(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
  }
  return byPackage;
}

function packageOf(path: string): string {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return "kaizen";
  const [first = "?", second = ""] = path.slice(at + "node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

/** What a bundle carries beyond the reference, largest first: `[package, extra bytes]`. */
export function growthOverReference(bundle: BundleFigures, reference: BundleFigures): [string, number][] {
  const names = new Set([...bundle.composition.keys(), ...reference.composition.keys()]);
  return [...names]
    .map((name): [string, number] => [
      name,
      (bundle.composition.get(name) ?? 0) - (reference.composition.get(name) ?? 0),
    ])
    .filter(([, extra]) => Math.abs(extra) >= 1024)
    .sort((a, b) => b[1] - a[1]);
}
