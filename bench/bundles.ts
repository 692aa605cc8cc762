/**
 * @module bench/bundles — bundle size and module init of every function, each as a ratio to the
 * reference bundle (./reference.ts: Hono + DynamoDBClient) built with the same esbuild options in the same run,
 * and the web console's script as a browser downloads it (gzipped).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { buildConsole } from "../console/build.js";
import { buildFunction, FUNCTIONS_DIR, functionNames, LAMBDA_BUILD_OPTIONS, ROOT } from "../scripts/build.js";
import { atMost, BUDGETS, withinKb } from "./budgets.js";
import { kb, ms, quantile, table, times } from "./format.js";
import type { Section } from "./section.js";

interface Bundle {
  name: string;
  file: string;
  /** What a cold start reads: the entry file and the chunks it imports statically. */
  bytes: number;
  /** Chunks read only when the code asks for them (dynamic imports), beyond {@link Bundle.bytes}. */
  onDemandBytes: number;
  /** Module init times, one per fresh process. */
  init: number[];
  /**
   * This bundle's init over the reference's, one per pair of imports made back to back (the order
   * alternating): the machine's drift between rounds falls on both sides of each ratio.
   */
  initRatios: number[];
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

/**
 * Builds the reference and each function apart (as the deploy does, chunks and all), then times
 * `runs` imports of each function, each paired with an import of the reference made just before or after it. A bundle's bytes are what a cold start reads: its entry file and
 * the chunks it imports statically; chunks only a dynamic import reads are counted apart.
 */
async function measureBundles(outdir: string, runs: number, log: (line: string) => void): Promise<Bundle[]> {
  const referenceEntry = join(ROOT, "bench", "reference.ts");
  const reference = await build({
    ...LAMBDA_BUILD_OPTIONS,
    entryPoints: [referenceEntry],
    outdir: join(outdir, "reference"),
    metafile: true,
  });
  const built = [{ name: "reference", source: referenceEntry, metafile: reference.metafile }];
  for (const name of functionNames()) {
    built.push({
      name,
      source: join(FUNCTIONS_DIR, `${name}.ts`),
      metafile: await buildFunction(name, join(outdir, "functions")),
    });
  }
  const bundles = built.map(({ name, source, metafile }): Bundle => {
    const { entry, loaded, onDemand } = outputsOf(metafile, source);
    const bytesOf = (files: string[]) => files.reduce((sum, file) => sum + (metafile.outputs[file]?.bytes ?? 0), 0);
    const composition = new Map<string, number>();
    for (const file of loaded) {
      for (const [path, input] of Object.entries(metafile.outputs[file]?.inputs ?? {})) {
        composition.set(packageOf(path), (composition.get(packageOf(path)) ?? 0) + input.bytesInOutput);
      }
    }
    return {
      name,
      file: entry,
      bytes: bytesOf(loaded),
      onDemandBytes: bytesOf(onDemand),
      init: [],
      initRatios: [],
      composition,
    };
  });

  // One discarded import each (the first read of a file pays for the page cache), then rounds: in
  // each, every function (in rotated order) is imported right after or right before the reference.
  for (const bundle of bundles) await timeImport(bundle.file);
  const [base, ...functions] = bundles;
  if (!base) throw new Error("no reference bundle");
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < functions.length; i++) {
      const bundle = functions[(round + i) % functions.length];
      if (!bundle) continue;
      const referenceFirst = (round + i) % 2 === 0;
      const first = await timeImport(referenceFirst ? base.file : bundle.file);
      const second = await timeImport(referenceFirst ? bundle.file : base.file);
      const [ref, own] = referenceFirst ? [first, second] : [second, first];
      base.init.push(ref);
      bundle.init.push(own);
      bundle.initRatios.push(own / ref);
    }
    if ((round + 1) % 5 === 0 || round + 1 === runs) log(`  init timing: ${round + 1}/${runs} rounds`);
  }
  return bundles;
}

/**
 * The output files of one entry (metafile paths): its own file (absolute), the files a cold start
 * reads (it and the chunks it imports statically, transitively) and those only a dynamic import reads.
 */
function outputsOf(metafile: Metafile, source: string): { entry: string; loaded: string[]; onDemand: string[] } {
  const entryPoint = relative(process.cwd(), source);
  const entry = Object.keys(metafile.outputs).find((file) => metafile.outputs[file]?.entryPoint === entryPoint);
  if (!entry) throw new Error(`no output for ${entryPoint}`);
  const loaded = new Set<string>();
  const dynamic: string[] = [];
  const walk = (file: string, into: Set<string>) => {
    if (loaded.has(file) || into.has(file)) return;
    into.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.external) continue;
      if (imported.kind === "import-statement") walk(imported.path, into);
      else if (imported.kind === "dynamic-import") dynamic.push(imported.path);
    }
  };
  walk(entry, loaded);
  const onDemand = new Set<string>();
  for (let next = dynamic.pop(); next !== undefined; next = dynamic.pop()) walk(next, onDemand);
  return { entry: resolve(entry), loaded: [...loaded], onDemand: [...onDemand].filter((file) => !loaded.has(file)) };
}

export const bundlesSection: Section = {
  name: "bundles",
  title:
    "Bundle size and module init (fresh node, each import paired with one of the reference), against the reference bundle",
  async run(ctx) {
    const outdir = mkdtempSync(join(tmpdir(), "kaizen-bench-"));
    try {
      ctx.log("building the reference and the function bundles…");
      const [reference, ...functions] = await measureBundles(outdir, ctx.settings.BENCH_INIT_RUNS, ctx.log);
      if (reference?.name !== "reference") throw new Error("the reference bundle was not built");
      const row = (bundle: Bundle) => [
        bundle.name,
        kb(bundle.bytes),
        times(bundle.bytes / reference.bytes),
        bundle.onDemandBytes > 0 ? kb(bundle.onDemandBytes) : "–",
        ms(quantile(bundle.init, 0.5)),
        bundle === reference ? times(1) : times(quantile(bundle.initRatios, 0.5)),
        `${ms(quantile(bundle.init, 0.25))} – ${ms(quantile(bundle.init, 0.75))}`,
      ];
      ctx.log(
        table(
          ["bundle", "read at init", "× ref", "on demand", "init (median)", "× ref (paired)", "init p25 – p75"],
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
      // The console is not a function: it is measured by what a browser downloads.
      const consoleDir = join(outdir, "console");
      const consoleFiles = await buildConsole(consoleDir);
      const script = consoleFiles.find((file) => file.endsWith(".js")) ?? "";
      const scriptBytes = readFileSync(join(consoleDir, script));
      const gzipped = gzipSync(scriptBytes, { level: 9 }).length;
      ctx.log(`console script ${script}: ${kb(scriptBytes.length)}, ${kb(gzipped)} gzipped`);
      const consoleLine = withinKb(
        "web console script, gzipped",
        gzipped,
        BUDGETS.consoleScriptGzipKb,
        `${kb(scriptBytes.length)} minified`,
      );
      return [
        ...functions.flatMap((bundle) => [
          atMost(`bundle size, ${bundle.name}`, bundle.bytes / reference.bytes, BUDGETS.bundle, kb(bundle.bytes)),
          atMost(
            `module init, ${bundle.name}`,
            quantile(bundle.initRatios, 0.5),
            BUDGETS.init,
            `${ms(quantile(bundle.init, 0.5))}; median of ${bundle.initRatios.length} paired ratios`,
          ),
        ]),
        consoleLine,
      ];
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  },
};
