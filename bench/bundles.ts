/**
 * @module bench/bundles — bundle size and module init of every function, each as a ratio to the
 * reference bundle (./reference.ts: Hono + DynamoDBClient) built with the same esbuild options in the same run.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { FUNCTIONS_DIR, functionNames, LAMBDA_BUILD_OPTIONS, ROOT } from "../scripts/build.js";
import { atMost, BUDGETS } from "./budgets.js";
import { kb, ms, quantile, table, times } from "./format.js";
import type { Section } from "./section.js";

interface Bundle {
  name: string;
  file: string;
  bytes: number;
  /** Module init times, one per fresh process. */
  init: number[];
  /** Output bytes by package (`kaizen` for this repository's code). */
  composition: Map<string, number>;
}

/** Imports `file` in a fresh `node` with a Lambda's environment; the milliseconds the import took inside it. */
function timeImport(file: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t)); process.exit(0);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--no-warnings", "--input-type=module", "-e", script], {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: "us-east-1",
        TABLE_NAME: "bench",
        // Port 9 (discard): nothing answers, and nothing should be asked at init.
        DYNAMODB_ENDPOINT: "http://127.0.0.1:9",
        SERVICE_API_KEY: `kaizen_${"0".repeat(64)}`,
        POWERTOOLS_LOG_LEVEL: "SILENT",
        AWS_SDK_JS_SUPPRESS_NODE_DEPRECATION_WARNING: "1",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const value = Number(out.trim());
      if (code === 0 && out.trim() !== "" && Number.isFinite(value)) resolve(value);
      else reject(new Error(`importing ${file} failed (exit ${code}): ${err.trim().slice(0, 500)}`));
    });
  });
}

function packageOf(path: string): string {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return "kaizen";
  const [first = "?", second = ""] = path.slice(at + "node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

/** Builds the reference and every function in one esbuild run, then times `runs` interleaved imports of each. */
async function measureBundles(outdir: string, runs: number, log: (line: string) => void): Promise<Bundle[]> {
  const sources = { reference: join(ROOT, "bench", "reference.ts") } as Record<string, string>;
  for (const name of functionNames()) sources[name] = join(FUNCTIONS_DIR, `${name}.ts`);
  const result = await build({
    ...LAMBDA_BUILD_OPTIONS,
    entryPoints: sources,
    outdir,
    metafile: true,
    absWorkingDir: ROOT,
  });
  const bundles = Object.entries(result.metafile.outputs)
    .filter(([, output]) => output.entryPoint !== undefined)
    .map(([file, output]): Bundle => {
      const composition = new Map<string, number>();
      for (const [path, input] of Object.entries(output.inputs)) {
        composition.set(packageOf(path), (composition.get(packageOf(path)) ?? 0) + input.bytesInOutput);
      }
      return {
        name: basename(file, ".mjs"),
        file: join(ROOT, file),
        bytes: statSync(join(ROOT, file)).size,
        init: [],
        composition,
      };
    })
    .sort((a, b) => (a.name === "reference" ? -1 : b.name === "reference" ? 1 : a.name.localeCompare(b.name)));

  // One discarded import each (the first read of a file pays for the page cache), then rounds, rotated.
  for (const bundle of bundles) await timeImport(bundle.file);
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < bundles.length; i++) {
      const bundle = bundles[(round + i) % bundles.length];
      bundle?.init.push(await timeImport(bundle.file));
    }
    if ((round + 1) % 5 === 0 || round + 1 === runs) log(`  init timing: ${round + 1}/${runs} rounds`);
  }
  return bundles;
}

export const bundlesSection: Section = {
  name: "bundles",
  title: "Bundle size and module init (fresh node, interleaved), against the reference bundle",
  async run(ctx) {
    const outdir = mkdtempSync(join(tmpdir(), "kaizen-bench-"));
    try {
      ctx.log("building the reference and the function bundles…");
      const [reference, ...functions] = await measureBundles(outdir, ctx.settings.BENCH_INIT_RUNS, ctx.log);
      if (reference?.name !== "reference") throw new Error("the reference bundle was not built");
      const refInit = quantile(reference.init, 0.5);
      const row = (bundle: Bundle) => [
        bundle.name,
        kb(bundle.bytes),
        times(bundle.bytes / reference.bytes),
        ms(quantile(bundle.init, 0.5)),
        times(quantile(bundle.init, 0.5) / refInit),
        `${ms(quantile(bundle.init, 0.25))} – ${ms(quantile(bundle.init, 0.75))}`,
      ];
      ctx.log(
        table(
          ["bundle", "size", "× ref", "init (median)", "× ref", "init p25 – p75"],
          [reference, ...functions].map(row),
        ),
      );
      for (const bundle of functions) {
        const growth = [...new Set([...bundle.composition.keys(), ...reference.composition.keys()])]
          .map((name): [string, number] => [
            name,
            (bundle.composition.get(name) ?? 0) - (reference.composition.get(name) ?? 0),
          ])
          .filter(([, extra]) => Math.abs(extra) >= 1024)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([name, extra]) => `${name} ${extra >= 0 ? "+" : ""}${kb(extra)}`);
        ctx.log(
          `  ${bundle.name} vs reference: ${kb(bundle.bytes - reference.bytes)} more; largest: ${growth.join(", ")}`,
        );
      }
      return functions.flatMap((bundle) => [
        atMost(`bundle size, ${bundle.name}`, bundle.bytes / reference.bytes, BUDGETS.bundle, kb(bundle.bytes)),
        atMost(
          `module init, ${bundle.name}`,
          quantile(bundle.init, 0.5) / refInit,
          BUDGETS.init,
          ms(quantile(bundle.init, 0.5)),
        ),
      ]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  },
};
